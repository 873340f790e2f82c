package build

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/catalogen"
	"github.com/skilldex/skilldex/internal/testutil"
)

// TestPassReadsEachSkillOnce: a build reads the content of each skill
// once, in its pass (Load, for the skills it does not publish); serve's
// rebuild reads only the skills that changed and the skills whose bleve
// chunk they share, the others' work coming from the memo: after an edit,
// and after a skill is added or removed some builds later.
func TestPassReadsEachSkillOnce(t *testing.T) {
	sources := mixedSources(t, 120)
	info, err := siteinfo.New("Test", "https://example.org/x/")
	if err != nil {
		t.Fatal(err)
	}
	contentReads.Store(0)
	res, err := Build(context.Background(), Options{LoadOptions: LoadOptions{Sources: sources}, Output: filepath.Join(t.TempDir(), "site"), Site: info})
	if err != nil {
		t.Fatal(err)
	}
	unpublished := 0 // and derived: their documents are made from their content
	for _, s := range res.Catalog.All {
		if !s.Published() && s.Doc != nil && s.Doc.Derived {
			unpublished++
		}
		if s.DocPending() {
			t.Errorf("%s: its document is still pending after the build", s.Path)
		}
	}
	if unpublished < 5 {
		t.Errorf("the sources have %d unpublished skills with a derived document; the test wants some", unpublished)
	}
	if got, want := contentReads.Load(), int64(len(res.Catalog.Skills)+unpublished); got != want {
		t.Errorf("a build read content %d times for %d published and %d unpublished skills", got, len(res.Catalog.Skills), unpublished)
	}

	src := filepath.Join(t.TempDir(), "gen")
	if err := catalogen.Generate(src, 300, 4); err != nil {
		t.Fatal(err)
	}
	opt := Options{LoadOptions: LoadOptions{Sources: []string{src}, Cache: NewCache()}, Output: filepath.Join(t.TempDir(), "inc"), Site: info}
	rebuild := func() *Result {
		t.Helper()
		contentReads.Store(0)
		res, err := Build(context.Background(), opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.Previous = res.Manifest
		return res
	}
	if res = rebuild(); contentReads.Load() != int64(len(res.Catalog.Skills)) {
		t.Errorf("first build of the cache: %d reads for %d skills", contentReads.Load(), len(res.Catalog.Skills))
	}
	rebuild()
	if n := contentReads.Load(); n != 0 {
		t.Errorf("a rebuild without a change read the content of %d skills", n)
	}
	entries, _ := os.ReadDir(src)
	edit := filepath.Join(src, entries[0].Name(), "SKILL.md")
	b, _ := os.ReadFile(edit)
	os.WriteFile(edit, append(b, "\nNever guess.\n"...), 0o644)
	res = rebuild()
	// The edited skill, and the others of its bleve chunk (about 64).
	n := contentReads.Load()
	if n < 1 || n >= int64(len(res.Catalog.Skills))/2 {
		t.Errorf("a rebuild after one edit read the content of %d of %d skills", n, len(res.Catalog.Skills))
	}
	t.Logf("a rebuild after one edit read the content of %d of %d skills", n, len(res.Catalog.Skills))

	// A skill added, then removed: where the other skills' links lead may
	// change, but finding their links needs no content, however many
	// builds ago it was last read. Without the bleve index, whose chunk
	// the added skill joins and is read with, the added skill is the only
	// one read.
	noBleve := *info
	noBleve.Parts.Bleve = false
	opt.Site = &noBleve
	rebuild()
	added := filepath.Join(src, "aaa-added")
	if err := os.Mkdir(added, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(added, "SKILL.md"), []byte("---\nname: aaa-added\ndescription: A skill added between two builds.\n---\n# Added\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, change := range []string{"added", "removed"} {
		if change == "removed" {
			if err := os.RemoveAll(added); err != nil {
				t.Fatal(err)
			}
		}
		res = rebuild()
		want := int64(0)
		if change == "added" {
			want = 1
		}
		if n := contentReads.Load(); n != want {
			t.Errorf("a rebuild after a skill was %s read the content of %d of %d skills, want %d", change, n, len(res.Catalog.Skills), want)
		}
	}
}

// TestSourceChangedDuringBuild: a SKILL.md saved again after the build
// read it, before the build wrote the skill's files, fails the build with
// an error that names the file, and the site already there is left as it
// was: the skill was checked, and its UASP document derived, from the
// first text.
func TestSourceChangedDuringBuild(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `
-- skills/alpha/SKILL.md --
---
name: alpha
description: The first skill.
---
# Alpha
-- skills/beta/SKILL.md --
---
name: beta
description: The second skill.
---
# Beta
`)
	src := filepath.Join(dir, "skills")
	out := filepath.Join(t.TempDir(), "site")
	if _, err := Build(context.Background(), Options{LoadOptions: LoadOptions{Sources: []string{src}}, Output: out}); err != nil {
		t.Fatal(err)
	}
	before := siteDigest(t, out)
	edited := filepath.Join(src, "beta", "SKILL.md")
	_, err := Build(context.Background(), Options{
		LoadOptions: LoadOptions{Sources: []string{src}, Progress: &Progress{OnStage: func(stage string, _ int) {
			if stage == StageSkills {
				if err := os.WriteFile(edited, []byte("---\nname: beta\ndescription: Saved again.\n---\n# Beta\n"), 0o644); err != nil {
					t.Error(err)
				}
			}
		}}},
		Output: out,
	})
	if err == nil || !strings.Contains(err.Error(), "changed while the site was being built") || !strings.Contains(err.Error(), "beta") {
		t.Fatalf("build of a skill edited while it ran: %v; want an error naming beta's SKILL.md", err)
	}
	diffSites(t, "the site after the failed build", siteDigest(t, out), before)
}
