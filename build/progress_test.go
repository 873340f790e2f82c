package build

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/pass"
	"github.com/skilldex/skilldex/internal/testutil"
)

// progressCatalog has three skills, one of which cannot be published.
const progressCatalog = `
-- a/SKILL.md --
---
name: a
description: The first skill of the progress test.
---
-- b/SKILL.md --
---
name: b
description: The second skill of the progress test.
---
-- broken/SKILL.md --
no frontmatter
`

// TestProgressStages: a build tells its Progress of each stage in order,
// with the inputs as the total of parsing and the published skills as
// the total of the writers' pass, and counts every item of the stage.
func TestProgressStages(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), progressCatalog)
	var stages []string
	p := &Progress{}
	p.OnStage = func(stage string, total int) {
		done, n := p.Count()
		if done != 0 || n != total {
			t.Errorf("stage %s starts with a count of %d/%d, want 0/%d", stage, done, n, total)
		}
		stages = append(stages, fmt.Sprintf("%s %d", stage, total))
	}
	c, err := Load(context.Background(), LoadOptions{Sources: []string{src}, Progress: p})
	if err != nil {
		t.Fatal(err)
	}
	if done, total := p.Count(); done != 3 || total != 3 {
		t.Errorf("after Load, parsing counts %d/%d, want 3/3", done, total)
	}
	// The writers' pass counts each published skill once, whatever the
	// number of writers.
	p.start(StageSkills, len(c.Skills))
	works := make([]pass.Work, 3)
	if err := skillPass(context.Background(), make([]Writer, 3), works, nil, c, false, p); err != nil {
		t.Fatal(err)
	}
	if done, total := p.Count(); done != 2 || total != 2 {
		t.Errorf("after the writers' pass, it counts %d/%d, want 2/2", done, total)
	}

	stages = nil
	if _, err := Build(context.Background(), Options{LoadOptions: LoadOptions{Sources: []string{src}, Progress: p}, Output: filepath.Join(t.TempDir(), "site")}); err != nil {
		t.Fatal(err)
	}
	want := []string{StageDiscover + " 0", StageParse + " 3", StageSkills + " 2"}
	for _, w := range writers {
		want = append(want, w.Name()+" 0")
	}
	if !slices.Equal(stages, want) {
		t.Errorf("stages:\n%s\nwant:\n%s", strings.Join(stages, "\n"), strings.Join(want, "\n"))
	}
}

// TestNilProgress: a build without a Progress runs as one with.
func TestNilProgress(t *testing.T) {
	var p *Progress
	p.start(StageParse, 3)
	p.add()
	if done, total := p.Count(); done != 0 || total != 0 {
		t.Errorf("a nil Progress counts %d/%d", done, total)
	}
}
