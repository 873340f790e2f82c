package searcheval_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/internal/searcheval"
	"github.com/skilldex/skilldex/internal/testutil"
)

const catalog = `
-- skills/sheet-charts/SKILL.md --
---
name: sheet-charts
description: Turn spreadsheet columns into bar and line charts for slides.
---
# Charts from spreadsheets

Read the workbook, pick the columns, draw the chart.
-- skills/pod-doctor/SKILL.md --
---
name: pod-doctor
description: Find why Kubernetes pods crash and restart, from events and logs.
---
# Crashing pods

Read the events, the previous container's logs and the probes.
-- skills/secret-guard/SKILL.md --
---
name: secret-guard
description: Stop credentials and API keys from being committed to git.
---
# Keeping secrets out of git

Scan staged changes before each commit.
`

// TestEnginesOnABuiltSite builds a small site and ranks judged queries
// with each engine as make eval-search does: each finds the skill a
// query is about, and the report counts it.
func TestEnginesOnABuiltSite(t *testing.T) {
	dir := t.TempDir()
	src := testutil.WriteTxtar(t, filepath.Join(dir, "src"), catalog)
	site := filepath.Join(dir, "site")
	if _, err := build.Build(context.Background(), build.Options{LoadOptions: build.LoadOptions{Sources: []string{src}}, Output: site}); err != nil {
		t.Fatal(err)
	}
	docs, err := searcheval.SiteDocs(site)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range docs {
		names = append(names, d.Name)
		if !strings.Contains(d.Text, "name: "+d.Name) {
			t.Errorf("%s: text is not its SKILL.md:\n%s", d.Name, d.Text)
		}
	}
	if !slices.Equal(names, []string{"pod-doctor", "secret-guard", "sheet-charts"}) {
		t.Errorf("SiteDocs read %v", names)
	}

	bl, err := searcheval.OpenBleve(site)
	if err != nil {
		t.Fatal(err)
	}
	defer bl.Close()
	engines := []searcheval.Engine{bl, searcheval.NewBM25(docs)}
	if node, err := exec.LookPath("node"); err == nil {
		core := filepath.Join(testutil.ProjectRoot(t), "static", "search-core.js")
		engines = append(engines, &searcheval.JSONIndex{Node: node, Core: core, Site: site})
	} else {
		t.Log("node is not installed: the JSON index is not checked")
	}
	qs := []searcheval.Query{
		{Text: "turn this spreadsheet into charts", Right: []string{"sheet-charts"}, Set: searcheval.TaskTrain},
		{Text: "my pods keep restarting", Right: []string{"pod-doctor"}, Set: searcheval.TaskTrain},
		{Text: "api keys", Right: []string{"secret-guard"}, Set: searcheval.Keyword},
	}
	res, err := searcheval.Run(engines, qs)
	if err != nil {
		t.Fatal(err)
	}
	for e, name := range res.Engines {
		for i, q := range qs {
			if got := res.Ranked[e][i]; len(got) == 0 || got[0] != q.Right[0] {
				t.Errorf("%s ranks %v for %q, want %s first", name, got, q.Text, q.Right[0])
			}
		}
		if s := res.Score(e, searcheval.TaskTrain); s.At1 != 2 || s.Queries != 2 {
			t.Errorf("%s: task-train score %+v, want 2 of 2 at rank 1", name, s)
		}
	}
	var b strings.Builder
	if err := res.WriteReport(&b, searcheval.ReportOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Misses at rank 1 on task-train") || !strings.Contains(b.String(), "(none)") {
		t.Errorf("report:\n%s", b.String())
	}
}
