package siteinfo

import "testing"

func TestLinks(t *testing.T) {
	cases := []struct {
		base, path, link, url string
	}{
		{"", "skills/a/", "/skills/a/", "/skills/a/"},
		{"https://acme.github.io/repo", "skills/a/", "/repo/skills/a/", "https://acme.github.io/repo/skills/a/"},
		{"https://acme.github.io/repo/", "", "/repo/", "https://acme.github.io/repo/"},
		{"/sub", "skills/技能/", "/sub/skills/%E6%8A%80%E8%83%BD/", "/sub/skills/%E6%8A%80%E8%83%BD/"},
		{"https://example.com", "tags/a b/", "/tags/a%20b/", "https://example.com/tags/a%20b/"},
	}
	for _, c := range cases {
		i, err := New("T", c.base)
		if err != nil {
			t.Fatal(err)
		}
		if got := i.Link(c.path); got != c.link {
			t.Errorf("Link(%q) with base %q = %q, want %q", c.path, c.base, got, c.link)
		}
		if got := i.URL(c.path); got != c.url {
			t.Errorf("URL(%q) with base %q = %q, want %q", c.path, c.base, got, c.url)
		}
	}
	for _, bad := range []string{"ftp://x/", "https://", "https://x/?q=1", "https://x/#f"} {
		if _, err := New("", bad); err == nil {
			t.Errorf("New(%q) accepted", bad)
		}
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Machine Learning": "machine-learning", "C++": "c-plus-plus", "C#": "c-sharp", "c": "c",
		"real-time": "real-time", "数据": "数据", "  ": "term-2020", "#run/always": "sharp-run-always",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}
