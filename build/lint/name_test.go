package lint

import (
	"strings"
	"testing"
)

// TestNameAdvice: the advice on a name that breaks a rule ends with a name
// that breaks none.
func TestNameAdvice(t *testing.T) {
	for _, c := range []struct {
		name, want string // want: the name the advice of every problem gives
	}{
		{"My_Skill", "my-skill"},
		{"PDF", "pdf"},
		{"has space", "has-space"},
		{"-lead", "lead"},
		{"double--hyphen", "double-hyphen"},
		{"a__b..c", "a-b-c"},
		{"Ünïcode", "ünïcode"},
		{strings.Repeat("ab-", 30), strings.Repeat("ab-", 21) + "a"},
	} {
		problems := nameProblems(c.name)
		if len(problems) == 0 {
			t.Errorf("%q: no problem found", c.name)
			continue
		}
		if len(nameProblems(c.want)) != 0 {
			t.Errorf("%q: the wanted name %q breaks a rule itself", c.name, c.want)
		}
		for _, p := range problems {
			if p.code == "name-too-long" {
				continue
			}
			if !strings.HasSuffix(p.advice, "'"+c.want+"'") {
				t.Errorf("%q: %s: advice %q, want it to end with '%s'", c.name, p.ref, p.advice, c.want)
			}
		}
	}
}
