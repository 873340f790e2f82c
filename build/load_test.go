package build

import (
	"context"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/lint"
	"github.com/skilldex/skilldex/internal/testutil"
)

func TestLoadGivesEverySkillItsDocument(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `-- derived/SKILL.md --
---
name: derived
description: A skill without a UASP document. Use when testing.
---
Never skip the tests.
-- given/SKILL.md --
---
name: given
description: A skill with its own UASP document.
---
Body.
-- given/given.uasp.yaml --
meta:
  name: not-given
  version: 00000000
  type: knowledge
constraints:
  never: [skip the tests]
-- alone/alone.uasp.yaml --
meta:
  name: alone
  version: 00000000
  type: knowledge
  description: Only a UASP document.
`)
	c, err := Load(context.Background(), LoadOptions{Sources: []string{dir}, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]int{}
	for i, s := range c.All {
		byName[s.Name] = i
	}
	// The author's documents are summarised by Load; a derived one when
	// the skill's content is read.
	derived := c.All[byName["derived"]]
	if derived.Doc != nil || !derived.DocPending() {
		t.Fatalf("derived: the document was made before the content was read: %+v", derived.Doc)
	}
	k, err := c.Content(derived)
	if err != nil {
		t.Fatal(err)
	}
	if !k.Doc.Derived || k.Doc.Query("constraints.never.0", nil).Value != "Skip the tests" {
		t.Errorf("derived document: %+v", k.Doc.Root)
	}
	if derived.DocPending() || derived.Doc == nil || !derived.Doc.Derived || derived.Doc.Version != k.Doc.Version || derived.Doc.Type != k.Doc.Type() {
		t.Errorf("derived: the summary is %+v after its content was read, want the document's", derived.Doc)
	}
	given := c.All[byName["given"]]
	if given.Doc == nil || given.Doc.Derived {
		t.Error("the author's document was not used")
	}
	codes := map[string]bool{}
	for _, d := range given.Diagnostics {
		codes[d.Code] = true
		if d.Code == "uasp-name-mismatch" && !strings.HasSuffix(d.File, "given.uasp.yaml") {
			t.Errorf("finding in %s", d.File)
		}
	}
	if !codes["uasp-name-mismatch"] || !codes["uasp-version-mismatch"] {
		t.Errorf("given: findings %v", given.Diagnostics)
	}
	if given.Status != lint.Caution {
		t.Errorf("given: status %s, want caution (the UASP warnings count)", given.Status)
	}
	alone := c.All[byName["alone"]]
	if alone.Doc == nil || alone.Doc.Derived || alone.Description != "Only a UASP document." {
		t.Errorf("alone: %+v", alone.Doc)
	}
	if c.Summarize().Warnings < 2 {
		t.Errorf("summary %+v", c.Summarize())
	}
}
