package derive

import (
	"bytes"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/skilldex/skilldex/internal/spaces"
)

// readsEnv reports whether the source of a code block that is not shell
// holds what envInCode looks for in such a block: "nv" or "export", which
// every codeEnvRes guard holds, or "${". Most code blocks hold none, and
// are not made into strings at all. (A line goldmark pads has blanks more,
// which hold none of these.)
func readsEnv(src []byte) bool {
	return bytes.Contains(src, []byte("nv")) || bytes.Contains(src, []byte("export")) || bytes.Contains(src, []byte("${"))
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
