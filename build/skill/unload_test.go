package skill

import (
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

// TestReloadSourceGivesWhatParseRead: a skill's text read back after
// UnloadSource is what Parse read and split, whatever the file's
// encoding, and the skill holds none of it in between.
func TestReloadSourceGivesWhatParseRead(t *testing.T) {
	for name, src := range map[string]string{
		"lf":             "---\nname: a\ndescription: b\n---\n# Body\n",
		"crlf":           "---\r\nname: a\r\ndescription: b\r\n---\r\nbody\r\n",
		"bom":            "\ufeff---\nname: a\ndescription: b\n---\nb",
		"invalid utf-8":  "---\nname: a\ndescription: b\n---\n\xff\xfe body",
		"no frontmatter": "# Title\n",
		"empty":          "",
	} {
		t.Run(name, func(t *testing.T) {
			s := parseSource(t, src)
			want := *s
			s.UnloadSource()
			if s.Source != nil || s.Body != nil || s.Doc != nil {
				t.Fatalf("unloaded, the skill still holds its text: source %q, body %q, doc %v", s.Source, s.Body, s.Doc != nil)
			}
			if err := s.ReloadSource(); err != nil {
				t.Fatal(err)
			}
			if s.unloaded != nil {
				t.Error("reloaded, the skill still counts as unloaded")
			}
			if string(s.Source) != string(want.Source) || string(s.Body) != string(want.Body) || !reflect.DeepEqual(s.Doc, want.Doc) {
				t.Errorf("reloaded text differs:\nsource %q\nwant   %q\nbody %q\nwant %q", s.Source, want.Source, s.Body, want.Body)
			}
			// Once reloaded, a second reload has nothing to do.
			if err := s.ReloadSource(); err != nil {
				t.Errorf("second reload: %v", err)
			}
		})
	}
}

// TestReloadSourceRefusesAnotherText: a SKILL.md edited or removed after
// it was read cannot be read back, and the error names the file.
func TestReloadSourceRefusesAnotherText(t *testing.T) {
	const src = "---\nname: a\ndescription: b\n---\nbody\n"
	for name, change := range map[string]func(fstest.MapFS){
		"edited":  func(fs fstest.MapFS) { fs["SKILL.md"].Data = []byte(src + "more\n") },
		"removed": func(fs fstest.MapFS) { delete(fs, "SKILL.md") },
	} {
		t.Run(name, func(t *testing.T) {
			s := parseSource(t, src)
			fsys := s.FS.(fstest.MapFS)
			s.UnloadSource()
			change(fsys)
			err := s.ReloadSource()
			if err == nil {
				t.Fatal("reloaded a text that is not the one parsed")
			}
			if !strings.Contains(err.Error(), "SKILL.md") {
				t.Errorf("the error does not name the file: %v", err)
			}
			if s.Source != nil || s.Body != nil {
				t.Error("a failed reload left a text in the skill")
			}
		})
	}
}

// TestUnloadSourceWithoutText: a skill with no SKILL.md text is left as
// it is, and reloading it does nothing.
func TestUnloadSourceWithoutText(t *testing.T) {
	s := &Skill{}
	s.UnloadSource()
	if s.unloaded != nil {
		t.Fatal("a skill without text counts as unloaded")
	}
	if err := s.ReloadSource(); err != nil {
		t.Fatal(err)
	}
}
