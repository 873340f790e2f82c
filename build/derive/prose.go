package derive

import (
	"strings"

	"github.com/yuin/goldmark/ast"
	extast "github.com/yuin/goldmark/extension/ast"
)

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
