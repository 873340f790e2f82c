package siteinfo

import (
	"strings"
	"testing"
)

func TestPublishedFile(t *testing.T) {
	cases := []struct {
		rel, want string
	}{
		{"SKILL.md", "skills/pdf/SKILL.md"},
		{"scripts/run.py", "skills/pdf/scripts/run.py"},
		{"references/guide.md", "skills/pdf/references/guide.md"},
		{"notes.txt", "skills/pdf/notes.txt"},
		{"LICENSE", "skills/pdf/LICENSE"},
		{"evil.html", "skills/pdf/evil.html.txt"},
		{"assets/x.svg", "skills/pdf/assets/x.svg.txt"},
		{"a/b/C.HTM", "skills/pdf/a/b/C.HTM.txt"},
		{"page.XHTML", "skills/pdf/page.XHTML.txt"},
		{"inc.shtml", "skills/pdf/inc.shtml.txt"},
		{"x.svgz", "skills/pdf/x.svgz.txt"},
		{"feed.xml", "skills/pdf/feed.xml.txt"},
		{"style.xsl", "skills/pdf/style.xsl.txt"},
		{"style.xslt", "skills/pdf/style.xslt.txt"},
		{"saved.mht", "skills/pdf/saved.mht.txt"},
		{"saved.MHTML", "skills/pdf/saved.MHTML.txt"},
		// Already ending in .txt: one more, so that evil.html and
		// evil.html.txt stay apart.
		{"evil.html.txt", "skills/pdf/evil.html.txt.txt"},
		{"evil.html.TXT", "skills/pdf/evil.html.TXT.txt"},
		// Folders with an active extension are renamed too.
		{"site.html/readme.md", "skills/pdf/site.html.txt/readme.md"},
		// The page's own files.
		{"index.html", "skills/pdf/index.html.txt"},
		{"index.html.md", "skills/pdf/index.html.md.txt"},
		{"INDEX.HTML.MD", "skills/pdf/INDEX.HTML.MD.txt"},
		{"index.html.md.txt", "skills/pdf/index.html.md.txt.txt"},
		{"pdf.skill", "skills/pdf/pdf.skill.txt"},
		{"PDF.Skill", "skills/pdf/PDF.Skill.txt"},
		{"other.skill", "skills/pdf/other.skill"},
		{"skill.md", "skills/pdf/skill.md.txt"},
		{"index.html.md/x.md", "skills/pdf/index.html.md.txt/x.md"},
		// Only at the top: deeper, these names are ordinary.
		{"docs/index.html.md", "skills/pdf/docs/index.html.md"},
		{"docs/skill.md", "skills/pdf/docs/skill.md"},
		{"docs/pdf.skill", "skills/pdf/docs/pdf.skill"},
		{"docs/index.html", "skills/pdf/docs/index.html.txt"},
		// Not publishable.
		{"", ""},
		{"a\\b.md", ""},
		{"../x.md", ""},
		{"/abs.md", ""},
		{"a//b.md", ""},
		{".", ""},
	}
	for _, c := range cases {
		if got := PublishedFile("pdf", c.rel); got != c.want {
			t.Errorf("PublishedFile(pdf, %q) = %q, want %q", c.rel, got, c.want)
		}
	}
}

// TestPublishedFileInjective: no two files, and no file and folder, of a
// skill end up at the same site path.
func TestPublishedFileInjective(t *testing.T) {
	names := []string{"a", "a.html", "a.html.txt", "a.html.txt.txt", "a.txt", "A.HTML", "index.html", "index.html.txt",
		"index.html.md", "index.html.md.txt", "x.skill", "x.skill.txt", "SKILL.md", "skill.md", "skill.md.txt", ".txt", ".txt.txt"}
	seen := map[string]string{}
	for _, first := range names {
		for _, second := range append([]string{""}, names...) {
			rel := first
			if second != "" {
				rel += "/" + second
			}
			got := PublishedFile("x", rel)
			if prev, dup := seen[got]; dup {
				t.Errorf("%q and %q are both published at %q", prev, rel, got)
			}
			seen[got] = rel
		}
	}
	// A published file is a folder of another published path only when it
	// is that path's folder in the skill too (which a real skill cannot
	// have: a name is a file or a folder).
	for got, rel := range seen {
		if strings.Contains(rel, "/") {
			continue
		}
		for other, orel := range seen {
			if strings.HasPrefix(other, got+"/") && !strings.HasPrefix(orel, rel+"/") {
				t.Errorf("file %q at %q is a folder of %q (%q)", rel, got, orel, other)
			}
		}
	}
}

func FuzzPublishedFile(f *testing.F) {
	for _, s := range []string{"evil.html", "a/b.svg.txt", "index.html.md", "x.skill", "skill.md"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, rel string) {
		got := PublishedFile("x", rel)
		if got == "" {
			return
		}
		if !strings.HasPrefix(got, "skills/x/") {
			t.Fatalf("%q -> %q escapes the skill folder", rel, got)
		}
		for _, seg := range strings.Split(strings.TrimPrefix(got, "skills/x/"), "/") {
			for ext := range activeExtensions {
				if strings.HasSuffix(strings.ToLower(seg), ext) {
					t.Fatalf("%q -> %q is served as %s", rel, got, ext)
				}
			}
		}
		if top, _, _ := strings.Cut(strings.TrimPrefix(got, "skills/x/"), "/"); strings.EqualFold(top, "index.html.md") || strings.EqualFold(top, "x.skill") {
			t.Fatalf("%q -> %q takes a page file's place", rel, got)
		}
	})
}

// TestPathProblem: the paths no archive or site can hold, and some it
// can.
func TestPathProblem(t *testing.T) {
	for rel, bad := range map[string]bool{
		"scripts/run.py": false, "SKILL.md": false, "a b/ü.txt": false, "x:y": false,
		"": true, ".": true, `odd\name.txt`: true, "bad\xffname": true, "../x": true, "a//b": true, "/abs": true, "a/": true,
	} {
		if got := PathProblem(rel); (got != "") != bad {
			t.Errorf("PathProblem(%q) = %q", rel, got)
		}
		if bad && PublishedFile("s", rel) != "" {
			t.Errorf("PublishedFile(s, %q) = %q, want none", rel, PublishedFile("s", rel))
		}
	}
}
