package derive

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skilldex/skilldex/internal/spaces"
)

// The sentence rules of uasp.md 7.1.2 and 7.1.3 (Rules 2 and 3), applied to
// one sentence of prose at a time. They read the ASCII-lowercased mask (code
// spans hidden) and cut the result out of the text at the same offsets.

var (
	// leadLabel is a label before the rule itself: "Important: ", "Note - ".
	leadLabel = regexp.MustCompile(`^(?:(?:important|note|warning|critical|caution|tip|rule|remember|reminder|key point|required|mandatory|nb|prereq|prerequisites?)\s*[:\-–—]\s*|[-–—•>]+\s*)+`)

	// preferRes match "prefer X over Y", "use X instead of Y", "X is
	// preferred over Y", each with an optional leading "when/if/for Z," or
	// trailing "when/if/for Z".
	preferRes = []*regexp.Regexp{
		regexp.MustCompile(`^(?:(?:if|when|for) (?P<when>[^,]{3,120}), )?(?:(?:you|we) (?:should )?|always )?prefer (?P<use>.+?) (?:over|to|rather than|instead of) (?P<over>.+?)(?: (?:when|if|for) (?P<when2>.+))?$`),
		regexp.MustCompile(`^(?:(?:if|when|for) (?P<when>[^,]{3,120}), )?(?:(?:you|we) (?:should |must )?|always )?use (?P<use>.+?) (?:instead of|rather than) (?P<over>.+?)(?: (?:when|if|for) (?P<when2>.+))?$`),
		regexp.MustCompile(`^(?:(?:if|when|for) (?P<when>[^,]{3,120}), )?(?P<use>[^,]+?) (?:is|are) (?:preferred|recommended) (?:over|to|instead of) (?P<over>.+?)(?: (?:when|if|for) (?P<when2>.+))?$`),
	}

	// conditionals start a decision: "If X, Y", "When X: Y", "If X then
	// Y".
	conditionals = []string{"if ", "when ", "whenever ", "once ", "after ", "before "}
	// forUseCase is "For X, use Y" (Rule 3's third pattern).
	forUseCase = regexp.MustCompile(`^for (.{3,120}?), ((?:use|prefer|choose|pick|run|call|try|start with|go with|consider) .+)$`)

	// neverWords and alwaysWords are Rule 2's keywords, in the order an
	// alternation would try them at one position.
	neverWords  = []string{"never", "do not", "don't", "don’t", "must not", "mustn't", "must never", "should not", "shouldn't", "should never", "avoid", "prohibited", "forbidden"}
	alwaysWords = []string{"always", "must", "ensure", "mandatory", "is required", "are required", "required to"}

	// notRuleWords are uses of the keywords that state a fact or a
	// permission, not a rule.
	notRuleWords = []string{"do not need to", "do not have to", "don't need to", "don't have to", "don’t need to", "don’t have to",
		"not always", "almost always", "nearly always", "never been", "never had", "never was", "never were", "to avoid",
		"help avoid", "helps avoid", "help you avoid", "helps you avoid", "must have been"}

	// agentSubject is a subject that makes the rule the agent's: "You
	// should never", "We must", "Claude must always".
	agentSubject = regexp.MustCompile(`^(?:(?:and|but|so|also|then|please|instead|otherwise|thus|therefore),?\s*)*(?:(?:you|we|i|claude|the agent|agents|the assistant|the model|the ai)(?:\s+(?:should|must|will|need to|have to|are to|can))?)?\s*$`)

	// adverbs are keywords that are rules only when the agent is told them:
	// "Users should never see this" is not a constraint.
	strictKeyword = map[string]bool{"never": true, "always": true, "avoid": true, "ensure": true, "do not": true,
		"don't": true, "don’t": true, "should not": true, "shouldn't": true, "should never": true}
)

// constraintKind classifies a sentence.
type ruleKind int

const (
	ruleNone ruleKind = iota
	ruleNever
	ruleAlways
)

// preference is a parsed "prefer X over Y".
type preference struct{ use, over, when string }

// decision is a parsed conditional rule.
type decision struct{ when, then string }

// labelStarts are what leadLabel's match starts with, one of which lm must
// start with for the regexp to be worth running: most sentences start with
// none.
var labelStarts = []string{"important", "note", "warning", "critical", "caution", "tip", "rule", "remember",
	"reminder", "key point", "required", "mandatory", "nb", "prereq", "-", "–", "—", "•", ">"}

// mayHaveLabel reports whether lm starts as a leadLabel match must.
func mayHaveLabel(lm string) bool {
	for _, p := range labelStarts {
		if strings.HasPrefix(lm, p) {
			return true
		}
	}
	return false
}

// trimSentence removes a leading label and the final stop. lm is mask
// lowercased (lowerASCII).
func trimSentence(text, mask, lm string) clause {
	if mayHaveLabel(lm) {
		if loc := leadLabel.FindStringIndex(lm); loc != nil {
			text, mask, lm = text[loc[1]:], mask[loc[1]:], lm[loc[1]:]
		}
	}
	for len(mask) > 0 {
		c := mask[len(mask)-1]
		if c == '.' || c == ';' || c == ':' || c == '!' || c == ',' || c == ' ' {
			text, mask, lm = text[:len(text)-1], mask[:len(mask)-1], lm[:len(lm)-1]
			continue
		}
		break
	}
	return clause{text: text, mask: mask, lm: lm}
}

// clause is a sentence ready for the rules: its text, its mask (code spans
// hidden) and the mask lowercased, all trimmed alike. Each sentence is
// prepared once and read by every rule.
type clause struct{ text, mask, lm string }

// parsePreference applies Rule 2's prefer patterns.
func parsePreference(c clause) (preference, bool) {
	text, lm := c.text, c.lm
	for i, re := range preferRes {
		if !mayPrefer(i, lm) {
			continue // most sentences: the regexps cost far more
		}
		m := re.FindStringSubmatchIndex(lm)
		if m == nil {
			continue
		}
		get := func(name string) string {
			i := re.SubexpIndex(name)
			if m[2*i] < 0 {
				return ""
			}
			return clean(text[m[2*i]:m[2*i+1]])
		}
		p := preference{use: get("use"), over: get("over"), when: get("when")}
		if p.when == "" {
			p.when = get("when2")
		}
		if p.use == "" || p.over == "" || words(p.use) > 12 || words(p.over) > 12 {
			continue
		}
		return p, true
	}
	return preference{}, false
}

// preferStarts are what a match of preferRes[0] or [1] starts with: the
// optional condition or subject, else the verb (the last item).
var preferStarts = [2][]string{
	{"if ", "when ", "for ", "you ", "we ", "always ", "prefer "},
	{"if ", "when ", "for ", "you ", "we ", "always ", "use "},
}

// mayPrefer reports whether lm holds what a match of preferRes[i] must:
// its start and its literal words, or pieces of them that strings.Index
// finds faster (it looks for their first byte: blanks are everywhere, and
// r more common than m).
func mayPrefer(i int, lm string) bool {
	switch i {
	case 0:
		return hasAnyPrefix(lm, preferStarts[0]) && strings.Contains(lm, "prefer ")
	case 1:
		return hasAnyPrefix(lm, preferStarts[1]) && (strings.Contains(lm, "instead of ") || strings.Contains(lm, "rather than "))
	}
	return strings.Contains(lm, "preferred ") || strings.Contains(lm, "mmended ")
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// parseDecision applies Rule 3: "If X, Y", "When X: Y", "If X then Y",
// "For X, use Y".
func parseDecision(c clause) (decision, bool) {
	text, lm := c.text, c.lm
	// forUseCase starts with "for ", which few sentences do.
	if strings.HasPrefix(lm, "for ") {
		if m := forUseCase.FindStringSubmatchIndex(lm); m != nil {
			d := decision{when: clean(text[m[2]:m[3]]), then: clean(text[m[4]:m[5]])}
			return d, d.when != "" && d.then != ""
		}
	}
	start := conditionalPrefix(lm)
	if start < 0 {
		return decision{}, false
	}
	// The condition ends at the first ", ", ": " or " then " outside
	// parentheses.
	depth := 0
	for i := start; i < len(lm); i++ {
		switch lm[i] {
		case '(':
			depth++
		case ')':
			if depth > 0 {
				depth--
			}
		case ',', ':':
			if depth == 0 && i+1 < len(lm) && lm[i+1] == ' ' {
				return makeDecision(text[start:i], text[i+2:])
			}
		case ' ':
			if depth == 0 && strings.HasPrefix(lm[i:], " then ") {
				return makeDecision(text[start:i], text[i+6:])
			}
		}
	}
	return decision{}, false
}

// conditionalPrefix returns the length of the conditional lm starts
// with, as ^(?:if|when|whenever|once|after|before)  would match it; -1 when
// there is none.
func conditionalPrefix(lm string) int {
	for _, w := range conditionals {
		if strings.HasPrefix(lm, w) {
			return len(w)
		}
	}
	return -1
}

func makeDecision(when, then string) (decision, bool) {
	d := decision{when: clean(when), then: clean(strings.TrimPrefix(strings.TrimSpace(then), "then "))}
	if words(d.when) < 2 || words(d.then) < 2 || words(d.when) > 40 {
		return decision{}, false
	}
	return d, true
}

// keywords is a list of words findWord looks for, grouped by their first
// byte (in list order within a group).
type keywords struct {
	list    []string
	byFirst [256][]string
}

func newKeywords(list []string) *keywords {
	k := &keywords{list: list}
	for _, w := range list {
		if len(w) < 2 {
			panic("uasp: keyword " + strconv.Quote(w) + " is shorter than two bytes")
		}
		k.byFirst[w[0]] = append(k.byFirst[w[0]], w)
	}
	return k
}

// at returns the end of the first of the words that occurs at i of s and
// ends at a word boundary; -1 when none does. Only the words starting with
// s[i] can, and they keep their order.
func (k *keywords) at(s string, i int) int {
	for _, w := range k.byFirst[s[i]] {
		// The second byte rejects most candidates without a comparison
		// call (every keyword has two bytes or more).
		end := i + len(w)
		if end <= len(s) && s[i+1] == w[1] && s[i:end] == w && (end == len(s) || !wordBytes[s[end]]) {
			return end
		}
	}
	return -1
}

var neverKeys, alwaysKeys, notRuleKeys = newKeywords(neverWords), newKeywords(alwaysWords), newKeywords(notRuleWords)

// findWord returns the leftmost occurrence of any of the keywords in s that
// starts and ends at a word boundary (as regexp's \b: ASCII letters, digits
// and '_' are word characters), preferring the earlier word at one
// position, as an alternation does; nil when there is none.
func findWord(s string, k *keywords) []int {
	prev := false // s[i-1] is a word byte
	for i := 0; i < len(s); i++ {
		if !prev {
			if end := k.at(s, i); end >= 0 {
				return []int{i, end}
			}
		}
		prev = wordBytes[s[i]]
	}
	return nil
}

// ruleKeywords returns what parseConstraint asks of lm, as findWord would
// give it: the leftmost never keyword, the leftmost always keyword, and
// whether a not-a-rule phrase occurs (then the others do not matter and
// are nil). It reads lm once, as it runs on every sentence of every skill.
func ruleKeywords(lm string) (never, always []int, notRule bool) {
	prev := false
	for i := 0; i+1 < len(lm); i++ {
		if !prev && rulePairs.has(lm[i], lm[i+1]) {
			if notRuleKeys.at(lm, i) >= 0 {
				return nil, nil, true
			}
			if never == nil {
				if end := neverKeys.at(lm, i); end >= 0 {
					never = []int{i, end}
				}
			}
			if always == nil {
				if end := alwaysKeys.at(lm, i); end >= 0 {
					always = []int{i, end}
				}
			}
		}
		prev = wordBytes[lm[i]]
	}
	return never, always, false
}

// rulePairs holds the first two bytes of every keyword of the three
// lists: most words start with none of them, and are passed over after one
// lookup.
var rulePairs = func() (p bytePairs) {
	for _, k := range []*keywords{neverKeys, alwaysKeys, notRuleKeys} {
		for _, w := range k.list {
			p.add(w[0], w[1])
		}
	}
	return p
}()

// bytePairs is a set of two-byte sequences.
type bytePairs [256 * 256 / 64]uint64

func (p *bytePairs) add(a, b byte) { i := int(a)<<8 | int(b); p[i>>6] |= 1 << (i & 63) }

func (p *bytePairs) has(a, b byte) bool { i := int(a)<<8 | int(b); return p[i>>6]&(1<<(i&63)) != 0 }

// wordBytes are the bytes isWordByte reports, as a table.
var wordBytes = func() (t [256]bool) {
	for c := range t {
		t[c] = isWordByte(byte(c))
	}
	return t
}()

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// parseConstraint applies Rule 2's never and always patterns and returns
// the action the rule is about.
func parseConstraint(c clause) (ruleKind, string) {
	text, lm := c.text, c.lm
	kind := ruleNever
	loc, always, notRule := ruleKeywords(lm)
	if loc == nil {
		kind = ruleAlways
		loc = always
	}
	if loc == nil || notRule {
		return ruleNone, ""
	}
	kw := lm[loc[0]:loc[1]]
	before := strings.Trim(lm[:loc[0]], " *_,")
	after := clean(text[loc[1]:])
	switch {
	case before == "" || agentSubject.MatchString(before): // it matches "" too
		// Imperative ("Never commit secrets") or addressed to the agent
		// ("You must run the tests"): the rule is the action after the
		// keyword. "Ensure" and "avoid" keep their verb where the action
		// needs it.
		action := after
		switch kw {
		case "ensure":
			action = clean(text[loc[0]:])
		case "is required", "are required", "required to":
			action = clean(text)
		}
		action = strings.TrimPrefix(action, "to ")
		action = firstClause(action)
		if words(action) < 2 && kw != "avoid" {
			return ruleNone, ""
		}
		if action == "" {
			return ruleNone, ""
		}
		return kind, capitalize(action)
	case strictKeyword[kw]:
		// "Users should never see this error" describes, it does not rule.
		return ruleNone, ""
	default:
		// "The name must be lowercase": a rule about something else; the
		// subject belongs to it. A label before it is not part of it.
		text = afterLabel(text, c.mask, loc[0])
		if words(text) < 3 {
			return ruleNone, ""
		}
		return kind, capitalize(firstClause(clean(text)))
	}
}

// clauseBreak is a dash or colon followed by a new capitalised clause:
// "Mutate directly - Always use immutable updates", "Type assertions: Use
// type guards instead". The rule is what comes before it.
var clauseBreak = regexp.MustCompile(` (?:-|–|—|:) +[A-Z]`)

// afterLabel drops what ends in a clause break before the keyword at kw:
// in "Requirements: Your project must have an index.html" the rule is
// "Your project must have an index.html", not "Requirements". It reads
// the mask, so that a colon in a code span is no break.
func afterLabel(text, mask string, kw int) string {
	head := mask[:kw]
	start := 0
	for _, m := range clauseBreak.FindAllStringIndex(head, -1) {
		start = max(start, m[1]-1)
	}
	for i := strings.Index(head, ": "); i >= 0; {
		if j := i + 2; j < len(head) && head[j] >= 'A' && head[j] <= 'Z' {
			start = max(start, j)
		}
		k := strings.Index(head[i+2:], ": ")
		if k < 0 {
			break
		}
		i += 2 + k
	}
	return text[start:]
}

func firstClause(s string) string {
	for _, loc := range clauseBreak.FindAllStringIndex(s, -1) {
		if loc[0] > 0 && !inCode(s, loc[0]) {
			return strings.TrimSpace(s[:loc[0]])
		}
	}
	for i := 0; ; i++ {
		k := strings.Index(s[i:], ": ")
		if k < 0 {
			return s
		}
		i += k
		if i > 0 && i+2 < len(s) && s[i+2] >= 'A' && s[i+2] <= 'Z' && !inCode(s, i) {
			return s[:i]
		}
	}
}

// inCode reports whether offset i of s is inside a code span: after an odd
// number of backticks.
func inCode(s string, i int) bool {
	return strings.Count(s[:i], "`")%2 == 1
}

// clean trims blanks, emphasis leftovers and stops from a piece of text.
func clean(s string) string {
	s = spaces.Collapse(s)
	s = strings.Trim(s, " *_,;:")
	s = strings.TrimRight(s, ".!")
	return strings.TrimSpace(s)
}

// words counts the blank-separated words of s, as len(strings.Fields(s))
// would, without allocating: it runs on every sentence.
func words(s string) int {
	n, in := 0, false
	for _, r := range s {
		if unicode.IsSpace(r) {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

// hasWords reports whether words(s) >= n, reading s only as far as the
// n-th word.
func hasWords(s string, n int) bool {
	in := false
	for _, r := range s {
		if unicode.IsSpace(r) {
			in = false
		} else if !in {
			in = true
			if n--; n <= 0 {
				return true
			}
		}
	}
	return n <= 0
}

func capitalize(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if r >= 'a' && r <= 'z' {
		return string(r-'a'+'A') + s[size:]
	}
	return s
}

// cut shortens s to at most n runes, at a word boundary when there is one
// in the last quarter, with "…" marking the cut.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n < 2 || !utf8.ValidString(s) {
		return cutRunes(s, n)
	}
	// As cutRunes, on byte offsets: in valid UTF-8 a blank byte is a blank
	// rune, and a prefix of runes is a prefix of bytes.
	end := runeOffset(s, n-1)
	if lo := n*3/4 + 1; lo <= n-1 {
		from := runeOffset(s, lo)
		if i := strings.LastIndexByte(s[from:end+1], ' '); i >= 0 {
			end = from + i
		}
	}
	return strings.TrimRight(s[:end], " ,;:") + "…"
}

// runeOffset returns the byte offset of rune k of s, which has more.
func runeOffset(s string, k int) int {
	for off := range s {
		if k == 0 {
			return off
		}
		k--
	}
	return len(s)
}

// cutRunes is cut for any text: invalid UTF-8 comes out as U+FFFD.
func cutRunes(s string, n int) string {
	runes := []rune(s)
	end := n - 1
	for i := end; i > n*3/4; i-- {
		if runes[i] == ' ' {
			end = i
			break
		}
	}
	return strings.TrimRight(string(runes[:end]), " ,;:") + "…"
}

// truncateWords shortens s to at most n runes at a word boundary, without
// a marker (meta.description, whose limit the schema sets).
func truncateWords(s string, n int) string {
	s = spaces.Collapse(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	end := n
	for i := n; i > 0; i-- {
		if runes[i] == ' ' {
			end = i
			break
		}
	}
	return strings.TrimRight(string(runes[:end]), " ,;:")
}
