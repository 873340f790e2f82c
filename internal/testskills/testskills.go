// Package testskills parses skills for the tests and benchmarks of the
// packages that read parsed skills (derive, uasp, markdown): from the
// corpus, from a folder, or from a txtar archive written for the test.
package testskills

import (
	"context"
	"testing"

	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/internal/testutil"
)

// Corpus parses every skill under the corpus folder elem of testdata.
func Corpus(tb testing.TB, elem ...string) []*skill.Skill {
	tb.Helper()
	return Dir(tb, testutil.Testdata(tb, append([]string{"corpus"}, elem...)...))
}

// Dir parses every skill found under dir.
func Dir(tb testing.TB, dir string) []*skill.Skill {
	tb.Helper()
	found, err := source.Discover(context.Background(), []string{dir}, source.DefaultOptions)
	if err != nil {
		tb.Fatal(err)
	}
	out := make([]*skill.Skill, 0, len(found.Inputs))
	for _, in := range found.Inputs {
		out = append(out, skill.Parse(in))
	}
	return out
}

// FromTxtar writes a txtar archive of files to a temporary folder and
// returns the one skill found there.
func FromTxtar(tb testing.TB, archive string) *skill.Skill {
	tb.Helper()
	skills := Dir(tb, testutil.WriteTxtar(tb, tb.TempDir(), archive))
	if len(skills) != 1 {
		tb.Fatalf("%d skills found, want 1", len(skills))
	}
	return skills[0]
}
