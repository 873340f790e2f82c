package uasp

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/skilldex/skilldex/build/linkify"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/yamltree"
	"github.com/skilldex/skilldex/internal/spaces"
)

// Deterministic derives a UASP document from a SKILL.md with fixed rules
// (uasp.md 7.1.2's indicators), no LLM: the same SKILL.md always gives the
// same document. It reads the body's Markdown syntax tree (goldmark, with
// GitHub tables and autolinks) and the frontmatter:
//
//   - constraints.never: sentences of prose with never, do not, don't,
//     avoid, must not, should not, prohibited, forbidden; constraints.always:
//     always, must, ensure, mandatory, is/are required. The rule's action is
//     kept (the text after the keyword when the sentence is imperative or
//     addressed to the agent; the whole sentence when the rule is about
//     something else: "The name must be lowercase"). Following Rule 2, a
//     sentence is skipped when it is a question, a heading, in code, in a
//     table, under a heading about examples, or when the keyword describes
//     instead of ruling ("Users should never see this", "not always",
//     "you don't need to").
//   - constraints.prefer: "prefer X over/to Y", "use X instead of/rather
//     than Y", "X is preferred/recommended over Y", with "when/if/for Z" as
//     the context.
//   - decisions: "If X, Y", "When X: Y", "If X then Y", "For X, use Y"; a
//     link in the sentence becomes the decision's ref (a sources id).
//   - commands: shell code blocks (bash, sh, shell, console, zsh, fish, and
//     unlabelled blocks whose lines start with a "$ " prompt or a
//     well-known program), one command per simple command (&&, ;, || split;
//     of a pipeline the first), keyed by the program and its subcommand
//     words (git commit -> git.commit; gh pr create -> gh.pr.create; a
//     script run by an interpreter is named by the script). The first use
//     is the syntax; other uses are variants (at most 5); the comment above
//     or beside it is the description or purpose; <placeholders> become
//     args and -flags flags.
//   - workflows: ordered lists of two or more items, not nested in another
//     list, keyed by the nearest heading in snake_case; each item is a step
//     (the command in it, if any, as cmd, and its text as note).
//   - sources: every link, autolink and bare URL (outside code): http(s)
//     URLs as url with an id namespace:path (docs.stripe.com/a/b ->
//     stripe:a/b), relative links as path with the file's base name as id;
//     the link text is use_for.
//   - environment: $VAR and ${VAR} in prose and code, and the usual
//     os.environ / os.getenv / process.env / os.Getenv reads in code, but
//     not variables a code block assigns itself (unless it exports them) nor
//     the shell's own (PATH, HOME, PWD...); purpose is the sentence that
//     mentions it.
//   - triggers: keywords from USK tags, capabilities and category, the
//     name's words and the description's salient words; intents from "Use
//     when ..." clauses of the description and the items of a "When to use"
//     section; file_patterns from file extensions the description names.
//   - USK fields: interface becomes a command keyed by the skill name (cli:
//     the runtime and entry point, stdin JSON or --flags by call_pattern;
//     http: POST to the entry point) with args from input_schema's
//     properties and returns from output_schema; permissions.env_vars
//     become environment entries; examples become templates (usage: the
//     call with the example's input; the expected output in the
//     description).
//   - meta.type follows Rule 1: api for a USK http interface; knowledge when
//     no command was found (installation commands such as pip install do not
//     count); hybrid when commands come with three or more constraints and
//     decisions; cli otherwise. meta.name is the skill's name (made to fit
//     the schema's pattern when it does not), meta.description its
//     description cut to 500 characters at a word boundary.
type Deterministic struct{}

var md = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, linkify.New(), extension.TaskList))

// Convert implements Converter.
func (Deterministic) Convert(s *skill.Skill) (*yamltree.Map, map[string]int, error) {
	if s == nil || s.Name == "" {
		return nil, nil, errors.New("the skill has no name")
	}
	d := newDeriver(s.Body, s.BodyLine)
	d.walk()
	d.usk(s)
	return d.assemble(s), d.origins, nil
}

type lined struct {
	text string
	line int
}

type command struct {
	key         string
	syntax      string
	description string
	flags       []*yamltree.Map
	flagSeen    map[string]bool
	args        []*yamltree.Map
	argSeen     map[string]bool
	variants    []*yamltree.Map
	seen        map[string]bool
	line        int
	setup       bool
	// fromUSK commands are assembled from the frontmatter.
	usk *yamltree.Map
}

type workflow struct {
	key, description string
	steps            []*yamltree.Map
	stepLines        []int
	example          []string
	line             int
}

type sourceItem struct {
	id, url, path, useFor string
	line                  int
}

type envVar struct {
	name, purpose, def string
	prose              bool
	line               int
}

type decisionItem struct {
	decision
	ref  string // link destination, resolved to a sources id when assembled
	line int
}

type preferItem struct {
	preference
	line int
}

type deriver struct {
	inlines

	src        []byte
	bodyLine   int
	lineStarts []int // offsets of the body's lines; the first is 0
	lastLine   int   // index in lineStarts of the line found last

	never, always []lined
	prefer        []preferItem
	decisions     []decisionItem
	commands      map[string]*command
	cmdOrder      []string
	workflows     []*workflow
	sources       []*sourceItem
	sourceByDest  map[string]*sourceItem
	env           map[string]*envVar
	envOrder      []string
	assigned      map[string]bool
	exported      map[string]bool
	intents       []lined
	templates     *yamltree.Map
	typeHint      string
	origins       map[string]int

	heading      string
	headingLevel int
	inExamples   bool
	whenToUse    bool
	// conditions is set inside a list that a "... when:" or "... if:"
	// paragraph introduces: its items are conditions ("STOP when: - You
	// don't understand an instruction"), not rules.
	conditions bool
}

func newDeriver(body []byte, bodyLine int) *deriver {
	d := &deriver{src: body, bodyLine: bodyLine, commands: map[string]*command{}, sourceByDest: map[string]*sourceItem{},
		env: map[string]*envVar{}, assigned: map[string]bool{}, exported: map[string]bool{}, origins: map[string]int{}}
	if d.bodyLine < 1 {
		d.bodyLine = 1
	}
	d.lineStarts = make([]int, 1, bytes.Count(body, []byte{'\n'})+1)
	for i := 0; ; {
		j := bytes.IndexByte(body[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		d.lineStarts = append(d.lineStarts, i)
	}
	return d
}

// line converts a body offset to a SKILL.md line. Offsets come mostly in
// order, so the line found last, or the next, is tried before a search.
func (d *deriver) line(off int) int {
	if off < 0 {
		return d.bodyLine
	}
	for i := d.lastLine; i <= d.lastLine+1 && i < len(d.lineStarts); i++ {
		if d.lineStarts[i] <= off && (i+1 == len(d.lineStarts) || off < d.lineStarts[i+1]) {
			d.lastLine = i
			return d.bodyLine + i
		}
	}
	i := max(sort.SearchInts(d.lineStarts, off+1)-1, 0)
	d.lastLine = i
	return d.bodyLine + i
}

func (d *deriver) walk() {
	doc := md.Parser().Parse(text.NewReader(d.src))
	d.blocks(doc, 0)
}

// blocks visits the block children of n; listDepth counts enclosing lists.
func (d *deriver) blocks(n ast.Node, listDepth int) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		switch x := c.(type) {
		case *ast.Heading:
			in := d.get(x)
			in.collect(x, d.src)
			d.heading = spaces.Collapse(in.text.String()) // plainText's, from the one collection
			d.headingLevel = x.Level
			h := strings.ToLower(d.heading)
			d.inExamples = strings.Contains(h, "example")
			d.whenToUse = strings.Contains(h, "when to use") || strings.Contains(h, "use cases") || strings.Contains(h, "when to apply") || strings.Contains(h, "use this skill when")
			d.linksOf(in, "")
			d.envInText(in.text.String(), d.line(x.Pos()))
			d.put(in)
		case *ast.Paragraph, *ast.TextBlock:
			d.prose(c, listDepth)
		case *ast.FencedCodeBlock:
			d.code(x, string(x.Language(d.src)), false)
		case *ast.CodeBlock:
			d.code(x, "", true)
		case *ast.List:
			if x.IsOrdered() && listDepth == 0 && x.ChildCount() >= 2 {
				d.workflow(x)
			}
			outer := d.conditions
			if p, ok := x.PreviousSibling().(*ast.Paragraph); ok && introducesConditions(d.plainText(p, d.src)) {
				d.conditions = true
			}
			if d.whenToUse && listDepth == 0 {
				for it := x.FirstChild(); it != nil; it = it.NextSibling() {
					if t := cut(d.cleanText(firstBlock(it), d.src), 200); t != "" && !strings.HasSuffix(t, "?") {
						d.intents = append(d.intents, lined{t, d.line(it.Pos())})
					}
				}
			}
			d.blocks(x, listDepth+1)
			d.conditions = outer
		case *extast.Table:
			d.table(x)
		case *ast.HTMLBlock:
			// Raw HTML is not rendered, and read for nothing.
		default:
			d.blocks(c, listDepth)
		}
	}
}

// introducesConditions reports whether a paragraph ends in "when:", "if:"
// or "whenever:", so that the list after it holds conditions.
func introducesConditions(p string) bool {
	p = strings.TrimRight(lowerASCII(p), " *_")
	rest, ok := strings.CutSuffix(p, ":")
	if !ok {
		return false
	}
	rest = strings.TrimRight(rest, " *_")
	for _, w := range []string{"when", "if", "whenever"} {
		if rest == w || strings.HasSuffix(rest, " "+w) {
			return true
		}
	}
	return false
}

func firstBlock(item ast.Node) ast.Node {
	for c := item.FirstChild(); c != nil; c = c.NextSibling() {
		switch c.(type) {
		case *ast.Paragraph, *ast.TextBlock:
			return c
		}
	}
	return item
}

// table reads links and environment variables in cells; cells are
// reference material, not rules.
func (d *deriver) table(t *extast.Table) {
	ast.Walk(t, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if cell, ok := n.(*extast.TableCell); ok && entering {
			in := d.get(cell)
			in.collect(cell, d.src)
			d.linksOf(in, "")
			d.envInText(in.text.String(), d.line(cell.Pos()))
			d.put(in)
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
}

// prose applies the sentence rules to a paragraph.
func (d *deriver) prose(n ast.Node, listDepth int) {
	in := d.get(n)
	in.collect(n, d.src)
	d.envInText(in.text.String(), d.line(n.Pos()))
	for _, c := range in.codes {
		// A command written inline ("run `gh auth login` once") counts as
		// one when it starts with a well-known program.
		if inlineCommand(c.code) {
			for _, call := range shellCalls([]codeLine{{text: c.code, line: d.line(c.src)}}, false) {
				d.addCommand(call)
			}
		}
	}
	// Rule 2 files nothing under a heading about examples: the text is not
	// even split.
	if !d.inExamples {
		in.eachSentence(func(s sentence) { d.rule(s, d.line(s.src), s.ref) })
	}
	d.linksOf(in, "")
	d.put(in)
}

// rule files one sentence under prefer, decisions, never or always.
func (d *deriver) rule(s sentence, line int, ref string) {
	if strings.HasSuffix(strings.TrimRight(s.mask, " *_)\"'"), "?") || !hasWords(s.text, 2) || d.inExamples {
		return
	}
	lm := strings.TrimLeft(s.lm, " *_")
	if strings.HasPrefix(lm, "e.g") || strings.HasPrefix(lm, "for example") || strings.HasPrefix(lm, "example") ||
		strings.HasPrefix(s.text, "\"") || strings.HasPrefix(s.text, "“") {
		return
	}
	c := trimSentence(s.text, s.mask, s.lm)
	if p, ok := parsePreference(c); ok {
		d.prefer = append(d.prefer, preferItem{p, line})
		return
	}
	if dec, ok := parseDecision(c); ok {
		d.decisions = append(d.decisions, decisionItem{decision: dec, ref: ref, line: line})
		return
	}
	if d.conditions {
		return // a condition, not a rule
	}
	switch kind, action := parseConstraint(c); kind {
	case ruleNever:
		d.never = append(d.never, lined{cut(action, 300), line})
	case ruleAlways:
		d.always = append(d.always, lined{cut(action, 300), line})
	}
}

// linksOf files the links of a piece of text as sources.
func (d *deriver) linksOf(in *inline, _ string) {
	if in == nil {
		return
	}
	for _, l := range in.links {
		d.addSource(l.dest, spaces.Collapse(l.label), d.line(l.src))
	}
}

var hostPrefixes = map[string]bool{"www": true, "docs": true, "doc": true, "developer": true, "developers": true,
	"api": true, "learn": true, "en": true, "help": true, "support": true, "raw": true, "m": true}

// addSource records a link as a source, once per destination.
func (d *deriver) addSource(dest, label string, line int) {
	dest = strings.TrimSpace(dest)
	if dest == "" || strings.HasPrefix(dest, "#") {
		return
	}
	u, err := url.Parse(dest)
	if err != nil {
		return
	}
	var s sourceItem
	switch {
	case u.Scheme == "http" || u.Scheme == "https":
		if u.Host == "" {
			return
		}
		u.Fragment = ""
		s.url = u.String()
		labels := strings.Split(strings.ToLower(u.Hostname()), ".")
		if len(labels) > 1 {
			labels = labels[:len(labels)-1] // the top-level domain
		}
		for len(labels) > 1 && hostPrefixes[labels[0]] {
			labels = labels[1:]
		}
		ns := labels[len(labels)-1]
		p := strings.Trim(u.Path, "/")
		p = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(p, ".html"), ".htm"), ".md")
		s.id = ns
		if p != "" {
			s.id = ns + ":" + p
		}
	case u.Scheme == "" && u.Host == "" && u.Path != "":
		p := path.Clean(u.Path)
		if strings.HasPrefix(p, "/") || p == "." {
			return
		}
		s.path = p
		base := path.Base(p)
		s.id = strings.TrimSuffix(base, path.Ext(base))
		if s.id == "" || s.id == "." {
			s.id = p
		}
	default:
		return // mailto:, tel: and the like
	}
	key := s.url + "\x00" + s.path
	if prev, ok := d.sourceByDest[key]; ok {
		if prev.useFor == "" && label != "" && label != dest {
			prev.useFor = label
		}
		return
	}
	if label != "" && label != dest && label != s.url {
		s.useFor = cut(label, 200)
	}
	s.line = line
	// Ids are unique: a second page that gives the same id gets a number.
	base := s.id
	for n := 2; d.sourceID(s.id); n++ {
		s.id = fmt.Sprintf("%s-%d", base, n)
	}
	d.sources = append(d.sources, &s)
	d.sourceByDest[key] = &s
	d.sourceByDest["\x01"+dest] = &s
	d.sourceByDest["\x02"+s.id] = &s
}

func (d *deriver) sourceID(id string) bool {
	_, taken := d.sourceByDest["\x02"+id]
	return taken
}

// code reads a code block: environment variables always, commands when it
// holds shell.
func (d *deriver) code(n ast.Node, lang string, indented bool) {
	lang = strings.ToLower(strings.TrimSpace(lang))
	shell := shellLangs[lang]
	if !shell && lang != "" && !readsEnv(d.blockSource(n)) {
		return // no commands, and envInCode would find nothing
	}
	lines := d.codeLines(n, nil)
	d.envInCode(lines, shell || lang == "")
	if !shell && !(lang == "" && looksLikeCommands(lines)) {
		return
	}
	_ = indented
	for _, c := range shellCalls(lines, lang == "console" || lang == "shell-session" || lang == "shellsession" || lang == "terminal") {
		d.addCommand(c)
	}
}

// blockSource returns the source a block's lines are taken from.
func (d *deriver) blockSource(n ast.Node) []byte {
	segs := n.Lines()
	if segs.Len() == 0 {
		return nil
	}
	first, last := segs.At(0).Start, segs.At(segs.Len()-1).Stop
	if first > last {
		return nil
	}
	return d.src[first:last]
}

// readsEnv reports whether the source of a code block that is not shell
// holds what envInCode looks for in such a block: "nv" or "export", which
// every codeEnvRes guard holds, or "${". Most code blocks hold none, and
// are not made into strings at all. (A line goldmark pads has blanks more,
// which hold none of these.)
func readsEnv(src []byte) bool {
	return bytes.Contains(src, []byte("nv")) || bytes.Contains(src, []byte("export")) || bytes.Contains(src, []byte("${"))
}

// codeLines appends the lines of a code block to lines, with their
// SKILL.md lines and without their newline. The block's source becomes
// one string, of which the lines are pieces (a line goldmark pads, such as
// a tab's remainder, is a string of its own).
func (d *deriver) codeLines(n ast.Node, lines []codeLine) []codeLine {
	segs := n.Lines()
	if segs.Len() == 0 {
		return lines
	}
	first, last := segs.At(0).Start, segs.At(segs.Len()-1).Stop
	block := string(d.blockSource(n))
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		var t string
		if seg.Padding == 0 && seg.Start >= first && seg.Stop <= last && seg.Start <= seg.Stop {
			t = block[seg.Start-first : seg.Stop-first] // as seg.Value, whose forced newline is trimmed anyway
		} else {
			t = string(seg.Value(d.src))
		}
		lines = append(lines, codeLine{text: strings.TrimRight(t, "\n"), line: d.line(seg.Start)})
	}
	return lines
}

var (
	placeholderRe = regexp.MustCompile(`^\[?<([A-Za-z][A-Za-z0-9_.-]*)(\.\.\.)?>\]?$`)
	redirectRe    = regexp.MustCompile(`^(?:[0-9&]?>.*|<|<<.*)$`)
)

// isRedirect is redirectRe.MatchString, run only on words that start as
// its matches do.
func isRedirect(tok string) bool {
	return tok != "" && strings.IndexByte("<>&0123456789", tok[0]) >= 0 && redirectRe.MatchString(tok)
}

// placeholder is placeholderRe.FindStringSubmatch, run only on words with
// a '<'.
func placeholder(tok string) []string {
	if !strings.Contains(tok, "<") {
		return nil
	}
	return placeholderRe.FindStringSubmatch(tok)
}

// isFlagName: ^--?[A-Za-z0-9][A-Za-z0-9_-]*$
func isFlagName(s string) bool {
	s, ok := strings.CutPrefix(s, "-")
	if !ok {
		return false
	}
	s = strings.TrimPrefix(s, "-")
	if s == "" || !isLetter(s[0]) && !isDigit(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// trivialPrograms are well-known programs too generic to name a command
// when they appear inline in prose.
var trivialPrograms = map[string]bool{"cd": true, "ls": true, "rm": true, "cp": true, "mv": true, "mkdir": true,
	"chmod": true, "export": true, "ssh": true}

// inlineCommand reports a code span that is a command line: two words or
// more, the first a well-known program.
func inlineCommand(code string) bool {
	first, rest, ok := strings.Cut(strings.TrimSpace(code), " ")
	return ok && strings.TrimSpace(rest) != "" && knownPrograms[first] && !trivialPrograms[first]
}

// argType infers an argument's type from its name (Rule 4).
func argType(name string) string {
	n := strings.ToLower(name)
	switch {
	case n == "count" || n == "port" || n == "ms" || n == "n" || n == "num" || n == "number" || strings.HasSuffix(n, "-count") || strings.HasSuffix(n, "_count") || n == "timeout" || n == "seconds" || n == "depth" || n == "limit":
		return "int"
	case n == "ref":
		return "ref"
	}
	return "string"
}

func (d *deriver) addCommand(c shellCall) {
	cmd, ok := d.commands[c.key]
	if !ok {
		cmd = &command{key: c.key, syntax: c.syntax, description: c.comment, line: c.line, setup: isSetup(c.key)}
		d.commands[c.key] = cmd
		d.cmdOrder = append(d.cmdOrder, c.key)
	} else if c.syntax != cmd.syntax && !cmd.seen[c.syntax] {
		if cmd.seen == nil {
			cmd.seen = map[string]bool{}
		}
		cmd.seen[c.syntax] = true
		if len(cmd.variants) < 5 {
			v := yamltree.NewMap()
			v.Set("syntax", c.syntax)
			if c.comment != "" {
				v.Set("purpose", cut(c.comment, 200))
			}
			cmd.variants = append(cmd.variants, v)
		}
	}
	for i, tok := range c.tokens {
		if isRedirect(tok) {
			break // what follows is where output goes, not an argument
		}
		if m := placeholder(tok); m != nil && i > 0 {
			name := m[1]
			if cmd.argSeen[name] {
				continue
			}
			if cmd.argSeen == nil {
				cmd.argSeen = map[string]bool{}
			}
			cmd.argSeen[name] = true
			a := yamltree.NewMap()
			a.Set("name", name)
			t := argType(name)
			if m[2] != "" {
				t += "[]"
			}
			a.Set("type", t)
			a.Set("required", !strings.HasPrefix(tok, "["))
			cmd.args = append(cmd.args, a)
			continue
		}
		if !strings.HasPrefix(tok, "-") || tok == "-" || tok == "--" || i == 0 {
			continue
		}
		name, _, hasValue := strings.Cut(tok, "=")
		if !isFlagName(name) || cmd.flagSeen[name] {
			continue
		}
		if cmd.flagSeen == nil {
			cmd.flagSeen = map[string]bool{}
		}
		cmd.flagSeen[name] = true
		typ := "bool"
		if hasValue || (i+1 < len(c.tokens) && !strings.HasPrefix(c.tokens[i+1], "-")) {
			typ = "string"
		}
		f := yamltree.NewMap()
		f.Set("name", name)
		f.Set("type", typ)
		cmd.flags = append(cmd.flags, f)
	}
}

// workflow files an ordered list as a workflow.
func (d *deriver) workflow(l *ast.List) {
	w := &workflow{line: d.line(l.Pos())}
	w.description = d.heading
	// A paragraph just before the list that ends with ':' introduces it.
	if p := l.PreviousSibling(); p != nil {
		if _, ok := p.(*ast.Paragraph); ok {
			if t := d.plainText(p, d.src); strings.HasSuffix(t, ":") {
				w.description = strings.TrimSuffix(t, ":")
			}
		}
	}
	if w.description == "" {
		w.description = fmt.Sprintf("Numbered steps at line %d of SKILL.md", w.line)
	}
	w.description = cut(clean(w.description), 300)
	if w.description == "" {
		w.description = "Numbered steps"
	}
	w.key = snake(d.heading)
	if w.key == "" {
		w.key = "steps"
	}
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		text := cut(d.cleanText(firstBlock(item), d.src), 300)
		cmd := ""
		var inner []codeLine
		ast.Walk(item, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering {
				return ast.WalkContinue, nil
			}
			if fc, ok := n.(*ast.FencedCodeBlock); ok && shellLangs[strings.ToLower(string(fc.Language(d.src)))] {
				inner = d.codeLines(fc, inner)
			}
			return ast.WalkContinue, nil
		})
		calls := shellCalls(inner, false)
		if len(calls) > 0 {
			cmd = calls[0].syntax
			for _, c := range calls {
				w.example = append(w.example, c.syntax)
			}
		} else if code := d.leadingCode(firstBlock(item)); code != "" {
			cmd = code
		}
		step := yamltree.NewMap()
		switch {
		case cmd != "":
			step.Set("cmd", cut(cmd, 300))
			if text != "" && text != "`"+cmd+"`" {
				step.Set("note", text)
			}
		case text != "":
			step.Set("cmd", text)
		default:
			continue
		}
		if markedOptional(text) {
			step.Set("optional", true)
		}
		w.steps = append(w.steps, step)
		w.stepLines = append(w.stepLines, d.line(item.Pos()))
	}
	if len(w.steps) >= 2 {
		d.workflows = append(d.workflows, w)
	}
}

// markedOptional reports whether strings.ToLower(text) starts with
// "optional" or holds "(optional)", without lowering a copy: it lowers
// rune by rune as strings.ToLower does (unicode.ToLower; invalid UTF-8 as
// U+FFFD) and matches as it goes. The marks are ASCII, and a rune that
// lowers to an ASCII letter lowers to that letter alone, so each letter
// of a mark is one lowered rune.
func markedOptional(text string) bool {
	const prefix, mark = "optional", "(optional)"
	var last [len(mark)]rune // the lowered runes before, last at the end
	n := 0
	for _, r := range text {
		r = unicode.ToLower(r)
		if n < len(prefix) && r == rune(prefix[n]) {
			n++
			if n == len(prefix) {
				return true
			}
		} else {
			n = len(prefix) + 1 // the prefix is missed for good
		}
		copy(last[:], last[1:])
		last[len(last)-1] = r
		if r == ')' && runesAre(last[:], mark) {
			return true
		}
	}
	return false
}

// runesAre reports whether runes spell ascii.
func runesAre(runes []rune, ascii string) bool {
	if len(runes) != len(ascii) {
		return false
	}
	for i, r := range runes {
		if r != rune(ascii[i]) {
			return false
		}
	}
	return true
}

// leadingCode returns the code span a step starts with, or that follows a
// "Run"/"Execute" verb, when it looks like a command.
func (d *deriver) leadingCode(n ast.Node) string {
	c := n.FirstChild()
	for c != nil {
		if t, ok := c.(*ast.Text); ok {
			v := strings.ToLower(strings.TrimSpace(string(t.Value(d.src))))
			if v == "" || v == "run" || v == "execute" || v == "call" || v == "use" || v == "type" {
				c = c.NextSibling()
				continue
			}
		}
		break
	}
	if cs, ok := c.(*ast.CodeSpan); ok {
		code := d.plainText(cs, d.src)
		if first, _, _ := strings.Cut(code, " "); strings.Contains(code, " ") && isProgramName(first) {
			return code
		}
	}
	return ""
}

// snake makes a heading a workflow key: lowercase words joined by '_'.
func snake(s string) string {
	var b strings.Builder
	us := false
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
			us = false
		} else if !us && b.Len() > 0 {
			b.WriteByte('_')
			us = true
		}
	}
	out := strings.TrimRight(b.String(), "_")
	if len(out) > 60 {
		out = strings.TrimRight(out[:60], "_")
	}
	return out
}

var (
	dollarVarRe = regexp.MustCompile(`\$\{?([A-Z][A-Z0-9_]*[A-Z0-9])(?::?-([^}\s]*))?\}?`)
	codeEnvRes  = []guarded{
		{regexp.MustCompile(`os\.environ(?:\.get)?\s*[\[(]\s*["']([A-Z][A-Z0-9_]*)["']`), []string{"os.environ"}},
		{regexp.MustCompile(`os\.getenv\(\s*["']([A-Z][A-Z0-9_]*)["']`), []string{"os.getenv("}},
		{regexp.MustCompile(`process\.env\.([A-Z][A-Z0-9_]*)`), []string{"process.env."}},
		{regexp.MustCompile(`process\.env\[\s*["']([A-Z][A-Z0-9_]*)["']`), []string{"process.env["}},
		{regexp.MustCompile(`os\.Getenv\(\s*"([A-Z][A-Z0-9_]*)"`), []string{"os.Getenv("}},
		{regexp.MustCompile(`env::var\(\s*"([A-Z][A-Z0-9_]*)"`), []string{"env::var("}},
		{regexp.MustCompile(`(?:System\.getenv|Environment\.GetEnvironmentVariable)\(\s*"([A-Z][A-Z0-9_]*)"`),
			[]string{"System.getenv(", "Environment.GetEnvironmentVariable("}},
		{regexp.MustCompile(`\bexport\s+([A-Z][A-Z0-9_]*)=`), []string{"export"}},
	}
	exportRe = guarded{regexp.MustCompile(`\bexport\s+([A-Za-z_][A-Za-z0-9_]*)`), []string{"export"}}
	localRes = []guarded{
		{regexp.MustCompile(`^\s*(?:local\s+|readonly\s+|declare\s+(?:-\w+\s+)?)?([A-Za-z_][A-Za-z0-9_]*)=`), []string{"="}},
		{regexp.MustCompile(`\bfor\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\b`), []string{"for"}},
		{regexp.MustCompile(`\bread\s+(?:-\w+\s+)*([A-Za-z_][A-Za-z0-9_]*)`), []string{"read"}},
	}
)

// guarded is a regexp with the texts one of which its every match holds:
// it runs on every line of code, most of which hold none.
type guarded struct {
	re    *regexp.Regexp
	needs []string
}

// findAll is re.FindAllStringSubmatch(s, -1), nil at once when s holds
// none of the needed texts.
func (g guarded) findAll(s string) [][]string {
	for _, n := range g.needs {
		if strings.Contains(s, n) {
			return g.re.FindAllStringSubmatch(s, -1)
		}
	}
	return nil
}

// shellVars are the shell's own variables, which configure nothing a skill
// defines.
var shellVars = map[string]bool{"PATH": true, "HOME": true, "PWD": true, "OLDPWD": true, "USER": true, "SHELL": true,
	"RANDOM": true, "LINENO": true, "SECONDS": true, "IFS": true, "UID": true, "EUID": true, "PPID": true,
	"BASH_SOURCE": true, "BASH_REMATCH": true, "FUNCNAME": true, "OPTARG": true, "OPTIND": true, "REPLY": true,
	"PIPESTATUS": true, "HOSTNAME": true, "TERM": true, "TMPDIR": true, "LANG": true, "PS1": true, "EDITOR": false}

func (d *deriver) noteEnv(name, purpose, def string, prose bool, line int) {
	if shellVars[name] || len(name) < 2 {
		return
	}
	e, ok := d.env[name]
	if !ok {
		e = &envVar{name: name, line: line}
		d.env[name] = e
		d.envOrder = append(d.envOrder, name)
	}
	if purpose != "" && (e.purpose == "" || (prose && !e.prose)) {
		e.purpose, e.prose = purpose, prose
	}
	if e.def == "" && def != "" && !strings.ContainsAny(def, "$<>`") {
		e.def = def
	}
}

// envInText finds $VARS in prose; the sentence is their purpose.
func (d *deriver) envInText(t string, line int) {
	if !strings.Contains(t, "$") {
		return // most text: dollarVarRe's every match starts with '$'
	}
	matches := dollarVarRe.FindAllStringSubmatchIndex(t, -1)
	if len(matches) == 0 {
		return
	}
	// Sentence ends, found once: a stop followed by a blank.
	var stops []int
	for j := 0; j+1 < len(t); j++ {
		if (t[j] == '.' || t[j] == '!' || t[j] == '?') && t[j+1] == ' ' {
			stops = append(stops, j+1)
		}
	}
	for _, m := range matches {
		name := t[m[2]:m[3]]
		def := ""
		if m[4] >= 0 {
			def = t[m[4]:m[5]]
		}
		if e, ok := d.env[name]; ok && e.prose && (def == "" || e.def != "") {
			continue // its purpose is known; say nothing twice
		}
		i := sort.SearchInts(stops, m[0]+1) // first stop after the match
		start, end := 0, len(t)
		if i > 0 {
			start = stops[i-1]
		}
		if i < len(stops) {
			end = stops[i]
		}
		// A purpose is at most 200 characters: look no further around.
		start, end = max(start, m[0]-400), min(end, m[1]+400)
		for start > 0 && !utf8.RuneStart(t[start]) {
			start--
		}
		for end < len(t) && !utf8.RuneStart(t[end]) {
			end++
		}
		d.noteEnv(name, cut(spaces.Collapse(t[start:end]), 200), def, true, line)
	}
}

// envInCode finds environment variables a code block reads; in shell, the
// ones it assigns itself are its own and are left out later.
func (d *deriver) envInCode(lines []codeLine, shell bool) {
	comment := ""
	for _, l := range lines {
		t := strings.TrimSpace(l.text)
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "//") {
			comment = strings.TrimSpace(strings.TrimLeft(t, "#/ "))
			continue
		}
		if shell {
			for _, m := range exportRe.findAll(t) {
				d.exported[m[1]] = true
			}
			for _, re := range localRes {
				for _, m := range re.findAll(t) {
					d.assigned[m[1]] = true
				}
			}
		}
		// The purpose is made for the first variable found, if any.
		purpose, made := comment, false
		use := func() string {
			if !made {
				if purpose == "" {
					purpose = "used in `" + cut(t, 150) + "`"
				}
				purpose, made = cut(purpose, 200), true
			}
			return purpose
		}
		// Every codeEnvRes guard holds "nv" (env, Env) or is "export":
		// most lines hold neither, and are passed over after two scans.
		if strings.Contains(t, "nv") || strings.Contains(t, "export") {
			for _, re := range codeEnvRes {
				for _, m := range re.findAll(t) {
					d.noteEnv(m[1], use(), "", false, l.line)
				}
			}
		}
		if (shell || strings.Contains(t, "${")) && strings.Contains(t, "$") {
			for _, m := range dollarVarRe.FindAllStringSubmatch(t, -1) {
				d.noteEnv(m[1], use(), m[2], false, l.line)
			}
		}
		comment = ""
	}
}

// usk maps the USK v3 frontmatter onto UASP sections.
func (d *deriver) usk(s *skill.Skill) {
	fm := s.Frontmatter
	if fm == nil {
		return
	}
	line := func(key string) int { return fm.KeyPos(key).Line }
	invocation := ""
	if it := fm.Interface; it != nil && (it.Type != "" || it.EntryPoint != "") {
		c := yamltree.NewMap()
		entry := it.EntryPoint
		if entry == "" {
			entry = s.Name
		}
		var syntax, note string
		switch {
		case it.Type == "http":
			d.typeHint = "api"
			syntax = "POST " + entry
			note = "send the input as a JSON body; the response is JSON"
		default:
			switch it.Runtime {
			case "python3", "node", "bash":
				invocation = it.Runtime + " " + entry
			case "binary":
				invocation = "./" + strings.TrimPrefix(entry, "./")
			default:
				invocation = entry
			}
			syntax = invocation
			switch it.CallPattern {
			case "stdin_stdout":
				syntax += " < input.json"
				note = "reads one JSON object (input_schema) on stdin and writes JSON (output_schema) on stdout"
			case "args":
				for _, a := range uskArgs(fm.InputSchema) {
					name, _ := getString(a, "name")
					req, _ := a.Get("required")
					if req == true {
						syntax += " --" + name + " <" + name + ">"
					} else {
						syntax += " [--" + name + " <" + name + ">]"
					}
				}
			}
		}
		c.Set("syntax", syntax)
		if s.Description != "" {
			c.Set("description", cut(spaces.Collapse(s.Description), 300))
		}
		if args := uskArgs(fm.InputSchema); len(args) > 0 {
			list := make([]any, len(args))
			for i, a := range args {
				list[i] = a
			}
			c.Set("args", list)
		}
		if r := uskReturns(fm.OutputSchema); r != "" {
			c.Set("returns", r)
		}
		if note != "" {
			c.Set("note", note)
		}
		key := s.Name
		d.commands[key] = &command{key: key, usk: c, line: line("interface")}
		d.cmdOrder = append([]string{key}, without(d.cmdOrder, key)...)
	}
	if p := fm.Permissions; p != nil {
		for _, v := range p.EnvVars {
			if _, ok := d.env[v]; !ok {
				d.noteEnv(v, "required by the skill (declared in permissions.env_vars)", "", false, line("permissions"))
			}
			d.exported[v] = true // declared: never a local
		}
	}
	if len(fm.Examples) > 0 {
		d.templates = yamltree.NewMap()
		for i, ex := range fm.Examples {
			key := slug(ex.Name)
			if key == "" {
				key = fmt.Sprintf("example-%d", i+1)
			}
			for n := 2; d.templates.Has(key); n++ {
				key = fmt.Sprintf("%s-%d", slug(ex.Name), n)
			}
			t := yamltree.NewMap()
			desc := spaces.Collapse(ex.Description)
			if desc == "" {
				desc = spaces.Collapse(ex.Name)
			}
			if desc == "" {
				desc = fmt.Sprintf("Example %d", i+1)
			}
			if ex.HasOutput {
				if b, err := yamltree.JSON(ex.Output, ""); err == nil && len(b) <= 200 {
					desc += " (returns " + string(b) + ")"
				}
			}
			t.Set("description", cut(desc, 500))
			if ex.HasInput {
				if b, err := yamltree.JSON(ex.Input, ""); err == nil {
					in := string(b)
					switch {
					case invocation != "" && fm.Interface.CallPattern == "stdin_stdout":
						t.Set("usage", "echo '"+strings.ReplaceAll(in, "'", `'\''`)+"' | "+invocation)
					default:
						t.Set("usage", in)
					}
				}
			}
			d.templates.Set(key, t)
			d.origins["templates."+key] = line("examples")
		}
	}
}

func without(list []string, drop string) []string {
	var out []string
	for _, s := range list {
		if s != drop {
			out = append(out, s)
		}
	}
	return out
}

// slug makes a template key: lowercase letters, digits and hyphens.
func slug(s string) string {
	return strings.ReplaceAll(snake(s), "_", "-")
}

// uskArgs turns input_schema properties into command arguments.
func uskArgs(schema *yamltree.Map) []*yamltree.Map {
	props, _ := getMap(schema, "properties")
	reqList, _ := getList(schema, "required")
	required := map[string]bool{}
	for _, r := range reqList {
		if s, ok := r.(string); ok {
			required[s] = true
		}
	}
	var out []*yamltree.Map
	for name, v := range props.All() {
		p, _ := v.(*yamltree.Map)
		a := yamltree.NewMap()
		a.Set("name", name)
		t, _ := getString(p, "type")
		switch t {
		case "integer":
			t = "int"
		case "number":
			t = "float"
		case "boolean":
			t = "bool"
		case "array":
			t = "string[]"
		case "object":
			t = "object"
		case "string":
		default:
			t = "any"
		}
		if enum, ok := getList(p, "enum"); ok && len(enum) > 0 {
			t = "enum"
			var vals []any
			for _, e := range enum {
				vals = append(vals, scalarText(e))
			}
			a.Set("type", t)
			a.Set("values", vals)
		} else {
			a.Set("type", t)
		}
		a.Set("required", required[name])
		if def, ok := p.Get("default"); ok {
			// A copy: the document owns its tree (see arrangeOwned), and
			// the frontmatter stays the skill's.
			a.Set("default", yamltree.Clone(def))
		}
		if desc, ok := getString(p, "description"); ok && strings.TrimSpace(desc) != "" {
			a.Set("description", cut(spaces.Collapse(desc), 300))
		}
		out = append(out, a)
	}
	return out
}

// uskReturns describes the output schema in a line.
func uskReturns(schema *yamltree.Map) string {
	if schema == nil {
		return ""
	}
	if desc, ok := getString(schema, "description"); ok && strings.TrimSpace(desc) != "" {
		return cut(spaces.Collapse(desc), 300)
	}
	props, _ := getMap(schema, "properties")
	if props.Len() == 0 {
		return ""
	}
	return "JSON object with " + strings.Join(props.Keys(), ", ")
}

var nameFixRe = regexp.MustCompile(`[^a-z0-9-]+`)

// metaName makes the skill name fit the schema's ^[a-z][a-z0-9-]*$.
func metaName(name string) string {
	n := nameFixRe.ReplaceAllString(strings.ToLower(name), "-")
	n = strings.Trim(n, "-")
	if n == "" || n[0] < 'a' || n[0] > 'z' {
		n = "skill-" + n
	}
	return strings.TrimRight(n, "-")
}

// assemble builds the document in the schema's order.
func (d *deriver) assemble(s *skill.Skill) *yamltree.Map {
	root := yamltree.NewMap()
	meta := yamltree.NewMap()
	meta.Set("name", metaName(s.Name))
	meta.Set("version", "00000000") // replaced by the content hash
	guidelines := len(d.never) + len(d.always) + len(d.prefer) + len(d.decisions)
	real := 0
	for _, c := range d.commands {
		if !c.setup {
			real++
		}
	}
	typ := "knowledge"
	switch {
	case d.typeHint != "":
		typ = d.typeHint
	case real == 0:
	case guidelines >= 3:
		typ = "hybrid"
	default:
		typ = "cli"
	}
	meta.Set("type", typ)
	fmLine := 1
	if s.Frontmatter != nil {
		fmLine = s.Frontmatter.KeyPos("description").Line
	}
	if desc := truncateWords(s.Description, 500); desc != "" {
		meta.Set("description", desc)
		d.origins["meta.description"] = fmLine
	}
	root.Set("meta", meta)

	if t := d.triggers(s, fmLine); t.Len() > 0 {
		root.Set("triggers", t)
	}

	cons := yamltree.NewMap()
	addLines := func(key string, items []lined) {
		var list []any
		seen := map[string]bool{}
		for _, it := range items {
			k := strings.ToLower(it.text)
			if seen[k] {
				continue
			}
			seen[k] = true
			d.origins["constraints."+key+"."+strconv.Itoa(len(list))] = it.line
			list = append(list, it.text)
		}
		if len(list) > 0 {
			cons.Set(key, list)
		}
	}
	addLines("never", d.never)
	addLines("always", d.always)
	if len(d.prefer) > 0 {
		var list []any
		for _, p := range d.prefer {
			m := yamltree.NewMap()
			m.Set("use", p.use)
			m.Set("over", p.over)
			if p.when != "" {
				m.Set("when", p.when)
			}
			d.origins["constraints.prefer."+strconv.Itoa(len(list))] = p.line
			list = append(list, m)
		}
		cons.Set("prefer", list)
	}
	if cons.Len() > 0 {
		root.Set("constraints", cons)
	}

	if len(d.decisions) > 0 {
		var list []any
		for _, dec := range d.decisions {
			m := yamltree.NewMap()
			m.Set("when", dec.when)
			m.Set("then", dec.then)
			if src := d.sourceByDest["\x01"+strings.TrimSpace(dec.ref)]; src != nil {
				m.Set("ref", src.id)
			}
			d.origins["decisions."+strconv.Itoa(len(list))] = dec.line
			list = append(list, m)
		}
		root.Set("decisions", list)
	}

	if len(d.cmdOrder) > 0 {
		cmds := yamltree.NewMap()
		for _, key := range d.cmdOrder {
			c := d.commands[key]
			d.origins["commands."+key] = c.line
			if c.usk != nil {
				cmds.Set(key, c.usk)
				continue
			}
			m := yamltree.NewMap()
			m.Set("syntax", c.syntax)
			if c.description != "" {
				m.Set("description", cut(c.description, 300))
			}
			if len(c.args) > 0 {
				m.Set("args", mapsToList(c.args))
			}
			if len(c.flags) > 0 {
				m.Set("flags", mapsToList(c.flags))
			}
			if len(c.variants) > 0 {
				m.Set("variants", mapsToList(c.variants))
			}
			cmds.Set(key, m)
		}
		root.Set("commands", cmds)
	}

	if len(d.workflows) > 0 {
		wfs := yamltree.NewMap()
		for _, w := range d.workflows {
			key := w.key
			for n := 2; wfs.Has(key); n++ {
				key = fmt.Sprintf("%s_%d", w.key, n)
			}
			m := yamltree.NewMap()
			m.Set("description", w.description)
			m.Set("steps", mapsToList(w.steps))
			if len(w.example) > 0 {
				m.Set("example", strings.Join(w.example, "\n")+"\n")
			}
			wfs.Set(key, m)
			d.origins["workflows."+key] = w.line
			for i, l := range w.stepLines {
				d.origins["workflows."+key+".steps."+strconv.Itoa(i)] = l
			}
		}
		root.Set("workflows", wfs)
	}

	if d.templates.Len() > 0 {
		root.Set("templates", d.templates)
	}

	var env []any
	for _, name := range d.envOrder {
		e := d.env[name]
		if d.assigned[name] && !d.exported[name] && !e.prose {
			continue
		}
		m := yamltree.NewMap()
		m.Set("name", name)
		purpose := e.purpose
		if purpose == "" {
			purpose = "referenced in SKILL.md"
		}
		m.Set("purpose", purpose)
		if e.def != "" {
			m.Set("default", e.def)
		}
		d.origins["environment."+name] = e.line
		env = append(env, m)
	}
	if len(env) > 0 {
		root.Set("environment", env)
	}

	if len(d.sources) > 0 {
		var list []any
		for _, src := range d.sources {
			m := yamltree.NewMap()
			m.Set("id", src.id)
			if src.url != "" {
				m.Set("url", src.url)
			} else {
				m.Set("path", src.path)
			}
			if src.useFor != "" {
				m.Set("use_for", src.useFor)
			}
			d.origins["sources."+src.id] = src.line
			list = append(list, m)
		}
		root.Set("sources", list)
	}
	return root
}

func mapsToList(ms []*yamltree.Map) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}

var (
	intentRe = regexp.MustCompile(`(?i)\b(?:use|invoke|trigger|activate|apply)(?: (?:this|it))?(?: skill)? (?:when(?:ever)?|for|if)\b:?\s*`)
	extRe    = regexp.MustCompile(`(?:^|[\s(\x60'"/,])\.([a-z][a-z0-9]{0,5})\b`)
	wordRe   = regexp.MustCompile(`[a-z][a-z0-9]*(?:-[a-z0-9]+)*`)
	notWords = regexp.MustCompile("\\$\\{?[a-z_][a-z0-9_]*\\}?|[a-z][a-z0-9+.-]*://\\S+|`[^`]*`")
)

// notExtensions are ".x" words that are not file types.
var notExtensions = map[string]bool{"net": true, "com": true, "org": true, "io": true, "ai": true, "dev": true}

var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the and or for with when use uses using used this that these those from into
		onto your you user users asks ask asked wants want need needs skill skills such like any all also other more most
		some should must will can could would about after before via including include includes based whether which what
		where while than then them they their there here its be is are was were been being have has had do does done make
		makes help helps helping provide provides providing work working works task tasks new guide guidance via etc
		within without across over under between each every both either neither not only just very well way ways
		covers covering cover handle handles handling need needed needs requests request requested mentions mention
		mentioned writing write writes create creates creating build builds building apply applies applied when-to
		following follow follows specific general various common given get gets set sets run runs running one two
		three first second also like e.g i.e having sort sorts kind kinds benefit benefits may might much many own same
		too able along already always among another anything around available back because become certain come comes
		else enough even ever find found give gives going good great however instead keep know last least less let likely
		look looking lot lots made mean means near never none nothing now often once others otherwise our out part
		per perhaps please possible put quite rather really right said say see seem seems several shall since still sure
		take takes taken thing things think though through thus together toward try upon want whatever whenever whole
		whose why yet able appropriate relevant related etc.`) {
		stopwords[w] = true
	}
}

// eachWord calls yield with each match of wordRe in s, in order, until
// yield returns false: a scanner for [a-z][a-z0-9]*(?:-[a-z0-9]+)*, which
// reads every description.
func eachWord(s string, yield func(string) bool) {
	alnum := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }
	for i := 0; i < len(s); {
		if s[i] < 'a' || s[i] > 'z' {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && alnum(s[j]) {
			j++
		}
		for j+1 < len(s) && s[j] == '-' && alnum(s[j+1]) {
			for j += 2; j < len(s) && alnum(s[j]); j++ {
			}
		}
		if !yield(s[i:j]) {
			return
		}
		i = j
	}
}

// extensions is extRe.FindAllStringSubmatch(desc, -1), run only when desc
// has a '.' where a match starts: at the start or after a blank or one of
// (`'"/, and before a lowercase letter.
func extensions(desc string) [][]string {
	for i := 0; i+1 < len(desc); i++ {
		if desc[i] == '.' && desc[i+1] >= 'a' && desc[i+1] <= 'z' && (i == 0 || strings.IndexByte("\t\n\f\r (`'\"/,", desc[i-1]) >= 0) {
			return extRe.FindAllStringSubmatch(desc, -1)
		}
	}
	return nil
}

// intentClauses returns the clauses after "Use when", "Use this skill
// for"...: each runs to the end of its sentence (a stop followed by a
// blank and a capital, or the end), so that "e.g." does not cut it.
func intentClauses(desc string) []string {
	var out []string
	for _, loc := range intentRe.FindAllStringIndex(desc, -1) {
		rest := desc[loc[1]:]
		end := len(rest)
		for i := 0; i+2 < len(rest); i++ {
			if (rest[i] == '.' || rest[i] == '!' || rest[i] == '?') && rest[i+1] == ' ' && rest[i+2] >= 'A' && rest[i+2] <= 'Z' {
				end = i
				break
			}
		}
		out = append(out, strings.TrimRight(rest[:end], ". "))
	}
	return out
}

// triggers derives the triggers section.
func (d *deriver) triggers(s *skill.Skill, fmLine int) *yamltree.Map {
	t := yamltree.NewMap()
	var keywords []any
	seen := map[string]bool{}
	addKW := func(k string) {
		k = strings.ToLower(spaces.Collapse(k))
		if k == "" || seen[k] || len(keywords) >= 15 {
			return
		}
		seen[k] = true
		keywords = append(keywords, k)
	}
	if fm := s.Frontmatter; fm != nil {
		for _, tag := range fm.Tags {
			addKW(tag)
		}
		for _, c := range fm.Capabilities {
			addKW(strings.ReplaceAll(c, "_", " "))
		}
		if fm.Category != "" {
			addKW(fm.Category)
		}
	}
	for _, part := range strings.Split(metaName(s.Name), "-") {
		if len(part) >= 3 && !stopwords[part] {
			addKW(part)
		}
	}
	desc := strings.ToLower(s.Description)
	// Variables, URLs and code are not words a user would say. (Each of
	// notWords' matches holds '$', "://" or '`'.)
	plainDesc := desc
	if strings.ContainsAny(desc, "$`") || strings.Contains(desc, "://") {
		plainDesc = notWords.ReplaceAllString(desc, " ")
	}
	n := 0
	eachWord(plainDesc, func(w string) bool {
		if len(w) >= 4 && !stopwords[w] {
			if !seen[w] {
				n++
			}
			addKW(w)
		}
		return n < 8 // then no later word is added
	})
	if len(keywords) > 0 {
		t.Set("keywords", keywords)
		d.origins["triggers.keywords"] = fmLine
	}

	var intents []any
	iseen := map[string]bool{}
	addIntent := func(s string) {
		s = clean(s)
		k := strings.ToLower(s)
		if words(s) < 2 || iseen[k] || len(intents) >= 10 {
			return
		}
		iseen[k] = true
		intents = append(intents, cut(s, 200))
	}
	clauses := intentClauses(s.Description)
	for _, m := range clauses {
		addIntent(m)
	}
	fromBody := 0
	for _, it := range d.intents {
		if len(intents) < 10 {
			addIntent(it.text)
			fromBody++
		}
	}
	if len(intents) > 0 {
		t.Set("intents", intents)
		line := fmLine
		if len(clauses) == 0 && len(d.intents) > 0 {
			line = d.intents[0].line
		}
		d.origins["triggers.intents"] = line
	}

	var patterns []any
	pseen := map[string]bool{}
	for _, m := range extensions(desc) {
		ext := m[1]
		if notExtensions[ext] || pseen[ext] || len(patterns) >= 10 {
			continue
		}
		pseen[ext] = true
		patterns = append(patterns, "*."+ext)
	}
	if len(patterns) > 0 {
		t.Set("file_patterns", patterns)
		d.origins["triggers.file_patterns"] = fmLine
	}
	return t
}
