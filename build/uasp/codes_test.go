package uasp_test

import (
	"testing"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/lint"
	"github.com/skilldex/skilldex/build/uasp"
)

// TestCodesRegistered checks that every code the package reports is in
// lint's rule list, as a warning (the severity uasp uses).
func TestCodesRegistered(t *testing.T) {
	for _, code := range uasp.Codes {
		r, ok := lint.Lookup(code)
		if !ok {
			t.Errorf("%s is not registered in build/lint/rules.go", code)
			continue
		}
		if r.Severity != diag.Warning || r.Spec != lint.SpecUASP {
			t.Errorf("%s: severity %s spec %s, want warning uasp", code, r.Severity, r.Spec)
		}
	}
}
