package derive

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/internal/testskills"
	"github.com/skilldex/skilldex/internal/testutil"

	"github.com/skilldex/skilldex/build/skill"
)

// deriveDoc derives the document of a SKILL.md with the given description
// and body; the body starts on line 5.
func deriveDoc(t *testing.T, description, body string) *uasp.Document {
	t.Helper()
	s := testskills.FromTxtar(t, "-- s/SKILL.md --\n---\nname: s\ndescription: "+description+"\n---\n"+body)
	d, ds := ForSkill(s)
	if d == nil || !d.Derived {
		t.Fatalf("no derived document")
	}
	if !d.Valid() {
		t.Fatalf("derived document breaks the schema: %v", d.Problems())
	}
	if len(ds) != 0 {
		t.Errorf("findings: %v", ds)
	}
	return d
}

type expect struct {
	path  string
	value string // JSON, compared as data; "-" for "not found"
	line  int    // the origin line, when not 0
}

func checkDoc(t *testing.T, d *uasp.Document, exps []expect) {
	t.Helper()
	for _, e := range exps {
		a := d.Query(e.path, nil)
		if e.value == "-" {
			if a.Found {
				t.Errorf("%s: found %s, want nothing", e.path, uasp.MarshalAnswer(a))
			}
			continue
		}
		if !a.Found {
			y, _ := uasp.MarshalYAML(d)
			t.Errorf("%s: not found in\n%s", e.path, y)
			continue
		}
		var got, want any
		if err := json.Unmarshal(uasp.MarshalAnswer(a), &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal([]byte(e.value), &want); err != nil {
			t.Fatalf("%s: bad expectation: %v", e.path, err)
		}
		if g := got.(map[string]any)["value"]; !reflect.DeepEqual(g, want) {
			gb, _ := json.Marshal(g)
			t.Errorf("%s\n got %s\nwant %s", e.path, gb, e.value)
		}
		if e.line != 0 && d.Origins[e.path] != e.line {
			t.Errorf("%s: origin line %d, want %d", e.path, d.Origins[e.path], e.line)
		}
	}
}

func TestDeriveRules(t *testing.T) {
	cases := []struct {
		name, desc, body string
		want             []expect
	}{
		{name: "never", desc: "d", body: "Never commit secrets.\nDo not use the Charges API. Don't push to main.\n\n- **Avoid** global state\n- You should never log tokens.\n",
			want: []expect{
				{"constraints.never", `["Commit secrets","Use the Charges API","Push to main","Global state","Log tokens"]`, 0},
				{"constraints.never.0", `"Commit secrets"`, 5},
				{"constraints.never.1", `"Use the Charges API"`, 6},
				{"constraints.never.3", `"Global state"`, 8},
				{"constraints.never.4", `"Log tokens"`, 9},
				{"meta.type", `"knowledge"`, 0},
			}},
		{name: "always", desc: "d", body: "Always run the tests before committing. You must pin versions.\n\nEnsure the output is valid JSON. The name must be lowercase. A license is required.\n",
			want: []expect{
				{"constraints.always", `["Run the tests before committing","Pin versions","Ensure the output is valid JSON","The name must be lowercase","A license is required"]`, 0},
				{"constraints.always.2", `"Ensure the output is valid JSON"`, 7},
			}},
		{name: "not rules", desc: "d",
			body: "# Never do this\n\nUsers should never see this error. Should I always do it? You don't need to restart. It is not always possible. " +
				"Use the `--never-ask` flag. Run it to avoid mistakes. This ensures speed.\n\n| Do | Don't |\n|---|---|\n| always this | never that |\n\n" +
				"```bash\n# never run this\n```\n\n> \"Never again,\" she said.\n\n## Examples\n\nNever mind: always smile.\n",
			want: []expect{{"constraints", "-", 0}, {"decisions", "-", 0}}},
		{name: "label before a rule", desc: "d",
			body: "**Requirements**: Your project must have an `index.html` in the root directory.\n\nCRITICAL REQUIREMENT: All plans MUST begin with a summary.\n\n`key: Value` must be quoted.\n",
			want: []expect{
				{"constraints.always", `["Your project must have an ` + "`index.html`" + ` in the root directory","All plans MUST begin with a summary","` + "`key: Value`" + ` must be quoted"]`, 0},
				{"constraints.always.1", `"All plans MUST begin with a summary"`, 7},
			}},
		{name: "conditions are not rules", desc: "d",
			body: "**STOP executing immediately when:**\n- You don't understand an instruction\n- Verification fails repeatedly\n\nGPU excels if:\n- **Memory fits**: Data must fit in GPU memory\n\nRules:\n- Don't skip verifications\n",
			want: []expect{
				{"constraints.never", `["Skip verifications"]`, 0},
				{"constraints.always", "-", 0},
			}},
		{name: "prefer", desc: "d",
			body: "Prefer CheckoutSessions over PaymentIntents for on-session payments.\nUse pnpm instead of npm.\nWhen reusing sessions, use state load rather than re-authentication.\nDynamic payment methods are recommended over explicit types.\n",
			want: []expect{
				{"constraints.prefer", `[{"use":"CheckoutSessions","over":"PaymentIntents","when":"on-session payments"},{"use":"pnpm","over":"npm"},{"use":"state load","over":"re-authentication","when":"reusing sessions"},{"use":"Dynamic payment methods","over":"explicit types"}]`, 0},
				{"constraints.prefer.2", `{"use":"state load","over":"re-authentication","when":"reusing sessions"}`, 7},
				{"constraints.never", "-", 0},
			}},
		{name: "decisions", desc: "d",
			body: "If tests fail, report the failures and stop.\n**If tests pass:** continue to the next step.\nWhen the page changes: take a new snapshot.\nIf the build is green then merge the branch.\n\nFor subscriptions, use the [Billing APIs](https://docs.stripe.com/billing/subscriptions).\n\nIf so, fine.\n",
			want: []expect{
				{"decisions", `[{"when":"tests fail","then":"report the failures and stop"},{"when":"tests pass","then":"continue to the next step"},{"when":"the page changes","then":"take a new snapshot"},{"when":"the build is green","then":"merge the branch"},{"when":"subscriptions","then":"use the Billing APIs","ref":"stripe:billing/subscriptions"}]`, 0},
				{"decisions.1", `{"when":"tests pass","then":"continue to the next step"}`, 6},
				{"decisions.4", `{"when":"subscriptions","then":"use the Billing APIs","ref":"stripe:billing/subscriptions"}`, 10},
				{"sources.stripe:billing/subscriptions", `{"id":"stripe:billing/subscriptions","url":"https://docs.stripe.com/billing/subscriptions","use_for":"Billing APIs"}`, 10},
			}},
		{name: "commands", desc: "d",
			body: "```bash\n# Save your work\ngit commit -m \"msg\" <file>\ngit commit --amend  # fix the last commit\ncd repo && make build\nFOO=1 go test ./...\ncurl -s https://x | jq .\nDIR=$(pwd)\ncat <<EOF\nnpm not-a-command\nEOF\n```\n\n" +
				"```console\n$ npm test\n> output line\nok\n```\n\n```\ndocker compose up -d\n```\n\n```python\nimport os\n```\n\n```\nnot a command\n```\n",
			want: []expect{
				{"commands.git.commit", `{"syntax":"git commit -m \"msg\" <file>","description":"Save your work","args":[{"name":"file","type":"string","required":true}],"flags":[{"name":"-m","type":"string"},{"name":"--amend","type":"bool"}],"variants":[{"syntax":"git commit --amend","purpose":"fix the last commit"}]}`, 7},
				{"commands.make.build", `{"syntax":"make build"}`, 9},
				{"commands.go.test", `{"syntax":"FOO=1 go test ./..."}`, 10},
				{"commands.curl", `{"syntax":"curl -s https://x","flags":[{"name":"-s","type":"string"}]}`, 11},
				{"commands.pwd", `{"syntax":"pwd"}`, 12},
				{"commands.cat", `{"syntax":"cat <<EOF"}`, 13},
				{"commands.npm.not-a-command", "-", 0},
				{"commands.npm.test", `{"syntax":"npm test"}`, 19},
				{"commands.docker.compose.up", `{"syntax":"docker compose up -d","flags":[{"name":"-d","type":"bool"}]}`, 25},
				{"commands.import", "-", 0},
				{"commands.not", "-", 0},
				{"commands.cd", "-", 0},
				{"commands.jq", "-", 0},
				{"meta.type", `"cli"`, 0},
			}},
		{name: "workflow", desc: "d",
			body: "## Release steps\n\n1. Bump the version\n2. Run `npm publish --access public`\n3. (optional) Announce it\n   1. nested list is not a workflow\n   2. second\n\n## Other\n\nTo install:\n\n1. First step\n2. Second step\n",
			want: []expect{
				{"workflows.release_steps", `{"description":"Release steps","steps":[{"cmd":"Bump the version"},{"cmd":"npm publish --access public","note":"Run ` + "`npm publish --access public`" + `"},{"cmd":"(optional) Announce it","optional":true}]}`, 7},
				{"workflows.release_steps.steps.1", `{"cmd":"npm publish --access public","note":"Run ` + "`npm publish --access public`" + `"}`, 8},
				{"workflows.other", `{"description":"To install","steps":[{"cmd":"First step"},{"cmd":"Second step"}]}`, 17},
				{"workflows.other_2", "-", 0},
			}},
		{name: "sources", desc: "d",
			body: "Read [Stripe docs](https://docs.stripe.com/payments/checkout) and [the guide](references/guide.md).\nSee https://example.com/x and [again](https://docs.stripe.com/payments/checkout#top).\n[section](#foo) [mail](mailto:a@b.c) ![img](https://example.com/i.png)\n\n[Other Stripe](https://stripe.com/payments/checkout)\n",
			want: []expect{
				{"sources", `[{"id":"stripe:payments/checkout","url":"https://docs.stripe.com/payments/checkout","use_for":"Stripe docs"},{"id":"guide","path":"references/guide.md","use_for":"the guide"},{"id":"example:x","url":"https://example.com/x"},{"id":"stripe:payments/checkout-2","url":"https://stripe.com/payments/checkout","use_for":"Other Stripe"}]`, 0},
				{"sources.guide", `{"id":"guide","path":"references/guide.md","use_for":"the guide"}`, 5},
				{"sources.example:x", `{"id":"example:x","url":"https://example.com/x"}`, 6},
			}},
		{name: "environment", desc: "d",
			body: "Set `$OPENAI_API_KEY` first. The $PATH must hold python.\n\n```bash\nexport API_TOKEN=xyz\nDIR=$(pwd)\necho \"$DIR\" ${PORT:-8080}\n```\n\n```python\nurl = os.environ[\"DB_URL\"]\n```\n",
			want: []expect{
				{"environment", `[{"name":"OPENAI_API_KEY","purpose":"Set ` + "`$OPENAI_API_KEY`" + ` first."},{"name":"API_TOKEN","purpose":"used in ` + "`export API_TOKEN=xyz`" + `"},{"name":"PORT","purpose":"used in ` + "`echo \\\"$DIR\\\" ${PORT:-8080}`" + `","default":"8080"},{"name":"DB_URL","purpose":"used in ` + "`url = os.environ[\\\"DB_URL\\\"]`" + `"}]`, 0},
				{"environment.OPENAI_API_KEY", `{"name":"OPENAI_API_KEY","purpose":"Set ` + "`$OPENAI_API_KEY`" + ` first."}`, 5},
				{"environment.DB_URL", `{"name":"DB_URL","purpose":"used in ` + "`url = os.environ[\\\"DB_URL\\\"]`" + `"}`, 14},
				{"environment.DIR", "-", 0},
				{"environment.PATH", "-", 0},
			}},
		{name: "triggers", desc: "Edit .docx files and Next.js pages. Use when the user asks to edit Word documents.",
			body: "## When to use\n\n- Reviewing a contract\n- Is this a question?\n",
			want: []expect{
				{"triggers.intents", `["the user asks to edit Word documents","Reviewing a contract"]`, 0},
				{"triggers.file_patterns", `["*.docx"]`, 3},
				{"triggers.keywords", `["edit","docx","files","next","pages","word","documents"]`, 3},
			}},
		{name: "inline commands", desc: "Fix CI (e.g. GitHub Actions). Use when checks fail, e.g. on a PR. More text.",
			body: "Prereq: ensure `gh` is authenticated.\nRun `gh auth login` once, then `gh pr view --json number`. Use `ls -la`, `pytest` or `--flag x`.\n",
			want: []expect{
				{"commands.gh.auth.login", `{"syntax":"gh auth login"}`, 6},
				{"commands.gh.pr.view", `{"syntax":"gh pr view --json number","flags":[{"name":"--json","type":"string"}]}`, 6},
				{"commands.ls", "-", 0},
				{"commands.pytest", "-", 0},
				{"constraints.always", "[\"Ensure `gh` is authenticated\"]", 0},
				{"constraints.always.0", "\"Ensure `gh` is authenticated\"", 5},
				{"triggers.intents", `["checks fail, e.g. on a PR"]`, 3},
			}},
		{name: "redirects", desc: "d",
			body: "```bash\ngh api \"/x/<id>\" > \"<path>\"\nsort <in> 2> <err>\n```\n",
			want: []expect{
				{"commands.gh.api", `{"syntax":"gh api \"/x/<id>\" > \"<path>\""}`, 6},
				{"commands.sort", `{"syntax":"sort <in> 2> <err>","args":[{"name":"in","type":"string","required":true}]}`, 7},
			}},
		{name: "hybrid", desc: "d",
			body: "Never skip tests. Always lint the code. If CI fails, fix it first.\n\n```sh\nnpm run build\n```\n",
			want: []expect{{"meta.type", `"hybrid"`, 0}, {"commands.npm.run.build", `{"syntax":"npm run build"}`, 8}}},
		{name: "setup only", desc: "d",
			body: "```bash\npip install scanpy\n```\n",
			want: []expect{{"meta.type", `"knowledge"`, 0}, {"commands.pip.install", `{"syntax":"pip install scanpy"}`, 6}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checkDoc(t, deriveDoc(t, c.desc, c.body), c.want)
		})
	}
}

func TestDeriveMeta(t *testing.T) {
	long := strings.Repeat("word ", 120) + "end"
	d := deriveDoc(t, long, "body\n")
	desc := d.Description()
	if len([]rune(desc)) > 500 || strings.HasSuffix(desc, " ") || !strings.HasSuffix(desc, "word") {
		t.Errorf("description of %d runes: %q", len([]rune(desc)), desc[len(desc)-20:])
	}
	if d.Origins["meta.description"] != 3 {
		t.Errorf("meta.description origin %d", d.Origins["meta.description"])
	}
	s := testskills.FromTxtar(t, "-- s/SKILL.md --\n---\nname: My_Skill\ndescription: d\n---\nbody\n")
	d2, _ := ForSkill(s)
	if a := d2.Query("meta.name", nil); a.Value != "my-skill" || d2.Name() != "My_Skill" || !d2.Valid() {
		t.Errorf("meta.name %v, answers for %s, valid %v", a.Value, d2.Name(), d2.Valid())
	}
}

func TestDeriveUSK(t *testing.T) {
	s := testskills.FromTxtar(t, `-- colony/SKILL.md --
---
spec: usk/1.0
name: colony
version: 1.0.0
description: Talk to the colony.
interface:
  type: cli
  entry_point: main.py
  runtime: python3
  call_pattern: stdin_stdout
permissions:
  network: true
  env_vars:
    - COLONY_API_KEY
input_schema:
  type: object
  properties:
    action:
      type: string
      description: What to do.
    limit:
      type: integer
      default: 10
    mode:
      enum: [fast, slow]
  required: [action]
output_schema:
  type: object
  properties:
    status: {type: string}
    result: {}
capabilities:
  - social_platform
tags: [agents]
examples:
  - name: Create a post
    description: Posts hello.
    input: {action: create_post, body: "it's"}
    output: {status: ok}
---
# Colony
`)
	d, ds := ForSkill(s)
	if d == nil || !d.Valid() || len(ds) != 0 {
		t.Fatalf("doc %v findings %v problems %v", d, ds, d.Problems())
	}
	checkDoc(t, d, []expect{
		{"commands.colony", `{"syntax":"python3 main.py < input.json","description":"Talk to the colony.","args":[{"name":"action","type":"string","required":true,"description":"What to do."},{"name":"limit","type":"int","required":false,"default":10},{"name":"mode","type":"enum","values":["fast","slow"],"required":false}],"returns":"JSON object with status, result","note":"reads one JSON object (input_schema) on stdin and writes JSON (output_schema) on stdout"}`, 6},
		{"environment", `[{"name":"COLONY_API_KEY","purpose":"required by the skill (declared in permissions.env_vars)"}]`, 0},
		{"environment.COLONY_API_KEY", `{"name":"COLONY_API_KEY","purpose":"required by the skill (declared in permissions.env_vars)"}`, 11},
		{"templates.create-a-post", `{"description":"Posts hello. (returns {\"status\":\"ok\"})","usage":"echo '{\"action\":\"create_post\",\"body\":\"it'\\''s\"}' | python3 main.py"}`, 35},
		{"triggers.keywords", `["agents","social platform","colony","talk"]`, 0},
		{"meta.type", `"cli"`, 0},
	})
}

// TestDerivePathological: inputs built to make a careless rule quadratic
// (a paragraph of 20,000 $VARs took 8 s before purposes were bounded) must
// each derive quickly.
func TestDerivePathological(t *testing.T) {
	bodies := map[string]string{
		"vars":      strings.Repeat("$AB.", 20000),
		"distinct":  strings.Repeat("$A$B$C$D$E$F$G$H$I$J$K$L ", 2000),
		"stops":     strings.Repeat("a. B", 20000),
		"links":     strings.Repeat("[a](http://x.com/a) [b](http://x.com/b", 3000),
		"steps":     strings.Repeat("1. a\n", 5000),
		"chain":     "```bash\n" + strings.Repeat("git commit -m x && ", 5000) + "\n```\n",
		"substs":    "```bash\n" + strings.Repeat("git a$(b\n", 5000) + "```\n",
		"heredocs":  "```bash\n" + strings.Repeat("cat <<EOF\n", 5000) + "```\n",
		"nesting":   strings.Repeat("- ", 2000) + "x\n",
		"rules":     strings.Repeat("Never do this thing now. If a b, c d. ", 3000),
		"parens":    "If " + strings.Repeat("(", 20000) + "a, b c",
		"tablecell": "|a|b|\n|-|-|\n" + strings.Repeat("|$AB [x](y)|z|\n", 5000),
	}
	for name, b := range bodies {
		start := time.Now()
		s := &skill.Skill{Name: "x", Description: "d", Body: []byte(b), BodyLine: 1}
		root, origins, err := Deterministic{}.Convert(s)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := uasp.Derived("x", "SKILL.md", root, origins)
		if ps := uasp.Validate(d.Root); len(ps) != 0 {
			t.Errorf("%s: %v", name, ps)
		}
		for _, p := range d.Paths() {
			d.Query(p, nil)
		}
		if el := time.Since(start); el > 3*time.Second {
			t.Errorf("%s: %d bytes took %v", name, len(b), el)
		}
	}
}

// TestFindWordMatchesRegexp checks the keyword scanner against the
// alternation it replaces, on sentences with tricky boundaries.
func TestFindWordMatchesRegexp(t *testing.T) {
	alt := func(words []string) string {
		q := make([]string, len(words))
		for i, w := range words {
			q[i] = regexp.QuoteMeta(w)
		}
		return `\b(?:` + strings.Join(q, "|") + `)\b`
	}
	sentences := []string{
		"you must never commit", "mustn't do that", "the mustard is fine", "nevertheless, ensure it", "do nothing, do not",
		"avoidance is not avoid", "is required to run", "_always_ check", "x-always-y", "", "must", "don’t panic", "should not be, shouldn't",
		"this is requiredto", "are required", "forbidden-fruit prohibited", "unavoidable avoid", "you do not need to", "it is not always so",
		"helps you avoid it, to avoid", "never been better", "almost always", "must have been", "don’t have to", "n", "never",
	}
	for _, c := range []struct {
		words []string
		re    string
	}{
		{neverWords, `\b(?:never|do not|don't|don’t|must not|mustn't|must never|should not|shouldn't|should never|avoid|prohibited|forbidden)\b`},
		{alwaysWords, `\b(?:always|must|ensure|mandatory|is required|are required|required to)\b`},
		{notRuleWords, alt(notRuleWords)},
	} {
		re := regexp.MustCompile(c.re)
		k := newKeywords(c.words)
		check := func(s string) {
			got, want := findWord(s, k), re.FindStringIndex(s)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("findWord(%q) = %v, regexp %v", s, got, want)
			}
		}
		for _, s := range sentences {
			check(s)
		}
		// Sentences made of the words themselves and their pieces.
		rnd := rand.New(rand.NewPCG(1, 2))
		pieces := append(append([]string{" ", "_", "x", "-", "’", ",", "n't", "not"}, c.words...), sentences...)
		for range 20000 {
			var b strings.Builder
			for range rnd.IntN(6) {
				b.WriteString(pieces[rnd.IntN(len(pieces))])
			}
			check(b.String())
		}
	}
}

// TestRulePrefiltersMatchRegexps checks the string tests that stand in
// for the regexps parseDecision and trimSentence ran on every sentence.
func TestRulePrefiltersMatchRegexps(t *testing.T) {
	conditional := regexp.MustCompile(`^(?:if|when|whenever|once|after|before) `)
	rnd := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"if", "when", "whenever", "once", "after", "before", "ever", " ", "e", "-", "–", "—", "•", ">", "note", ":",
		"important", "key point", "prereq", "prerequisites", "nb", "tip", "x", "rule", "remember", "reminder", "caution"}
	for range 20000 {
		var b strings.Builder
		for range rnd.IntN(5) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		s := b.String()
		want := -1
		if loc := conditional.FindStringIndex(s); loc != nil {
			want = loc[1]
		}
		if got := conditionalPrefix(s); got != want {
			t.Errorf("conditionalPrefix(%q) = %d, regexp %d", s, got, want)
		}
		if leadLabel.MatchString(s) && !mayHaveLabel(s) {
			t.Errorf("mayHaveLabel(%q) is false but leadLabel matches", s)
		}
	}
}

// TestRuleKeywordsMatchFindWord checks the one-pass scan parseConstraint
// uses against findWord run on each list.
func TestRuleKeywordsMatchFindWord(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	pieces := append(append(append([]string{" ", "_", "x", "-", "’", ",", "n't", "not", "a"}, neverWords...), alwaysWords...), notRuleWords...)
	for range 50000 {
		var b strings.Builder
		for range rnd.IntN(8) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		s := b.String()
		never, always, notRule := ruleKeywords(s)
		wantNot := findWord(s, notRuleKeys) != nil
		if notRule != wantNot {
			t.Fatalf("ruleKeywords(%q): notRule %v, findWord %v", s, notRule, wantNot)
		}
		if !notRule && (fmt.Sprint(never) != fmt.Sprint(findWord(s, neverKeys)) || fmt.Sprint(always) != fmt.Sprint(findWord(s, alwaysKeys))) {
			t.Fatalf("ruleKeywords(%q) = %v, %v; findWord %v, %v", s, never, always, findWord(s, neverKeys), findWord(s, alwaysKeys))
		}
	}
}

// TestMayPreferMatchesRegexps checks that mayPrefer holds wherever the
// regexp it guards matches.
func TestMayPreferMatchesRegexps(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 8))
	pieces := []string{"if ", "when ", "for ", "you ", "we ", "should ", "must ", "always ", "prefer ", "use ", "x", "y z", ", ",
		" over ", " to ", " rather than ", " instead of ", " is ", " are ", "preferred", "recommended", " when ", " if ", " for ", "a", " "}
	matched := make([]int, len(preferRes))
	for range testutil.Rounds(200000) {
		var b strings.Builder
		for range 3 + rnd.IntN(8) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		s := b.String()
		for i, re := range preferRes {
			if re.MatchString(s) {
				matched[i]++
				if !mayPrefer(i, s) {
					t.Fatalf("preferRes[%d] matches %q but mayPrefer is false", i, s)
				}
			}
		}
	}
	for i, n := range matched {
		if n < testutil.Rounds(100) {
			t.Errorf("preferRes[%d] matched only %d random sentences; the test proves little", i, n)
		}
	}
}

// TestCutMatchesRunes checks cut against cutRunes, the rune slicing it
// does on byte offsets for valid UTF-8.
func TestCutMatchesRunes(t *testing.T) {
	rnd := rand.New(rand.NewPCG(9, 10))
	pieces := []string{" ", "a", "word", "é", "日本", "😀", ",", ";", ":", "  ", "\xff", "\xe2\x80", "x y"}
	for range 20000 {
		var b strings.Builder
		for range rnd.IntN(80) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		s := b.String()
		for _, n := range []int{2, 3, 5, 8, 13, 40, 200} {
			want := s
			if utf8.RuneCountInString(s) > n {
				want = cutRunes(s, n)
			}
			if got := cut(s, n); got != want {
				t.Fatalf("cut(%q, %d) = %q, want %q", s, n, got, want)
			}
		}
	}
}

// TestAgentSubjectMatchesEmpty pins what parseConstraint assumes when it
// skips the regexp for an empty subject.
func TestAgentSubjectMatchesEmpty(t *testing.T) {
	if !agentSubject.MatchString("") {
		t.Error("agentSubject does not match the empty subject")
	}
}

// TestLineMatchesSearch checks deriver.line, which tries the line it found
// last first, against a plain binary search, for offsets in any order.
func TestLineMatchesSearch(t *testing.T) {
	body := []byte("a\nbb\n\nccc\nd")
	d := newDeriver(body, 5)
	rnd := rand.New(rand.NewPCG(91, 92))
	for range 10000 {
		off := rnd.IntN(len(body)+4) - 2
		want := 5
		if off >= 0 {
			want = 5 + max(sort.SearchInts(d.lineStarts, off+1)-1, 0)
		}
		if got := d.line(off); got != want {
			t.Fatalf("line(%d) = %d, want %d", off, got, want)
		}
	}
}
