package uasp

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/internal/testutil"
)

// specExamples loads the spec's three example documents from the corpus
// through the real pipeline (discover, parse), as ForSkill sees them.
func specExamples(t *testing.T) map[string]*skill.Skill {
	t.Helper()
	out := map[string]*skill.Skill{}
	for _, s := range loadSkills(t, "uasp", "ifoster01__uasp", "agent-skills") {
		if s.Name != "" {
			out[s.Name] = s
		}
	}
	for _, want := range []string{"agent-browser", "mermaid-diagrams", "stripe-best-practices"} {
		if out[want] == nil {
			t.Fatalf("example %s not found", want)
		}
	}
	return out
}

func TestSpecExamplesValidateAndHash(t *testing.T) {
	want := map[string]string{"agent-browser": "e3fbde81", "mermaid-diagrams": "25aeb14f", "stripe-best-practices": "245b3bbb"}
	for name, s := range specExamples(t) {
		if want[name] == "" {
			continue
		}
		d, ds := ForSkill(s)
		if d == nil {
			t.Fatalf("%s: no document", name)
		}
		if d.Derived {
			t.Errorf("%s: derived, want the author's document", name)
		}
		if !d.Valid() {
			t.Errorf("%s: invalid: %v", name, d.Problems())
		}
		if d.Version != want[name] || d.DeclaredVersion != want[name] {
			t.Errorf("%s: version %s declared %s, want %s", name, d.Version, d.DeclaredVersion, want[name])
		}
		// The spec's examples are what the spec means: no finding at all
		// (see the errata in schema.go and Consistency).
		for _, x := range ds {
			t.Errorf("%s: %s", name, x)
		}
		// meta first, then the sections in the schema's order.
		keys := d.Root.Keys()
		last := -1
		for _, k := range keys {
			i := indexOf(Sections, k)
			if i < last {
				t.Errorf("%s: sections out of order: %v", name, keys)
			}
			last = i
		}
	}
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return len(list)
}

// TestSpecQueries answers every query of uasp.md 6.2 (with the skills'
// full names) and the dotted-key cases, against the values the documents
// hold.
func TestSpecQueries(t *testing.T) {
	docs := map[string]*Document{}
	for name, s := range specExamples(t) {
		docs[name], _ = ForSkill(s)
	}
	cases := []struct {
		query string
		found bool
		code  string
		value string // JSON; compared as data
	}{
		{query: "stripe-best-practices:constraints.never", found: true,
			value: `["Charges API","Sources API","Card Element","Payment Element in card-only mode","Tokens API (unless specific need)","mixing Connect charge types","legacy Connect terms (Standard/Express/Custom)"]`},
		{query: "stripe-best-practices:decisions?when=*Charges*", found: true,
			value: `[{"when":"user wants Charges API","then":"advise migration to CheckoutSessions or PaymentIntents","ref":"stripe:migration/charges"}]`},
		{query: "stripe-best-practices:decisions?when=*charges*&ref=stripe:*", found: true,
			value: `[{"when":"user wants Charges API","then":"advise migration to CheckoutSessions or PaymentIntents","ref":"stripe:migration/charges"}]`},
		{query: "stripe-best-practices:decisions?when=*element*", found: true,
			value: `[{"when":"user wants Card Element","then":"advise migration to Payment Element","ref":"stripe:migration/payment-element"},{"when":"render Payment Element before creating intent","then":"use Confirmation Tokens"}]`},
		{query: "stripe-best-practices:decisions?ref=*", found: true, // a missing ref reads as "" and * matches it
			value: ""},
		{query: "stripe-best-practices:sources.stripe:go-live", found: true,
			value: `{"id":"stripe:go-live","url":"https://docs.stripe.com/get-started/checklist/go-live","use_for":"pre-launch checklist"}`},
		{query: "stripe-best-practices:sources.stripe:migration/charges", found: true,
			value: `{"id":"stripe:migration/charges","url":"https://docs.stripe.com/payments/payment-intents/migration/charges","use_for":"Charges to PaymentIntents migration"}`},
		{query: "stripe-best-practices:constraints.never.0", found: true, value: `"Charges API"`},
		{query: "stripe-best-practices:constraints.prefer?use=*checkout*", found: true,
			value: `[{"use":"CheckoutSessions","over":"PaymentIntents","when":"on-session payments"},{"use":"Stripe-hosted Checkout","over":"embedded Checkout","when":"default choice"},{"use":"embedded Checkout","over":"Payment Element","when":"more control needed"}]`},
		{query: "mermaid-diagrams:reference.sequence.parallel", found: true,
			value: `{"syntax":"par label1\n  A->>B: action1\nand label2\n  A->>C: action2\nend\n","example":"par Send email\n  Service->>Email: notify\nand Update DB\n  Service->>DB: save\nend\n"}`},
		{query: "mermaid-diagrams:reference.flowchart.shapes", found: true,
			value: `{"rectangle":"[text]","rounded":"([text])","stadium":"(text)","diamond":"{text}","circle":"((text))","database":"[(text)]","parallelogram":"[/text/]","hexagon":"{{text}}"}`},
		{query: "mermaid-diagrams:reference.flowchart.shapes.diamond", found: true, value: `"{text}"`},
		{query: "mermaid-diagrams:decisions?then=use flowchart", found: true,
			value: `[{"when":"processes / algorithms / user journeys / decision trees","then":"use flowchart"}]`},
		{query: "agent-browser:commands.click", found: true,
			value: `{"syntax":"agent-browser click <ref>","args":[{"name":"ref","type":"ref","required":true}],"requires":["refs"],"invalidates":["refs"]}`},
		{query: "agent-browser:commands.record.start", found: true,
			value: `{"syntax":"agent-browser record start <file>","args":[{"name":"file","type":"string","required":true}],"note":"creates fresh context, preserves cookies/storage"}`},
		{query: "agent-browser:commands.get.url", found: true, value: `{"syntax":"agent-browser get url","returns":"current URL"}`},
		{query: "agent-browser:commands.get.url.returns", found: true, value: `"current URL"`},
		{query: "agent-browser:state.entities?name=ref", found: true, value: `[]`},
		{query: "agent-browser:state.entities?name=ref*", found: true,
			value: `[{"name":"refs","format":"@e{n}","created_by":["snapshot"],"consumed_by":["click","fill","type","hover","focus","get","check","uncheck","select","upload","drag","scrollintoview"],"invalidated_by":["navigation (open, back, forward, reload)","page-changing clicks","significant DOM mutations"]}]`},
		{query: "agent-browser:state.entities.refs.created_by", found: true, value: `["snapshot"]`},
		{query: "agent-browser:workflows.authenticated_session", found: true,
			value: `{"description":"Login once, reuse state across runs","steps":[{"cmd":"state load auth.json","note":"try loading saved state","optional":true},{"cmd":"open <login-url>"},{"cmd":"get url","note":"check if already logged in"},{"cmd":"snapshot -i","note":"if on login page"},{"cmd":"fill @user <username>"},{"cmd":"fill @pass <password>"},{"cmd":"click @submit"},{"cmd":"wait --url '**/dashboard'"},{"cmd":"state save auth.json"}]}`},
		{query: "agent-browser:environment.HTTP_PROXY", found: true, value: `{"name":"HTTP_PROXY","purpose":"HTTP proxy URL"}`},
		{query: "agent-browser:global_flags?type=bool", found: true,
			value: `[{"name":"--json","type":"bool","purpose":"machine-readable output"},{"name":"--headed","type":"bool","purpose":"show browser window (not headless)"}]`},
		{query: "agent-browser:commands.get", code: ErrPathNotFound},
		{query: "agent-browser:commands.nope", code: ErrPathNotFound},
		{query: "agent-browser:state.entities.ref", code: ErrPathNotFound},
		{query: "agent-browser:commands?syntax=*", code: ErrInvalidQuery},
		{query: "agent-browser:meta.name?x=y", code: ErrInvalidQuery},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			q, err := ParseQuery(c.query)
			if err != nil {
				t.Fatal(err)
			}
			d := docs[q.Skill]
			a := d.Query(q.Path, q.Filters)
			if a.Found != c.found {
				t.Fatalf("found %v, want %v: %s", a.Found, c.found, MarshalAnswer(a))
			}
			if a.Skill != q.Skill || a.Path != q.Path {
				t.Errorf("answer names %s:%s", a.Skill, a.Path)
			}
			if !c.found {
				if a.Error == nil || a.Error.Code != c.code {
					t.Fatalf("error %+v, want code %s", a.Error, c.code)
				}
				return
			}
			if c.value == "" {
				return
			}
			var got, want any
			if err := json.Unmarshal(MarshalAnswer(a), &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(c.value), &want); err != nil {
				t.Fatal(err)
			}
			if g := got.(map[string]any)["value"]; !reflect.DeepEqual(g, want) {
				gb, _ := json.Marshal(g)
				t.Errorf("value\n got %s\nwant %s", gb, c.value)
			}
		})
	}
	// decisions?ref=* keeps the decision without a ref too.
	a := docs["stripe-best-practices"].Query("decisions", []Filter{{"ref", "*"}})
	if n := len(a.Value.([]any)); n != 6 {
		t.Errorf("decisions?ref=* kept %d, want all 6", n)
	}
}

// TestMarshalAnswerFormat pins the one encoding of answers (CLI and static
// files alike).
func TestMarshalAnswerFormat(t *testing.T) {
	docs := specExamples(t)
	d, _ := ForSkill(docs["agent-browser"])
	got := MarshalAnswer(d.Query("commands.click", nil))
	want := `{
  "skill": "agent-browser",
  "path": "commands.click",
  "found": true,
  "value": {
    "syntax": "agent-browser click <ref>",
    "args": [
      {
        "name": "ref",
        "type": "ref",
        "required": true
      }
    ],
    "requires": [
      "refs"
    ],
    "invalidates": [
      "refs"
    ]
  }
}
`
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	nf := MarshalAnswer(d.Query("commands.nope", nil))
	var m map[string]any
	if err := json.Unmarshal(nf, &m); err != nil {
		t.Fatal(err)
	}
	e := m["error"].(map[string]any)
	if m["found"] != false || e["code"] != ErrPathNotFound || !strings.HasPrefix(e["message"].(string), "Path 'commands.nope' not found in skill 'agent-browser'") {
		t.Errorf("not-found answer: %s", nf)
	}
	if _, has := m["value"]; has {
		t.Error("an error answer has a value")
	}
	if !bytes.HasSuffix(nf, []byte("}\n")) {
		t.Error("no final newline")
	}
}

func TestFixturesVersionMismatch(t *testing.T) {
	base := testutil.Testdata(t, "corpus", "uasp", "ifoster01__uasp", "packages", "skills-cli", "tests", "fixtures")
	s := loadSkills(t, "uasp", "ifoster01__uasp", "packages", "skills-cli", "tests", "fixtures")
	n := 0
	for _, sk := range s {
		d, ds := ForSkill(sk)
		if d == nil {
			continue
		}
		var mm []diag.Diagnostic
		for _, x := range ds {
			if x.Code == CodeVersionMismatch {
				mm = append(mm, x)
			}
		}
		if len(mm) != 1 {
			t.Errorf("%s: %d version findings, want 1: %v", sk.Path, len(mm), ds)
			continue
		}
		n++
		x := mm[0]
		if !strings.Contains(x.Message, d.DeclaredVersion) || !strings.Contains(x.Message, d.Version) || x.Line != 3 || x.Column != 3 {
			t.Errorf("%s: %s", sk.Path, x)
		}
		if !strings.HasPrefix(x.File, base) && !strings.Contains(x.File, "fixtures") {
			t.Errorf("file %s", x.File)
		}
	}
	if n != 3 {
		t.Errorf("%d fixtures with a mismatch, want 3", n)
	}
}
