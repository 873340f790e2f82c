package derive

import (
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/internal/testskills"
)

func TestForSkillGivenBesideSkillMD(t *testing.T) {
	s := testskills.FromTxtar(t, `-- tool/SKILL.md --
---
name: tool
description: A tool. Never do bad things.
---
# Tool
-- tool/tool.uasp.yaml --
meta:
  name: other-tool
  version: abcdef12
  type: knowledge
constraints:
  never: [do bad things]
`)
	d, ds := ForSkill(s)
	if d == nil || d.Derived {
		t.Fatalf("want the author's document, got %+v", d)
	}
	if d.Name() != "tool" {
		t.Errorf("answers for %q, want the skill's name", d.Name())
	}
	var codes []string
	for _, x := range ds {
		codes = append(codes, x.Code)
		switch x.Code {
		case uasp.CodeNameMismatch:
			if x.Line != 2 || x.Column != 3 || !strings.Contains(x.Message, `"other-tool"`) || !strings.Contains(x.Message, `"tool"`) {
				t.Errorf("name finding: %s", x)
			}
		case uasp.CodeVersionMismatch:
			if x.Line != 3 || !strings.Contains(x.Message, "abcdef12") || !strings.Contains(x.Message, d.Version) {
				t.Errorf("version finding: %s", x)
			}
		}
	}
	if strings.Join(codes, ",") != uasp.CodeNameMismatch+","+uasp.CodeVersionMismatch {
		t.Errorf("codes %v", codes)
	}
	if a := d.Query("meta.version", nil); a.Value != d.Version {
		t.Errorf("published meta.version %v, want the computed %s", a.Value, d.Version)
	}
}

func TestForSkillDerivesWhenTheDocumentIsUnreadable(t *testing.T) {
	s := testskills.FromTxtar(t, `-- tool/SKILL.md --
---
name: tool
description: A tool.
---
Never delete the database.
-- tool/tool.uasp.yaml --
meta: [unclosed
`)
	d, ds := ForSkill(s)
	if d == nil || !d.Derived || d.DeclaredVersion != "" {
		t.Fatalf("want a derived document, got %+v", d)
	}
	if len(ds) != 0 {
		t.Errorf("findings %v", ds)
	}
	a := d.Query("constraints.never.0", nil)
	if a.Value != "Delete the database" || d.Origins["constraints.never.0"] != 5 {
		t.Errorf("never.0 = %v from line %d", a.Value, d.Origins["constraints.never.0"])
	}
}

func TestForSkillWithoutName(t *testing.T) {
	s := testskills.FromTxtar(t, "-- x/SKILL.md --\n---\ndescription: no name\n---\nbody\n")
	if d, ds := ForSkill(s); d != nil || ds != nil {
		t.Errorf("got %+v %v", d, ds)
	}
	if d, _ := ForSkill(nil); d != nil {
		t.Error("nil skill gave a document")
	}
}
