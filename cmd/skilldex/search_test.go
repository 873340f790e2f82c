package main

import (
	"bytes"
	"context"
	"encoding/json"
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
