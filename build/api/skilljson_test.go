package api_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/api"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/catalogen"
	"github.com/skilldex/skilldex/internal/hostile"
	"github.com/skilldex/skilldex/internal/testutil"
)

// TestSkillJSONMatchesMarshal: NAME.json, written directly, has the bytes
// encoding/json gives, for every skill of the corpus, a generated catalog
// and the adversarial one.
func TestSkillJSONMatchesMarshal(t *testing.T) {
	gen := filepath.Join(t.TempDir(), "gen")
	if err := catalogen.Generate(gen, 60, 7); err != nil {
		t.Fatal(err)
	}
	bad, err := hostile.Write(t.TempDir(), hostile.Options{Large: false})
	if err != nil {
		t.Fatal(err)
	}
	site, err := siteinfo.New("Test", "https://example.org/x/")
	if err != nil {
		t.Fatal(err)
	}
	for _, srcs := range [][]string{{testutil.Shared(t, "corpus")}, {gen}, bad.Sources} {
		c, err := build.Load(context.Background(), build.LoadOptions{Sources: srcs})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range c.Skills {
			if s.Doc == nil {
				continue
			}
			direct, want, err := api.SkillJSONBothWays(s, site)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(direct, want) {
				i := 0
				for i < min(len(direct), len(want)) && direct[i] == want[i] {
					i++
				}
				t.Fatalf("%s: NAME.json differs at byte %d: %q, want %q", s.Name, i, direct[i:min(i+60, len(direct))], want[i:min(i+60, len(want))])
			}
		}
	}
}

// FuzzJSONString: strings are quoted as encoding/json quotes them.
func FuzzJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "\"quoted\" \\ back", "tab\tnl\ncr\rbs\bff\f\x00\x1f", "<b>&</b>", "\u2028\u2029", "\xff\xfe", "é😀", "\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		direct, want, err := api.JSONStringBothWays(s)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(direct, want) {
			t.Fatalf("%q quoted as %q, want %q", s, direct, want)
		}
	})
}
