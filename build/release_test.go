package build

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/testutil"
)

// TestReleasingBuildMatchesKeeping builds the same sources twice, once
// letting each skill go after the pass (the default of a one-off build)
// and once keeping every skill whole: the sites must be the same file
// for file, and the first build must really have let go.
func TestReleasingBuildMatchesKeeping(t *testing.T) {
	sources := mixedSources(t, 120)
	info, err := siteinfo.New("Test", "https://example.org/x/")
	if err != nil {
		t.Fatal(err)
	}
	sites := map[bool]map[string]string{}
	for _, keep := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "site")
		res, err := Build(context.Background(), Options{LoadOptions: LoadOptions{Sources: sources}, Output: out, Site: info, KeepSkills: keep})
		if err != nil {
			t.Fatal(err)
		}
		sites[keep] = siteDigest(t, out)
		whole := 0
		// Every skill found, published or not.
		for _, s := range res.Catalog.All {
			holds := s.Body != nil || s.Source != nil || s.Doc != nil || s.Skill.Doc != nil ||
				s.UASPSource != nil || s.UASPNode != nil || s.UASPValue != nil
			if holds && s.Published() {
				whole++
			}
			if !keep && (holds || !s.Released() || s.Unloaded()) {
				t.Errorf("released build: %s (%s) still holds its sources (released: %v, unloaded: %v)", s.Name, s.Path, s.Released(), s.Unloaded())
			}
			if keep && (s.Released() || s.Unloaded()) {
				t.Errorf("kept build: %s (%s) was released or unloaded", s.Name, s.Path)
			}
		}
		if unpublished := len(res.Catalog.All) - len(res.Catalog.Skills); unpublished < 5 {
			t.Errorf("the sources have %d unpublished skills; the test wants some", unpublished)
		}
		if keep && whole < len(res.Catalog.Skills)/2 {
			t.Errorf("kept build: only %d of %d skills have their sources", whole, len(res.Catalog.Skills))
		}
	}
	if len(sites[true]) < 1000 {
		t.Fatalf("the site has %d files; the sources should give thousands", len(sites[true]))
	}
	diffSites(t, "releasing against keeping", sites[false], sites[true])
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
