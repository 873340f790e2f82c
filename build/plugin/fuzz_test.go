package plugin

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/internal/testutil"
)

// seedFuzz adds the hand-broken cases and real manifests of the corpus.
func seedFuzz(f *testing.F, manifest bool, globs ...string) {
	for _, c := range parseCases {
		if c.manifest == manifest {
			f.Add([]byte(c.text))
		}
	}
	for _, g := range globs {
		files, _ := filepath.Glob(filepath.Join(testutil.TestdataDir(f), "corpus", "skills", g))
		for _, file := range files[:min(len(files), 3)] {
			data, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(data)
		}
	}
}

// checkFindings checks what holds of the findings on any input: every code
// is registered, every position is inside the input (lines and columns as
// an editor counts them), and there is an error exactly when something was
// found invalid.
func checkFindings(t *testing.T, src []byte, ds []diag.Diagnostic, invalid bool) {
	text, _ := bytes.CutPrefix(src, bom)
	starts := lineStarts(text)
	for _, d := range ds {
		if _, ok := Lookup(d.Code); !ok || d.File != "f.json" || d.Message == "" {
			t.Fatalf("bad finding %+v", d)
		}
		if d.Line == 0 && d.Code == "plugin-file-unreadable" {
			continue
		}
		if d.Line < 1 || d.Line > len(starts) {
			t.Fatalf("line %d of an input of %d lines: %s", d.Line, len(starts), d)
		}
		end := len(text)
		if d.Line < len(starts) {
			end = starts[d.Line]
		}
		if n := utf8.RuneCount(text[starts[d.Line-1]:end]); d.Column < 1 || d.Column > n+1 {
			t.Fatalf("column %d of a line of %d characters: %s", d.Column, n, d)
		}
	}
	if errs, _, _ := diag.Count(ds); invalid != (errs > 0) {
		t.Fatalf("invalid = %v with %d errors", invalid, errs)
	}
}

func FuzzParseMarketplace(f *testing.F) {
	seedFuzz(f, false, "*/.claude-plugin/marketplace.json", "*/.agents/plugins/marketplace.json", "*/.cursor-plugin/marketplace.json")
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, c := range Clients {
			m, ds := ParseMarketplace(c, "f.json", src)
			invalid := m.Invalid
			for _, e := range m.Entries {
				invalid = invalid || e.Invalid
			}
			checkFindings(t, src, ds, invalid)
			if m.Invalid && m.doc == nil && len(m.Entries) > 0 {
				t.Fatalf("entries from a file that is not JSON")
			}
		}
	})
}

func FuzzParseManifest(f *testing.F) {
	seedFuzz(f, true, "*/.claude-plugin/plugin.json", "*/plugins/*/.codex-plugin/plugin.json", "*/.cursor-plugin/plugin.json")
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, c := range Clients {
			mf, ds := ParseManifest(c, "f.json", src)
			checkFindings(t, src, ds, mf.Invalid)
		}
	})
}
