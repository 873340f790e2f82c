package derive

import (
	"regexp"
	"strings"

	"github.com/yuin/goldmark/ast"

	"github.com/skilldex/skilldex/build/yamltree"
)

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
