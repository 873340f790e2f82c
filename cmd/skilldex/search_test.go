package main

import (
	"bytes"
	"context"
	"encoding/json"
	"maps"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/internal/testutil"
)

func TestSearchCommand(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), `
-- a/pdf-tools/SKILL.md --
---
name: pdf-tools
description: Extract text and tables from PDF documents.
---
Body.
-- a/kubernetes-deploy/SKILL.md --
---
name: kubernetes-deploy
description: Deploy services to Kubernetes with kubectl.
---
Body.
`)
	site := filepath.Join(t.TempDir(), "public")
	if _, err := build.Build(context.Background(), build.Options{LoadOptions: build.LoadOptions{Sources: []string{src}}, Output: site}); err != nil {
		t.Fatal(err)
	}
	runCLI := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		code := run(context.Background(), args, strings.NewReader(""), &out, &errb)
		return code, out.String(), errb.String()
	}

	code, out, _ := runCLI("search", "--index", site, "--json", "kube")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var res struct {
		Hits []struct {
			Name  string  `json:"name"`
			Score float64 `json:"score"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) == 0 || res.Hits[0].Name != "kubernetes-deploy" || res.Hits[0].Score <= 0 {
		t.Errorf("kube: %s", out)
	}

	code, out, _ = runCLI("search", "--index", filepath.Join(site, "search", "bleve.zip"), "--limit", "1", "pdf")
	if code != 0 || !strings.Contains(out, "pdf-tools") || !strings.Contains(out, "**PDF**") {
		t.Errorf("pdf from the archive: exit %d\n%s", code, out)
	}

	// --explain: the score by word and term, the weight by field.
	code, out, _ = runCLI("search", "--index", site, "--explain", "deploy", "to", "kubernetes")
	for _, want := range []string{"score ", "= sum ", "2/2 words matched", "deploy → deploi (term): idf ", "kubernetes → kubernet (term)", "name 1 in 2: ", "description 1 in 4: "} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("--explain: exit %d, no %q in\n%s", code, want, out)
		}
	}
	code, out, _ = runCLI("search", "--index", site, "--json", "--explain", "kubectl")
	var explained struct {
		Hits []struct {
			Name        string `json:"name"`
			Explanation struct {
				Words []struct {
					Word, Term, Match string
					Fields            []struct{ Field string }
				} `json:"words"`
			} `json:"explanation"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(out), &explained); err != nil || code != 0 {
		t.Fatalf("--json --explain: exit %d, %v\n%s", code, err, out)
	}
	if h := explained.Hits; len(h) != 1 || len(h[0].Explanation.Words) != 1 || h[0].Explanation.Words[0].Term != "kubectl" ||
		len(h[0].Explanation.Words[0].Fields) == 0 || h[0].Explanation.Words[0].Fields[0].Field != "description" {
		t.Errorf("--json --explain kubectl: %s", out)
	}

	// The query syntax: an excluded word (after --, not to be a flag), a
	// filter.
	if code, out, _ = runCLI("search", "--index", site, "--json", "body"); code != 0 || !strings.Contains(out, "kubernetes-deploy") || !strings.Contains(out, "pdf-tools") {
		t.Errorf("body: exit %d\n%s", code, out)
	}
	if code, out, _ = runCLI("search", "--index", site, "--json", "--", "-pdf", "body"); code != 0 || !strings.Contains(out, "kubernetes-deploy") || strings.Contains(out, "pdf-tools") {
		t.Errorf("-- -pdf body: exit %d\n%s", code, out)
	}
	if code, _, errs := runCLI("search", "--index", site, "deploy", "-kubectl"); code != 2 || !strings.Contains(errs, "put the terms after --") {
		t.Errorf("deploy -kubectl: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI("search", "--index", site, "type:cli", "deploy"); code != 1 || !strings.Contains(errs, "note: no skill of the catalog has type:cli, so nothing matches") {
		t.Errorf("type:cli deploy: exit %d, want 1 and a note (no skill is of type cli); stderr %q", code, errs)
	}
	if _, _, errs := runCLI("search", "--index", site, "-type:cli", "pdf"); strings.Contains(errs, "note:") {
		t.Errorf("-type:cli pdf: stderr %q, want no note: excluding a value no skill has is no mistake", errs)
	}

	if _, _, errs := runCLI("search", "--index", site, "tags:pdf"); !strings.Contains(errs, "note: tags:pdf is no filter, so it is searched as words; did you mean tag:pdf?") {
		t.Errorf("a mistyped filter: stderr %q", errs)
	}
	if code, _, errs := runCLI("search", "--index", site, "nothingmatcheszz"); code != 1 || !strings.Contains(errs, "no skill matches") {
		t.Errorf("no match: exit %d, %q", code, errs)
	}
	if code, _, _ := runCLI("search", "--index", filepath.Join(site, "missing"), "pdf"); code != 2 {
		t.Errorf("missing index: exit %d, want 2", code)
	}
	if code, _, _ := runCLI("search", "--index", site, "--limit", "0", "pdf"); code != 2 {
		t.Errorf("--limit 0: exit %d, want 2", code)
	}
}

// TestSourceNamesAndLicenses: a config's sources may name a source
// ({path, name}, beside plain paths), a catalog of one source is named by
// its repository, and skilldex search --json gives each hit its source
// and its license as an SPDX expression.
func TestSourceNamesAndLicenses(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `
-- a/one/SKILL.md --
---
name: one
description: The first widget skill.
license: MIT license
---
Body.
-- b/two/SKILL.md --
---
name: two
description: The second widget skill.
license: Apache 2.0
---
Body.
-- named/skilldex.yaml --
repository: https://github.com/acme/not-for-two-sources
sources:
  - ../a
  - path: ../b
    name: Team B
output: out
-- single/skilldex.yaml --
repository: https://github.com/acme/catalog
sources: [../a]
output: out
-- nopath/skilldex.yaml --
sources:
  - name: Team B
-- badkey/skilldex.yaml --
sources:
  - path: ../b
    label: Team B
-- nested/skilldex.yaml --
sources:
  - [../a]
`)
	search := func(config string) map[string][2]string {
		t.Helper()
		if code, _, stderr := runCLI(t, "build", "--config", filepath.Join(dir, config, "skilldex.yaml")); code != exitOK {
			t.Fatalf("%s: exit %d: %s", config, code, stderr)
		}
		code, out, stderr := runCLI(t, "search", "--index", filepath.Join(dir, config, "out"), "--json", "widget")
		if code != exitOK {
			t.Fatalf("%s: search: exit %d: %s", config, code, stderr)
		}
		var res struct {
			Hits []struct{ Name, Source, License string } `json:"hits"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		got := map[string][2]string{}
		for _, h := range res.Hits {
			got[h.Name] = [2]string{h.Source, h.License}
		}
		return got
	}
	if got, want := search("named"), map[string][2]string{"one": {"a", "MIT"}, "two": {"Team B", "Apache-2.0"}}; !maps.Equal(got, want) {
		t.Errorf("named sources: %v, want %v", got, want)
	}
	if got, want := search("single"), map[string][2]string{"one": {"acme/catalog", "MIT"}}; !maps.Equal(got, want) {
		t.Errorf("a single source: %v, want %v", got, want)
	}
	for config, want := range map[string]string{
		"nopath": "skilldex.yaml:2:3: a source needs a path",
		"badkey": "skilldex.yaml:3:5: key label is not a key of a source",
		"nested": "skilldex.yaml:2:3: a source is a path or {path, name}",
	} {
		code, _, stderr := runCLI(t, "build", "--config", filepath.Join(dir, config, "skilldex.yaml"))
		if code != exitFailure || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, stderr %q, want %q", config, code, stderr, want)
		}
	}
}
