// Package derive derives a UASP document from a SKILL.md that has none
// (uasp.md 7.1), with fixed rules and no model: the same SKILL.md always
// gives the same document. Package uasp validates, hashes and queries the
// documents it makes.
package derive

import (
	"bytes"
	"errors"
	"sort"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/linkify"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/build/yamltree"
	"github.com/skilldex/skilldex/internal/spaces"
)

// A Converter derives a UASP document from a skill that has none. The
// default, Deterministic, reads the SKILL.md and its frontmatter with fixed
// rules; a converter using an LLM (section 7.1.1) can be plugged in here
// later, off by default.
type Converter interface {
	// Convert returns the derived document (sections in any order; meta
	// included) and, for each derived item, the SKILL.md line it came from,
	// keyed by query path.
	Convert(s *skill.Skill) (root *yamltree.Map, origins map[string]int, err error)
}

// DefaultConverter is the converter ForSkill uses.
var DefaultConverter Converter = Deterministic{}

// ForSkill returns the skill's UASP document and what is wrong with it:
// the author's document when there is one (uasp.Given), else one derived
// from SKILL.md with DefaultConverter. The document is nil only when the
// skill has no usable name.
func ForSkill(s *skill.Skill) (*uasp.Document, []diag.Diagnostic) {
	if s == nil || s.Name == "" {
		return nil, nil
	}
	if d, ds := uasp.Given(s); d != nil {
		return d, ds
	}
	return derived(s, DefaultConverter)
}

func derived(s *skill.Skill, conv Converter) (*uasp.Document, []diag.Diagnostic) {
	file := s.File()
	root, origins, err := conv.Convert(s)
	if err != nil || root == nil {
		msg := "no UASP document could be derived"
		if err != nil {
			msg += ": " + err.Error()
		}
		return nil, []diag.Diagnostic{diag.At(file, diag.Pos{Line: 1, Column: 1}, diag.Info, uasp.CodeSchema,
			"%s; add a %s.uasp.yaml beside SKILL.md", msg, s.Name)}
	}
	// Deterministic builds a new tree for every call; another converter
	// may keep and reuse what it returns.
	if _, fresh := conv.(Deterministic); !fresh {
		root = yamltree.Clone(root).(*yamltree.Map)
	}
	return uasp.Derived(s.Name, file, root, origins)
}

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
