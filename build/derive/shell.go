package derive

import (
	"path"
	"regexp"
	"strings"

	"github.com/skilldex/skilldex/internal/spaces"
)

// codeLine is one line of a code block with its SKILL.md line.
type codeLine struct {
	text string
	line int
}

// shellCall is one command found in a shell code block.
type shellCall struct {
	key     string   // command path: git.commit
	program string   // git
	syntax  string   // the command as written
	tokens  []string // its words, quotes removed
	comment string   // the comment just above it, or after it on its line
	line    int
}

// shellLangs are the fence languages read as shell commands.
var shellLangs = map[string]bool{"bash": true, "sh": true, "shell": true, "console": true, "zsh": true,
	"shell-session": true, "shellsession": true, "terminal": true, "fish": true}

// knownPrograms make an unlabelled code block count as commands when every
// line starts with one of them (or with a "$ " prompt).
var knownPrograms = map[string]bool{"git": true, "npm": true, "npx": true, "pnpm": true, "yarn": true, "pip": true,
	"pip3": true, "uv": true, "uvx": true, "python": true, "python3": true, "node": true, "go": true, "cargo": true,
	"make": true, "docker": true, "kubectl": true, "helm": true, "terraform": true, "curl": true, "wget": true,
	"brew": true, "apt": true, "apt-get": true, "gh": true, "az": true, "aws": true, "gcloud": true, "dotnet": true,
	"mvn": true, "gradle": true, "bun": true, "deno": true, "conda": true, "mkdir": true, "cd": true, "ls": true,
	"rm": true, "cp": true, "mv": true, "chmod": true, "ssh": true, "export": true, "pytest": true, "ruff": true}

// notCommands are shell keywords and builtins: they structure a script but
// are not the tools a skill teaches.
var notCommands = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "fi": true, "for": true,
	"while": true, "until": true, "do": true, "done": true, "case": true, "esac": true, "function": true, "{": true,
	"}": true, "[": true, "[[": true, "(": true, ")": true, "cd": true, "echo": true, "export": true, "source": true,
	".": true, "set": true, "unset": true, "exit": true, "return": true, "local": true, "read": true, "printf": true,
	"true": true, "false": true, "shift": true, "trap": true, "wait": true, "eval": true, "alias": true, "declare": true,
	"readonly": true, "test": true, "break": true, "continue": true, "pushd": true, "popd": true, "exec": true}

// wrappers run the command that follows them.
var wrappers = map[string]bool{"sudo": true, "time": true, "env": true, "nohup": true, "command": true, "xargs": false}

// interpreters run a script named next; the script names the command.
var interpreters = map[string]bool{"python": true, "python3": true, "node": true, "bash": true, "sh": true, "zsh": true,
	"ruby": true, "perl": true, "deno": true, "bun": true, "tsx": true, "ts-node": true, "uv": false}

// twoLevel lists the tools whose subcommands have subcommands
// (gh pr create, docker compose up, npm run build), by first level; "*"
// allows any.
var twoLevel = map[string]map[string]bool{
	"gh": {"*": true}, "az": {"*": true}, "aws": {"*": true}, "gcloud": {"*": true},
	"docker": {"compose": true, "container": true, "image": true, "network": true, "volume": true, "buildx": true},
	"git":    {"remote": true, "stash": true, "worktree": true, "submodule": true},
	"npm":    {"run": true}, "pnpm": {"run": true}, "yarn": {"run": true}, "bun": {"run": true},
	"go": {"mod": true, "work": true}, "uv": {"pip": true, "tool": true}, "conda": {"env": true}, "kubectl": {"config": true, "rollout": true}, "helm": {"repo": true},
}

var heredocRe = regexp.MustCompile(`<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?`)

// The words of a command are read by the functions below, which match
// what the regexps in their comments match (a test compares them): they
// run on every word of every command line.

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// isProgramName: ^[A-Za-z][A-Za-z0-9_+-]*[A-Za-z0-9]$|^[A-Za-z]$
func isProgramName(s string) bool {
	if s == "" || !isLetter(s[0]) {
		return false
	}
	if last := s[len(s)-1]; len(s) > 1 && !isLetter(last) && !isDigit(last) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !isLetter(c) && !isDigit(c) && c != '_' && c != '+' && c != '-' {
			return false
		}
	}
	return true
}

// isSubcommand: ^[a-z][a-z0-9-]*$
func isSubcommand(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z') && !isDigit(c) && c != '-' {
			return false
		}
	}
	return true
}

// isAssignment: ^[A-Za-z_][A-Za-z0-9_]*=
func isAssignment(s string) bool {
	if s == "" || !isLetter(s[0]) && s[0] != '_' {
		return false
	}
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '=':
			return true
		case !isLetter(c) && !isDigit(c) && c != '_':
			return false
		}
	}
	return false
}

// scriptExts are the extensions that make a word a script.
var scriptExts = []string{".py", ".js", ".mjs", ".cjs", ".ts", ".sh", ".rb", ".pl"}

// scriptExt returns the script extension s ends with, as \.(py|js|mjs|cjs|ts|sh|rb|pl)$
// finds it, or "".
func scriptExt(s string) string {
	for _, e := range scriptExts {
		if strings.HasSuffix(s, e) {
			return e
		}
	}
	return ""
}

// looksLikeCommands reports whether an unlabelled code block holds shell
// commands: every non-blank, non-comment line starts with a "$ " prompt or
// a well-known program.
func looksLikeCommands(lines []codeLine) bool {
	n := 0
	for _, l := range lines {
		t := strings.TrimSpace(l.text)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		n++
		if strings.HasPrefix(t, "$ ") {
			continue
		}
		first, _, _ := strings.Cut(t, " ")
		if !knownPrograms[first] {
			return false
		}
	}
	return n > 0
}

// shellCalls reads the commands of a shell code block. In console mode
// (a console fence, or any line with a "$ " prompt) only prompted lines are
// commands and the rest is output.
func shellCalls(lines []codeLine, console bool) []shellCall {
	for _, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l.text), "$ ") {
			console = true
		}
	}
	var out []shellCall
	comment := ""
	heredoc := ""
	for i := 0; i < len(lines); i++ {
		raw := lines[i].text
		lineNo := lines[i].line
		t := strings.TrimSpace(raw)
		if heredoc != "" {
			if t == heredoc {
				heredoc = ""
			}
			continue
		}
		if console {
			rest, ok := strings.CutPrefix(t, "$ ")
			if !ok {
				comment = ""
				continue
			}
			t = strings.TrimSpace(rest)
		}
		if t == "" {
			comment = ""
			continue
		}
		if strings.HasPrefix(t, "#") {
			// Consecutive comment lines are one comment.
			c := strings.TrimSpace(strings.TrimLeft(t, "#"))
			if comment != "" && c != "" {
				comment += " " + c
			} else if c != "" {
				comment = c
			}
			continue
		}
		// Continuation lines join the command.
		for strings.HasSuffix(t, "\\") && i+1 < len(lines) {
			i++
			t = strings.TrimSuffix(t, "\\") + " " + strings.TrimSpace(lines[i].text)
		}
		if strings.Contains(t, "<<") { // as every heredocRe match does
			if m := heredocRe.FindStringSubmatch(t); m != nil {
				heredoc = m[1]
			}
		}
		code, trailing := splitComment(t)
		note := comment
		if trailing != "" {
			note = trailing
		}
		for _, seg := range splitSegments(code) {
			if c, ok := parseCall(seg); ok {
				c.comment, c.line = note, lineNo
				out = append(out, c)
			}
		}
		comment = ""
	}
	return out
}

// splitComment cuts a trailing " # comment" outside quotes.
func splitComment(s string) (code, comment string) {
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else if c == '\\' && q == '"' {
				i++
			}
		case c == '\'' || c == '"':
			q = c
		case c == '\\':
			i++
		case c == '#' && i > 0 && (s[i-1] == ' ' || s[i-1] == '\t'):
			return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
		}
	}
	return s, ""
}

// splitSegments splits a line at &&, ||, ; and |, outside quotes and
// $(...); of a pipeline only the first command is kept, since the others
// (grep, head) filter its output.
func splitSegments(s string) []string {
	var out []string
	var q byte
	depth := 0
	start := 0
	skipping := false // inside the later commands of a pipeline
	flush := func(end int, next int, pipe bool) {
		if !skipping {
			if seg := strings.TrimSpace(s[start:end]); seg != "" {
				out = append(out, seg)
			}
		}
		skipping = pipe
		start = next
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			} else if c == '\\' && q == '"' {
				i++
			}
		case c == '\'' || c == '"' || c == '`':
			q = c
		case c == '\\':
			i++
		case c == '$' && i+1 < len(s) && s[i+1] == '(':
			depth++
			i++
		case c == '(' && depth > 0:
			depth++
		case c == ')' && depth > 0:
			depth--
		case depth > 0:
		case c == '&' && i+1 < len(s) && s[i+1] == '&', c == '|' && i+1 < len(s) && s[i+1] == '|':
			flush(i, i+2, false)
			i++
		case c == ';':
			flush(i, i+1, false)
		case c == '|':
			flush(i, i+1, true)
		case c == '&':
			flush(i, i+1, false) // a background job
		}
	}
	flush(len(s), len(s), false)
	return out
}

// shellFields splits a command into words, removing quotes.
func shellFields(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	var q byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
				continue
			}
			if c == '\\' && q == '"' && i+1 < len(s) {
				i++
				c = s[i]
			}
			cur.WriteByte(c)
		case c == '\'' || c == '"':
			q, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		case c == '\\' && i+1 < len(s):
			i++
			cur.WriteByte(s[i])
			in = true
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

// assignSubst is NAME=$(command): the command substituted is what runs.
var assignSubst = regexp.MustCompile(`^(?:local\s+|export\s+)?[A-Za-z_][A-Za-z0-9_]*="?\$\((.*)\)"?$`)

// substitution is assignSubst.FindStringSubmatch(strings.TrimSpace(seg)),
// run only on commands with "$(".
func substitution(seg string) []string {
	if !strings.Contains(seg, "$(") {
		return nil
	}
	return assignSubst.FindStringSubmatch(strings.TrimSpace(seg))
}

// parseCall finds the program and subcommands of one simple command.
func parseCall(seg string) (shellCall, bool) {
	if m := substitution(seg); m != nil {
		for _, inner := range splitSegments(m[1]) {
			if c, ok := parseCall(inner); ok {
				return c, true
			}
		}
		return shellCall{}, false
	}
	words := shellFields(seg)
	i := 0
	for i < len(words) && (isAssignment(words[i]) || wrappers[words[i]] || words[i] == "!") {
		i++
	}
	if i >= len(words) {
		return shellCall{}, false
	}
	prog := words[i]
	if notCommands[prog] || strings.HasPrefix(prog, "-") || strings.ContainsAny(prog, "<>$`=(){}[]*?") {
		return shellCall{}, false
	}
	rest := words[i+1:]
	if interpreters[prog] && len(rest) > 0 && !strings.HasPrefix(rest[0], "-") && (strings.Contains(rest[0], "/") || scriptExt(rest[0]) != "") {
		prog, rest = rest[0], rest[1:]
	}
	prog = path.Base(prog)
	prog = strings.TrimSuffix(prog, scriptExt(prog))
	prog = strings.ReplaceAll(prog, ".", "-")
	if !isProgramName(prog) {
		return shellCall{}, false
	}
	key := prog
	if len(rest) > 0 && isSubcommand(rest[0]) {
		key += "." + rest[0]
		if lv := twoLevel[prog]; lv != nil && (lv["*"] || lv[rest[0]]) && len(rest) > 1 && isSubcommand(rest[1]) {
			key += "." + rest[1]
		}
	}
	return shellCall{key: key, program: prog, syntax: spaces.Collapse(seg), tokens: words[i:]}, true
}

// isSetup reports a command that installs what a skill needs rather than
// what it teaches (pip install, npm install): these do not make a skill a
// CLI skill.
func isSetup(key string) bool {
	parts := strings.Split(key, ".")
	switch parts[0] {
	case "pip", "pip3", "npm", "pnpm", "yarn", "uv", "conda", "brew", "apt", "apt-get", "cargo", "go", "gem", "bun", "mamba", "poetry", "dotnet":
	default:
		return false
	}
	for _, p := range parts[1:] {
		switch p {
		case "install", "add", "i", "sync", "init", "create", "get":
			return true
		}
	}
	return false
}
