package lint

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/skilldex/skilldex/build/siteinfo"
)

const (
	maxNameLength          = 64
	maxDescriptionLength   = 1024
	maxCompatibilityLength = 500
)

// nameProblem is one way a name breaks the Agent Skills name rules; ref is
// the message skills-ref prints for it, advice what to change.
type nameProblem struct {
	code, ref, advice string
}

// nameProblems checks an NFKC-normalised, trimmed name the way skills-ref
// does, in its order: length, lowercase, hyphen at an end, "--", characters.
func nameProblems(name string) []nameProblem {
	var out []nameProblem
	if n := utf8.RuneCountInString(name); n > maxNameLength {
		out = append(out, nameProblem{"name-too-long",
			fmt.Sprintf("Skill name '%s' exceeds %d character limit (%d chars)", name, maxNameLength, n),
			fmt.Sprintf("shorten it to at most %d characters", maxNameLength)})
	}
	// Each piece of advice ends with a name that breaks none of the rules,
	// not only the one it is about ("My_Skill": not "my_skill").
	valid := validName(name)
	useValid := ""
	if valid != "" {
		useValid = fmt.Sprintf(", as in '%s'", valid)
	}
	if lower := pyLower(name); lower != name {
		advice := "use lowercase letters" + useValid
		if lower == valid {
			advice = fmt.Sprintf("use '%s'", lower)
		}
		out = append(out, nameProblem{"name-pattern",
			fmt.Sprintf("Skill name '%s' must be lowercase", name), advice})
	}
	if strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-") {
		out = append(out, nameProblem{"name-pattern", "Skill name cannot start or end with a hyphen", "remove the hyphen at the start or end" + useValid})
	}
	if strings.Contains(name, "--") {
		out = append(out, nameProblem{"name-pattern", "Skill name cannot contain consecutive hyphens", "use single hyphens between words" + useValid})
	}
	for _, r := range name {
		if !isAlnum(r) && r != '-' {
			out = append(out, nameProblem{"name-pattern",
				fmt.Sprintf("Skill name '%s' contains invalid characters. Only letters, digits, and hyphens are allowed.", name),
				fmt.Sprintf("replace %q and other such characters with hyphens", r) + useValid})
			break
		}
	}
	return out
}

// validName returns the name that name most likely means under the rules
// (siteinfo.Hyphenate's, cut to maxNameLength characters); "" when
// nothing is left.
func validName(name string) string {
	v := siteinfo.Hyphenate(name)
	if utf8.RuneCountInString(v) > maxNameLength {
		v = string([]rune(v)[:maxNameLength])
	}
	return strings.TrimSuffix(v, "-")
}

// isAlnum is Python's str.isalnum for one character: a letter or a number.
func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }

// pyLower lowercases as Python's str.lower does for the cases that matter
// here (full mappings of special cases are not needed to tell whether a
// name is already lowercase).
func pyLower(s string) string { return strings.ToLower(s) }

// nfkc normalises as unicodedata.normalize("NFKC", s).
func nfkc(s string) string { return norm.NFKC.String(s) }
