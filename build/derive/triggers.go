package derive

import (
	"regexp"
	"strings"

	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/yamltree"
	"github.com/skilldex/skilldex/internal/spaces"
)

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
