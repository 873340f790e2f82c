package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/hostile"
)

// TestValidateHostile runs validate over the adversarial catalog: it must
// exit 1 (some skills are rejected), never panic, and report every
// rejected skill with coded diagnostics that name a file, and never quote
// the secret that symlinks in the catalog point at.
func TestValidateHostile(t *testing.T) {
	cat, err := hostile.Write(t.TempDir(), hostile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json", "github", "sarif"} {
		code, out, errOut := runCLI(t, append([]string{"validate", "--format", format}, cat.Sources...)...)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1\nstderr: %s", format, code, errOut)
		}
		if strings.Contains(out+errOut, hostile.Secret) {
			t.Errorf("%s: the output quotes the secret", format)
		}
		if strings.Contains(errOut, "panic") || strings.Contains(errOut, "goroutine ") {
			t.Errorf("%s: %s", format, errOut)
		}
		if format != "json" {
			continue
		}
		var res struct {
			Skills []struct {
				Name, Path, Status string
				Diagnostics        []struct{ Code, Severity, File string }
			}
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("json: %v\n%.500s", err, out)
		}
		rejected := 0
		for _, s := range res.Skills {
			hasError := false
			for _, d := range s.Diagnostics {
				if d.Code == "" || d.File == "" {
					t.Errorf("%s: diagnostic without a code or file: %+v", s.Path, d)
				}
				hasError = hasError || d.Severity == "error"
			}
			if s.Status == "rejected" {
				rejected++
				if !hasError {
					t.Errorf("%s is rejected without an error", s.Path)
				}
			}
		}
		if rejected < 40 {
			t.Errorf("only %d skills rejected, want the 40 and more bad inputs of the catalog", rejected)
		}
		for _, good := range cat.Good {
			found := false
			for _, s := range res.Skills {
				found = found || (s.Name == good && s.Status != "rejected")
			}
			if !found {
				t.Errorf("good skill %s is not among the accepted skills", good)
			}
		}
	}
}
