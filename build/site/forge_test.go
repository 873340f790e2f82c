package site_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/forge"
	"github.com/skilldex/skilldex/build/pack"
	"github.com/skilldex/skilldex/build/siteinfo"
)

// TestForgeLinks: with a repository, each skill page links to its source
// on the forge, where the skill lives in the repository (RepoDir).
func TestForgeLinks(t *testing.T) {
	src := writeCatalog(t)
	var archive bytes.Buffer
	if err := pack.WriteFiles(&archive, "delta", []pack.File{{Path: "SKILL.md", Data: []byte("---\nname: delta\ndescription: An archive.\n---\n")}}); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "skills", "delta.skill"), archive.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, repo, branch string
		// want is what the pages of pdf-tools, mermaid-diagrams (a UASP
		// document alone) and delta (an archive, which no forge edits)
		// hold in their list of links to the forge; "" for no list.
		pdf, mermaid, delta string
	}{
		{"github", "https://github.com/acme/skills", "",
			`<li><a href="https://github.com/acme/skills/blob/main/cat/skills/pdf-tools/SKILL.md">View source</a></li><li><a href="https://github.com/acme/skills/edit/main/cat/skills/pdf-tools/SKILL.md">Edit this skill</a></li>`,
			`<li><a href="https://github.com/acme/skills/blob/main/cat/docs/mermaid-diagrams.uasp.yaml">View source</a></li>`,
			`<ul class="sd-forge"><li><a href="https://github.com/acme/skills/blob/main/cat/skills/delta.skill">View source</a></li></ul>`},
		{"gitlab branch", "https://gitlab.com/acme/skills.git", "v2",
			`<li><a href="https://gitlab.com/acme/skills/-/blob/v2/cat/skills/pdf-tools/SKILL.md">View source</a></li><li><a href="https://gitlab.com/acme/skills/-/edit/v2/cat/skills/pdf-tools/SKILL.md">Edit this skill</a></li>`,
			`<li><a href="https://gitlab.com/acme/skills/-/edit/v2/cat/docs/mermaid-diagrams.uasp.yaml">Edit this skill</a></li>`,
			`<ul class="sd-forge"><li><a href="https://gitlab.com/acme/skills/-/blob/v2/cat/skills/delta.skill">View source</a></li></ul>`},
		{"unknown forge", "https://git.example.com/acme/skills", "",
			`<li><a href="https://git.example.com/acme/skills">Source repository</a></li>`,
			`<li><a href="https://git.example.com/acme/skills">Source repository</a></li>`,
			`<li><a href="https://git.example.com/acme/skills">Source repository</a></li>`},
		{"quotes in the URL are escaped", `https://github.com/acme/x"><script>`, "",
			`<li><a href="https://github.com/acme/x%22%3E%3Cscript%3E/blob/main/cat/skills/pdf-tools/SKILL.md">View source</a></li>`, "", ""},
		{"not http", "javascript:alert(1)", "", "", "", ""},
		{"credentials", "https://user:token@github.com/acme/skills", "", "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			info, err := siteinfo.New("Test skills", "/")
			if err != nil {
				t.Fatal(err)
			}
			info.Repository, info.RepositoryBranch = c.repo, c.branch
			opt := build.Options{Output: filepath.Join(t.TempDir(), "public"), Site: info}
			opt.Sources = []string{src}
			opt.Source.RepoDir = map[string]string{src: "cat"}
			if _, err := build.Build(context.Background(), opt); err != nil {
				t.Fatal(err)
			}
			// The footer links the repository as the forge links do, or
			// not at all.
			wantFooter := ""
			if link, ok := forge.Repository(c.repo); ok {
				wantFooter = `<a href="` + strings.ReplaceAll(link, `"`, "%22") + `">source repository</a>`
			}
			if home, _ := os.ReadFile(filepath.Join(opt.Output, "index.html")); (wantFooter == "") == strings.Contains(string(home), "source repository") ||
				!strings.Contains(string(home), wantFooter) {
				i := strings.Index(string(home), "<footer")
				t.Errorf("the footer, want %q: %.400s", wantFooter, string(home)[max(i, 0):])
			}
			for name, want := range map[string]string{"pdf-tools": c.pdf, "mermaid-diagrams": c.mermaid, "delta": c.delta} {
				b, err := os.ReadFile(filepath.Join(opt.Output, "skills", name, "index.html"))
				if err != nil {
					t.Fatal(err)
				}
				page := string(b)
				if want == "" {
					if c.pdf == "" && strings.Contains(page, `class="sd-forge"`) {
						t.Errorf("%s: links to the forge of %q", name, c.repo)
					}
					continue
				}
				if !strings.Contains(page, want) {
					i := strings.Index(page, `class="sd-forge"`)
					t.Errorf("%s: want %s\nin the page's links to the forge: %.400s", name, want, page[max(i, 0):])
				}
			}
		})
	}
}
