package derive

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

// TestWordFunctionsMatchRegexps checks the functions that read command
// words against the regexps they replace.
func TestWordFunctionsMatchRegexps(t *testing.T) {
	pieces := []string{"a", "Z", "q", "0", "9", "_", "-", "--", "+", ".", "=", "<", ">", "[", "]", "...", "&", " ", "\n", "é",
		".py", ".js", ".mjs", ".cjs", ".ts", ".sh", ".rb", ".pl", "x.p", "<<", "2>", "&>"}
	checks := []struct {
		re *regexp.Regexp
		fn func(string) bool
	}{
		{regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_+-]*[A-Za-z0-9]$|^[A-Za-z]$`), isProgramName},
		{regexp.MustCompile(`^[a-z][a-z0-9-]*$`), isSubcommand},
		{regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`), isAssignment},
		{regexp.MustCompile(`\.(py|js|mjs|cjs|ts|sh|rb|pl)$`), func(s string) bool { return scriptExt(s) != "" }},
		{regexp.MustCompile(`^--?[A-Za-z0-9][A-Za-z0-9_-]*$`), isFlagName},
		{redirectRe, isRedirect},
	}
	scriptRe := regexp.MustCompile(`\.(py|js|mjs|cjs|ts|sh|rb|pl)$`)
	for _, w := range testutil.RandomWords(21, testutil.Rounds(100000), 5, pieces) {
		for _, c := range checks {
			if got, want := c.fn(w), c.re.MatchString(w); got != want {
				t.Fatalf("%q: function says %v, %s says %v", w, got, c.re, want)
			}
		}
		if got, want := strings.TrimSuffix(w, scriptExt(w)), scriptRe.ReplaceAllString(w, ""); got != want {
			t.Fatalf("%q: without its extension %q, regexp says %q", w, got, want)
		}
		if got, want := placeholder(w), placeholderRe.FindStringSubmatch(w); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("placeholder(%q) = %q, regexp %q", w, got, want)
		}
		if got, want := substitution(w), assignSubst.FindStringSubmatch(strings.TrimSpace(w)); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("substitution(%q) = %q, regexp %q", w, got, want)
		}
	}
}

// TestGuardedMatchRegexps checks that the texts guarding the environment
// regexps are in their every match: lines made of the regexps' own pieces
// find the same with and without the guard.
func TestGuardedMatchRegexps(t *testing.T) {
	pieces := []string{"os.environ", ".get", "[", "(", "\"", "'", "API_KEY", "x", " ", "os.getenv(", "process.env.", "process.env[",
		"os.Getenv(", "env::var(", "System.getenv(", "Environment.GetEnvironmentVariable(", "export ", "export", "=", "local ",
		"readonly ", "declare -x ", "for ", " in ", "read ", "-r ", "N", "\t", "$", "os.", "env", "process"}
	all := append(append([]guarded{exportRe}, codeEnvRes...), localRes...)
	for _, line := range testutil.RandomWords(31, testutil.Rounds(100000), 6, pieces) {
		for _, g := range all {
			if got, want := g.findAll(line), g.re.FindAllStringSubmatch(line, -1); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Fatalf("%s on %q: %q, without the guard %q", g.re, line, got, want)
			}
		}
	}
}

// TestDescriptionScannersMatchRegexps checks eachWord against wordRe and
// extensions against extRe.
func TestDescriptionScannersMatchRegexps(t *testing.T) {
	pieces := []string{"a", "z", "b9", "0", "-", "--", ".", ". ", "(", "`", "'", "\"", "/", ",", " ", "\t", "\n", "\v", "\f", "\r",
		"é", "A", "_", ".py", ".json", ".abcdefg", "x-y", "-z", "é.md"}
	for _, s := range testutil.RandomWords(41, testutil.Rounds(100000), 8, pieces) {
		var got []string
		eachWord(s, func(w string) bool { got = append(got, w); return true })
		if want := wordRe.FindAllString(s, -1); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("eachWord(%q) = %q, wordRe %q", s, got, want)
		}
		if got, want := extensions(s), extRe.FindAllStringSubmatch(s, -1); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("extensions(%q) = %q, extRe %q", s, got, want)
		}
	}
}

// TestMarkedOptionalMatchesToLower checks markedOptional against the
// strings.ToLower it avoids.
func TestMarkedOptionalMatchesToLower(t *testing.T) {
	pieces := []string{"optional", "OPTIONAL", "Optional", "(optional)", "(OPTİONAL)", "optİonal", "(", ")", "opt", "ional", " ", "x", "é", "\xff", "(Opt",
		"\u212a", "Ⱥ", "(o", "ptional)", "ο"}
	for _, s := range testutil.RandomWords(71, testutil.Rounds(100000), 5, pieces) {
		lt := strings.ToLower(s)
		if got, want := markedOptional(s), strings.HasPrefix(lt, "optional") || strings.Contains(lt, "(optional)"); got != want {
			t.Fatalf("markedOptional(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestCodeEnvGuardsHoldNV checks what envInCode and readsEnv assume of
// the guards of codeEnvRes: each holds "nv" or is "export".
func TestCodeEnvGuardsHoldNV(t *testing.T) {
	for _, g := range codeEnvRes {
		for _, n := range g.needs {
			if !strings.Contains(n, "nv") && n != "export" {
				t.Errorf("%s: guard %q holds neither \"nv\" nor is \"export\"", g.re, n)
			}
		}
	}
}
