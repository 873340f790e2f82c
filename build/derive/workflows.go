package derive

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/yuin/goldmark/ast"

	"github.com/skilldex/skilldex/build/yamltree"
)

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
