package uasp

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/yamltree"
)

// TestMatch checks Match against Python's fnmatch.fnmatch(s.lower(),
// p.lower()); the expected values were printed by Python 3.
func TestMatch(t *testing.T) {
	cases := []struct {
		p, s string
		want bool
	}{
		{"*charges*", "user wants Charges API", true}, {"*CHARGES*", "charges", true}, {"ref", "refs", false},
		{"ref*", "refs", true}, {"r?fs", "refs", true}, {"r?fs", "rfs", false}, {"[a-c]at", "bat", true},
		{"[!a-c]at", "bat", false}, {"[!a-c]at", "dat", true}, {"[z-a]at", "bat", false}, {"[!z-a]at", "bat", true},
		{"[at", "[at", true}, {"[at", "a", false}, {"*/*", "a/b", true}, {"a*b*c", "aXbYc", true}, {"a*b*c", "aXbY", false},
		{"", "", true}, {"*", "", true}, {"?", "", false}, {"[]]x", "]x", true}, {"[!]]x", "ax", true}, {"[!]]x", "]x", false},
		{"[a-]", "-", true}, {"[-a]", "-", true}, {`\*`, `\x`, true}, {"é*", "ÉCLAIR", true}, {"*.md", "README.MD", true},
		{"stripe:*", "stripe:go-live", true}, {"[[]", "[", true}, {"a[", "a[", true}, {"**b", "ab", true},
		{"*a*a*a*a*b", strings.Repeat("a", 34), false},
	}
	for _, c := range cases {
		if got := Match(c.p, c.s); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.p, c.s, got, c.want)
		}
	}
}

func TestParseQuery(t *testing.T) {
	cases := []struct {
		in   string
		want Query
		err  string // part of the error message; "" for success
	}{
		{in: "stripe:constraints.never", want: Query{Skill: "stripe", Path: "constraints.never"}},
		{in: "  stripe:decisions?when=*Charges*  ", want: Query{Skill: "stripe", Path: "decisions", Filters: []Filter{{"when", "*Charges*"}}}},
		{in: "a:b?k=v&k2=*x=y*", want: Query{Skill: "a", Path: "b", Filters: []Filter{{"k", "v"}, {"k2", "*x=y*"}}}},
		{in: "a:b?k=", want: Query{Skill: "a", Path: "b", Filters: []Filter{{"k", ""}}}},
		{in: "stripe-best-practices:sources.stripe:migration/charges", want: Query{Skill: "stripe-best-practices", Path: "sources.stripe:migration/charges"}},
		{in: "skill:agent-browser:commands.click", want: Query{Skill: "agent-browser", Path: "commands.click"}},
		{in: "skill:commands.click", want: Query{Skill: "skill", Path: "commands.click"}},
		{in: "m:reference.sequence.parallel", want: Query{Skill: "m", Path: "reference.sequence.parallel"}},
		{in: "", err: "empty query"},
		{in: "agent-browser", err: "no ':'"},
		{in: ":commands", err: "no skill name"},
		{in: "a b:commands", err: "blank"},
		{in: "a:", err: "no path"},
		{in: "a:?k=v", err: "no path"},
		{in: "a:.b", err: "empty segment"},
		{in: "a:b.", err: "empty segment"},
		{in: "a:b..c", err: "empty segment"},
		{in: "a:b?", err: "nothing follows"},
		{in: "a:b?k", err: "no '='"},
		{in: "a:b?=v", err: "no key"},
		{in: "a:b?k=v&", err: "empty filter"},
		{in: "a:b?k=v&&j=w", err: "empty filter"},
		{in: "a:b?cmd=[abc", err: "filter cmd=[abc: the '[' at character 1 is never closed"},
		{in: "a:b?k=x*&cmd=*[!a", err: "the '[' at character 2 is never closed"},
		{in: "a:b?k=[a]x[", err: "the '[' at character 5 is never closed"},
		{in: "a:b?k=[]]x", want: Query{Skill: "a", Path: "b", Filters: []Filter{{"k", "[]]x"}}}},
		{in: "a:b?k=[[]x", want: Query{Skill: "a", Path: "b", Filters: []Filter{{"k", "[[]x"}}}},
		{in: "a:b\x00c", err: "control character"},
		{in: "a:\xff", err: "UTF-8"},
		{in: "a:" + strings.Repeat("b.", 200) + "c", err: "segments"},
		{in: "a:" + strings.Repeat("b", MaxQueryLength), err: "bytes long"},
	}
	for _, c := range cases {
		got, err := ParseQuery(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("ParseQuery(%q) error %v, want one containing %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseQuery(%q): %v", c.in, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("ParseQuery(%q) = %+v, want %+v", c.in, got, c.want)
		}
		if again, err := ParseQuery(got.String()); err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("String() of %q does not parse back: %q %v", c.in, got.String(), err)
		}
	}
}

// TestDottedKeys checks key resolution with backtracking, which the spec's
// sample code (split on every dot) gets wrong.
func TestDottedKeys(t *testing.T) {
	d := NewDocument("t", decodeMap(t, []byte(`meta: {name: t, version: x, type: cli}
commands:
  a.b: {syntax: s, x: 1}
  a: {syntax: s, b: {c: 2}, b.c.d: 3}
reference:
  class.relationships.composition: {syntax: "*--"}
sources:
  - {id: docs.example.com/a, url: "https://docs.example.com/a"}
  - {id: dup, path: one.md}
  - {id: dup, path: two.md}
`)))
	cases := map[string]string{
		"commands.a.b.x":   "1",
		"commands.a.b.c":   "2", // a.b has no c: back to a, then b, then c
		"commands.a.b.c.d": "3", // a, then the key b.c.d
		"reference.class.relationships.composition":        `{"syntax":"*--"}`,
		"reference.class.relationships.composition.syntax": `"*--"`,
		"sources.docs.example.com/a.url":                   `"https://docs.example.com/a"`,
		"sources.dup":                                      `[{"id":"dup","path":"one.md"},{"id":"dup","path":"two.md"}]`,
		"sources.1.path":                                   `"one.md"`,
	}
	for path, want := range cases {
		a := d.Query(path, nil)
		if !a.Found {
			t.Errorf("%s: not found: %s", path, MarshalAnswer(a))
			continue
		}
		if got := compactJSON(t, a.Value); got != want {
			t.Errorf("%s = %s, want %s", path, got, want)
		}
	}
	for _, path := range []string{"commands.a.b.y", "reference.class", "sources.9", "sources.01", "meta.name.x"} {
		if a := d.Query(path, nil); a.Found || a.Error.Code != ErrPathNotFound {
			t.Errorf("%s: %s", path, MarshalAnswer(a))
		}
	}
	if !d.Valid() {
		t.Fatalf("test document invalid: %v", d.Problems())
	}
	hints := map[string]string{
		"commands.zz": "; commands has a.b, a",
		"sources.9":   "; sources is a list of 3 entries, index 0 to 2, or by name or id: docs.example.com/a, dup",
		"sources.0.x": "; sources.0 has id, url",
	}
	for path, want := range hints {
		if a := d.Query(path, nil); !strings.HasSuffix(a.Error.Message, want) {
			t.Errorf("%s: hint %q, want it to end %q", path, a.Error.Message, want)
		}
	}
}

// TestResolveBudget: a document built to make backtracking explode is cut
// off, not hung on.
func TestResolveBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("meta: {name: t, version: x, type: cli}\ncommands:\n")
	// Keys a, a.a, a.a.a, ... each holding the same anchor-free map.
	inner := "{}"
	for i := 1; i <= 20; i++ {
		inner = "{" + strings.TrimSuffix(strings.Repeat("a.", i), ".") + ": " + inner + ", a: " + inner + "}"
		if len(inner) > 1<<16 {
			break
		}
	}
	b.WriteString("  x: {syntax: s, n: " + inner + "}\n")
	d := NewDocument("t", decodeMap(t, []byte(b.String())))
	if !d.Valid() {
		t.Fatalf("test document invalid: %v", d.Problems())
	}
	path := "commands.x.n." + strings.Repeat("a.", 60) + "zzz"
	if a := d.Query(path, nil); a.Found || a.Error.Code != ErrPathNotFound {
		t.Errorf("answer %s", MarshalAnswer(a))
	}
	if a := d.Query("commands.x.n.a.a.a", nil); !a.Found {
		t.Errorf("a path that exists is not found: %s", MarshalAnswer(a))
	}
}

func compactJSON(t *testing.T, v any) string {
	t.Helper()
	b := MarshalAnswer(Answer{Skill: "s", Path: "p", Found: true, Value: v})
	i := strings.Index(string(b), `"value": `)
	out := strings.TrimSuffix(strings.TrimSpace(string(b[i+len(`"value": `):])), "}")
	return strings.Join(strings.Fields(strings.ReplaceAll(strings.ReplaceAll(out, "\n", ""), ": ", ":")), "")
}

func TestPathsAndFiles(t *testing.T) {
	docs := map[string]*Document{}
	for name, s := range specExamples(t) {
		docs[name], _ = Given(s)
	}
	for name, d := range docs {
		paths := d.Paths()
		if len(paths) == 0 {
			t.Fatalf("%s: no paths", name)
		}
		files := map[string]string{}
		for _, p := range paths {
			a := d.Query(p, nil)
			if !a.Found {
				t.Errorf("%s: listed path %s is not found", name, p)
			}
			f := PathFile(p)
			if prev, dup := files[f]; dup {
				t.Errorf("%s: %s and %s share the file %s", name, prev, p, f)
			}
			files[f] = p
			if strings.ContainsAny(f, "/\\") || f == "." || f == ".." || !strings.HasSuffix(f, ".json") || len(f) > 200 {
				t.Errorf("unsafe file name %q for %q", f, p)
			}
		}
		for _, want := range map[string][]string{
			"agent-browser": {"meta", "commands", "commands.click", "commands.record.start", "commands.get.text", "state", "state.entities", "state.entities.refs", "workflows.authenticated_session", "environment.HTTP_PROXY", "global_flags.--session", "templates.form-automation", "triggers.keywords", "constraints.never", "decisions", "sources.snapshot-refs",
				// Down to the leaves, through keys holding dots and
				// entries found by name.
				"meta.description", "meta.version", "commands.open.args", "commands.record.start.syntax", "commands.get.text.returns",
				"state.entities.refs.created_by", "environment.HTTP_PROXY.purpose", "global_flags.--session.env", "sources.snapshot-refs.use_for",
				"templates.form-automation.usage"},
			"mermaid-diagrams":      {"reference.sequence.parallel", "reference.flowchart.shapes", "decisions", "constraints.always", "reference.sequence.parallel.syntax", "meta.type"},
			"stripe-best-practices": {"sources.stripe:go-live", "sources.stripe:migration/charges", "constraints.prefer", "triggers.intents", "sources.stripe:go-live.url", "meta.name"},
		}[name] {
			if !contains(paths, want) {
				t.Errorf("%s: Paths() lacks %s", name, want)
			}
		}
		// Lists are answered whole: their items are reached with filters,
		// but for the entries of the lists of named things. (These
		// documents have no key holding a dot after a list's key.)
		for _, p := range paths {
			named := slices.Contains(listSections, p) || p == "state.entities"
			if _, isList := d.Query(p, nil).Value.([]any); isList && !named {
				for _, q := range paths {
					if strings.HasPrefix(q, p+".") {
						t.Errorf("%s: %s is below the list %s", name, q, p)
					}
				}
			}
		}
	}
	for _, p := range []string{"decisions.0", "commands.open.args.url", "commands.open.args.0", "triggers.keywords.0"} {
		for name, d := range docs {
			if contains(d.Paths(), p) {
				t.Errorf("%s: %s is a list item, reached by filters, and has no path", name, p)
			}
		}
	}
}

// TestPathsRules checks which keys give a path, on a document made to
// hold every case: a path is listed when, and only when, a query of it
// answers that very part of the document.
func TestPathsRules(t *testing.T) {
	d := NewDocument("t", decodeMap(t, []byte(`meta: {name: t, version: x, type: cli}
commands:
  a: {b: shadowed, c: {d: deep}}
  a.b: dotted
  "why?": {x: 1}
  "": {x: 1}
  "trailing ": 1
  "in.": 1
  nan: .nan
  list: [{name: item, x: 1}]
  "tab\there": 1
  Open: {x: 1}
  open: {x: 2}
  Straße: 1
  STRASSE: 2
  "caf\u00e9": 1
  "cafe\u0301": 2
reference:
  deep: {one: {two: {three: {four: leaf}}}}
environment:
  - {name: TWICE, purpose: a}
  - {name: TWICE, purpose: b}
  - {name: ONCE, purpose: c, default: null}
  - {name: HTTP_PROXY}
  - {name: http_proxy}
sources:
  - {id: "x:y/z", path: p}
`)))
	got := d.Paths()
	for _, want := range []string{
		"commands.a", "commands.a.b", "commands.a.c", "commands.a.c.d", "commands.nan", "commands.list",
		"reference.deep.one.two.three.four", "environment.ONCE", "environment.ONCE.default", "sources.x:y/z.path",
	} {
		if !contains(got, want) {
			t.Errorf("Paths() lacks %s", want)
		}
	}
	for _, bad := range []string{
		"commands.why?", "commands.why?.x", "commands.", "commands..x", "commands.trailing ", "commands.in.",
		"commands.list.item", "commands.list.item.x", "environment.TWICE", "environment.TWICE.purpose", "commands.tab\there",
		// One file on macOS and Windows: answered from a prefix.
		"commands.Open", "commands.open", "commands.Open.x", "commands.open.x", "commands.Straße", "commands.STRASSE",
		"commands.caf\u00e9", "commands.cafe\u0301", "environment.HTTP_PROXY", "environment.http_proxy",
	} {
		if contains(got, bad) {
			t.Errorf("Paths() lists %q", bad)
		}
	}
	// commands.a.b answers the key "a.b", listed once, with that value.
	if a := d.Query("commands.a.b", nil); a.Value != "dotted" {
		t.Errorf("commands.a.b answers %s", MarshalAnswer(a))
	}
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Errorf("Paths() is not sorted and unique: %q", got)
	}
	for _, p := range got {
		q, err := ParseQuery("t:" + p)
		if err != nil || q.Path != p {
			t.Errorf("%q does not read back as a query: %+v, %v", p, q, err)
		}
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestPathFile(t *testing.T) {
	cases := map[string]string{
		"commands.click":                   "commands.click.json",
		"sources.stripe:go-live":           "sources.stripe:go-live.json",
		"sources.stripe:migration/charges": "sources.stripe:migration%2Fcharges.json",
		`a\b`:                              "a%5Cb.json",
		"a%2Fb":                            "a%252Fb.json",
		"x~y":                              "x%7Ey.json",
		"tab\there":                        "tab%09here.json",
		"bidi\u202eevil":                   "bidi%E2%80%AEevil.json",
		"café":                             "café.json",
		"bad\xffbyte":                      "bad%FFbyte.json",
		"":                                 "%.json",
		".":                                "%2E.json",
		"..":                               "%2E%2E.json",
		"../../etc/passwd":                 "..%2F..%2Fetc%2Fpasswd.json",
	}
	for in, want := range cases {
		if got := PathFile(in); got != want {
			t.Errorf("PathFile(%q) = %q, want %q", in, got, want)
		}
	}
	long := "reference." + strings.Repeat("é", 300)
	f := PathFile(long)
	if len(f) > 200 || !utf8.ValidString(f) || !strings.Contains(f, "~") || f == PathFile(long+"x") {
		t.Errorf("long path gives %q (%d bytes)", f, len(f))
	}
	slashes := "reference." + strings.Repeat("/", 100)
	if f := PathFile(slashes); len(f) > 200 || strings.Contains(f, "/") || strings.Contains(f[strings.Index(f, "~")-2:], "%~") {
		t.Errorf("long escaped path gives %q", f)
	}
}

func TestConsistency(t *testing.T) {
	doc := decodeMap(t, []byte(`meta: {name: t, version: x, type: cli}
state:
  entities:
    - name: refs
      created_by: [snapshot, "navigation (open)", --session flag, state save, get, ghost, goto]
      consumed_by: [click, drag]
commands:
  snapshot: {syntax: s, creates: [refs]}
  click: {syntax: c, requires: [refs, snapshot, logged in], invalidates: [refs, pages]}
  open: {syntax: o, aliases: [goto]}
  state.save: {syntax: ss}
  get.text: {syntax: g}
decisions:
  - {when: a, then: b, ref: docs}
  - {when: a, then: b, ref: missing:id}
  - {when: a, then: b, ref: "https://example.com/x"}
  - {when: a, then: b, ref: guide.md}
sources:
  - {id: docs, url: "https://example.com"}
  - {id: g, path: guide.md}
`))
	var got []string
	for _, p := range Consistency(doc) {
		got = append(got, p.Message)
	}
	want := []string{
		`state.entities[0].created_by[5]: state entity "refs" names the command "ghost", which is not in commands; add commands.ghost or correct the name`,
		`commands.click.invalidates[1]: "pages" is not a state entity; add an entry named "pages" to state.entities or correct the name`,
		`decisions[1].ref: "missing:id" is not the id of a source; add a sources entry with id: missing:id or correct the ref`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// FuzzParseQuery checks that no query makes the parser or the engine
// panic, that what parses prints back to itself, and that answers always
// encode.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{
		"stripe:constraints.never", "stripe:decisions?when=*Charges*", "mermaid:reference.sequence.parallel",
		"agent-browser:commands.click", "agent-browser:state.entities?name=ref", "agent-browser:workflows.authenticated_session",
		"skill:a:b.c?x=[!a-]*&y=?", "a:b..c", "a:b?&", ":", "a:sources.stripe:migration/charges", "a:b?k=v=w", "\x00", "a:[",
	} {
		f.Add(s)
	}
	d := NewDocument("a", decodeMap(f, []byte("meta: {name: a, version: x, type: cli}\ncommands:\n  b.c: {syntax: s, x: [1, {name: y}]}\n  b: {syntax: s, c: 1}\nsources: [{id: 'stripe:migration/charges'}]\n")))
	if !d.Valid() {
		f.Fatalf("fuzz document invalid: %v", d.Problems())
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuery(s)
		if err != nil {
			return
		}
		if q.Skill == "" || q.Path == "" {
			t.Fatalf("parsed %q to an empty name or path", s)
		}
		again, err := ParseQuery(q.String())
		if err != nil || !reflect.DeepEqual(again, q) {
			t.Fatalf("%q: String() %q parses to %+v, %v", s, q.String(), again, err)
		}
		a := d.Query(q.Path, q.Filters)
		if out := MarshalAnswer(a); len(out) == 0 || !utf8.Valid(out) {
			t.Fatalf("answer %q", out)
		}
		for _, fl := range q.Filters {
			Match(fl.Pattern, s)
		}
	})
}

// FuzzPaths checks, on any document, that every path Paths lists reads
// back as a query, is answered, and has a file of its own on every file
// system.
func FuzzPaths(f *testing.F) {
	for _, s := range []string{
		"meta: {name: a}\ncommands:\n  a.b: {x: 1}\n  a: {b: {x: 2}}\n",
		"environment: [{name: X, v: 1}, {name: x}, {name: Y, w: {z: [1]}}]\n",
		"a: {'?': 1, '': 2, 'b ': 3, 'c.': 4, Ä: 5, ä: 6, '%': 7, '/': 8}\n",
		"state: {entities: [{name: refs, by: [a]}]}\nsources: [{id: 'x:y/z'}]\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		v, _, err := yamltree.Decode(src, yamltree.DefaultLimits)
		if err != nil {
			return
		}
		root, ok := v.(*yamltree.Map)
		if !ok {
			return
		}
		d := NewDocument("f", root)
		files := map[string]string{}
		for _, p := range d.Paths() {
			q, err := ParseQuery("f:" + p)
			if err != nil || q.Path != p || len(q.Filters) > 0 {
				t.Fatalf("%q does not read back: %+v, %v", p, q, err)
			}
			if a := d.Query(p, nil); !a.Found {
				t.Fatalf("%q is listed but not found: %s", p, MarshalAnswer(a))
			}
			key := FileKey(PathFile(p))
			if prev, dup := files[key]; dup {
				t.Fatalf("%q and %q share the file %s", prev, p, key)
			}
			files[key] = p
		}
	})
}
