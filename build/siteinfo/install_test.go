package siteinfo

import "testing"

func TestShellWord(t *testing.T) {
	for in, want := range map[string]string{
		"https://acme.github.io/skills/":     "https://acme.github.io/skills/",
		"http://127.0.0.1:8080/a%20b/~x/":    "http://127.0.0.1:8080/a%20b/~x/",
		"https://h/a&b/":                     "'https://h/a&b/'",
		"https://h/$HOME/":                   "'https://h/$HOME/'",
		"https://h/it's/":                    `'https://h/it'\''s/'`,
		"https://h/a b/":                     "'https://h/a b/'",
		"https://h/;rm -rf ~;/":              "'https://h/;rm -rf ~;/'",
		"https://user@h/x=1,y+2/@skills.dev": "https://user@h/x=1,y+2/@skills.dev",
	} {
		if got := ShellWord(in); got != want {
			t.Errorf("ShellWord(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestSkillsCLIName follows the skills CLI's isValidSkillName (1.6.0).
func TestSkillsCLIName(t *testing.T) {
	for name, want := range map[string]bool{
		"pdf-tools": true, "a": true, "x2": true, "0-1": true,
		"": false, "PDF": false, "pdf_tools": false, "-pdf": false, "pdf-": false, "pdf--tools": false,
		"pdf.tools": false, "réservé": false,
		"a234567890123456789012345678901234567890123456789012345678901234":  true,
		"a2345678901234567890123456789012345678901234567890123456789012345": false,
	} {
		if got := SkillsCLIName(name); got != want {
			t.Errorf("SkillsCLIName(%q) = %v, want %v", name, got, want)
		}
	}
}
