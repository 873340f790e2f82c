package uasp

import (
	"context"
	"sort"
	"strconv"
	"testing"

	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/internal/testutil"
)

// loadSkills discovers and parses every skill under the corpus
// folder elem.
func loadSkills(tb testing.TB, elem ...string) []*skill.Skill {
	tb.Helper()
	root := testutil.Testdata(tb, append([]string{"corpus"}, elem...)...)
	found, err := source.Discover(context.Background(), []string{root}, source.DefaultOptions)
	if err != nil {
		tb.Fatal(err)
	}
	out := make([]*skill.Skill, 0, len(found.Inputs))
	for _, in := range found.Inputs {
		out = append(out, skill.Parse(in))
	}
	return out
}

// skillFrom writes a txtar archive of files to a temporary folder and
// returns the one skill found there.
func skillFrom(tb testing.TB, archive string) *skill.Skill {
	tb.Helper()
	dir := testutil.WriteTxtar(tb, tb.TempDir(), archive)
	found, err := source.Discover(context.Background(), []string{dir}, source.DefaultOptions)
	if err != nil {
		tb.Fatal(err)
	}
	if len(found.Inputs) != 1 {
		tb.Fatalf("%d skills found, want 1", len(found.Inputs))
	}
	return skill.Parse(found.Inputs[0])
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }
