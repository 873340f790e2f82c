package index

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The query syntax, the same in `skilldex search`, the browser
// (static/search-core.js parseQuery) and every reader of the JSON index:
//
//	words          rank skills; the last is a prefix while being typed
//	"a phrase"     its words, each required, matched as typed (no prefix,
//	               spelling neighbour or related term); the indexes keep
//	               no word positions, so the words may stand apart
//	+word, +"a b"  required
//	-word, -"a b"  excluded: no skill having the word (all the phrase's
//	               words) is shown
//	type:cli       a filter on a facet value, case-insensitive; a value
//	tag:x          with spaces is quoted (source:"my skills"); -tag:x
//	source:x       excludes; several filters must all hold
//	plugin:x
//
// TestQueryCases and the JavaScript's test read the same cases
// (testdata/queries.json).

// filterFacets maps a filter's name in a query to the facet it filters.
var filterFacets = map[string]string{
	"plugin":     "plugin",
	"type":       "type",
	"tag":        "tags",
	"category":   "category",
	"capability": "capabilities",
	"source":     "source",
	"license":    "license",
	"status":     "status",
	"format":     "format",
}

// nearFilter returns the filter a name that is no filter's ("tags",
// "Types", "categories") most likely means, or "".
func nearFilter(name string) string {
	// ASCII letters only: Go and JavaScript lower other letters
	// differently (İ).
	if name == "" || strings.ContainsFunc(name, func(r rune) bool { return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') }) {
		return ""
	}
	name = strings.ToLower(name)
	if filterFacets[name] != "" {
		return ""
	}
	if singular, ok := strings.CutSuffix(name, "ies"); ok && filterFacets[singular+"y"] != "" {
		return singular + "y" // categories
	}
	best, bestD := "", 3
	for f, facet := range filterFacets {
		if name == facet { // the facet's own name: tags, capabilities
			return f
		}
		max := 1
		if len(f) >= 6 {
			max = 2
		}
		if d := EditDistance([]rune(name), []rune(f), max); d <= max && (d < bestD || d == bestD && f < best) {
			best, bestD = f, d
		}
	}
	return best
}

// Query is a parsed query.
type Query struct {
	Clauses []Clause `json:"clauses"`
	// Mistyped lists the words written as filters whose name is no
	// filter's but near one ("tags:audit"): they are searched as words,
	// which their writer may not expect. Not part of the parse that the
	// JavaScript's must equal.
	Mistyped []MistypedFilter `json:"-"`
}

// MistypedFilter is a word written as a filter of an unknown name, as
// written ("-Types:cli", `tags:"my tag"`), and the filter it most likely
// means, as it should be written ("-type:cli").
type MistypedFilter struct {
	Written, Meant string
}

// Note says what happens to the word and what was likely meant, for the
// person or agent who wrote it.
func (m MistypedFilter) Note() string {
	return m.Written + " is no filter, so it is searched as words; did you mean " + m.Meant + "?"
}

// Notes says what in a query may not do what was meant, as skilldex
// search and the MCP server say it: each mistyped filter's note, then
// each filter's whose value no skill has.
func Notes(mistyped []MistypedFilter, emptyFilters []Clause) []string {
	var notes []string
	for _, m := range mistyped {
		notes = append(notes, m.Note())
	}
	for _, c := range emptyFilters {
		notes = append(notes, EmptyFilterNote(c))
	}
	return notes
}

// EmptyFilterNote says that no skill has the value of the filter c, so
// that the query matches nothing; a value with blanks is quoted, as the
// query writes it. static/search-core.js emptyFilterNote says the same.
func EmptyFilterNote(c Clause) string {
	name := c.Facet
	for n, facet := range filterFacets {
		if facet == c.Facet {
			name = n
		}
	}
	value := c.Value
	if strings.ContainsAny(value, " \t") {
		value = strconv.Quote(value)
	}
	return "no skill of the catalog has " + name + ":" + value + ", so nothing matches"
}

// Clause is a part of a query: words, a phrase, or a filter.
type Clause struct {
	// Words are the clause's words; empty for a filter.
	Words []Word `json:"words,omitempty"`
	// Phrase is set for a quoted phrase and for a required or excluded
	// word that folds into several ("+pull-request").
	Phrase bool `json:"phrase,omitempty"`
	// Required and Excluded are set by + and -.
	Required bool `json:"required,omitempty"`
	Excluded bool `json:"excluded,omitempty"`
	// Facet and Value are a filter's facet id and value, as typed.
	Facet string `json:"facet,omitempty"`
	Value string `json:"value,omitempty"`
}

// Word is a word of a query.
type Word struct {
	// Raw is the word folded; Term its index term (Stem).
	Raw  string `json:"raw"`
	Term string `json:"term"`
	// Prefix is set on the word being typed: the query's last, when the
	// query ends with it, in a clause of words (not a phrase, exclusion
	// or filter). A stop word is kept only as a prefix, and only when it
	// is the query's only word.
	Prefix bool `json:"prefix,omitempty"`
	Stop   bool `json:"stop,omitempty"`
	// Conversational is set on a word of model.ConversationalWords, in a
	// clause of plain words.
	Conversational bool `json:"conversational,omitempty"`
}

// ParseQuery parses a query (see the syntax above) with this version's
// model.
func ParseQuery(q string) Query { return model.Parse(q) }

// Parse parses a query with the conversational words of m: an index's
// model, as its manifest gives it.
func (m *Model) Parse(q string) Query {
	out := Query{Clauses: []Clause{}}
	conversational := map[string]bool{}
	for _, w := range m.ConversationalWords {
		conversational[w] = true
	}
	for i := 0; i < len(q); {
		r, n := utf8.DecodeRuneInString(q[i:])
		if unicode.IsSpace(r) {
			i += n
			continue
		}
		var c Clause
		start := i
		if (q[i] == '+' || q[i] == '-') && i+1 < len(q) && !startsSpace(q[i+1:]) && q[i+1] != '+' && q[i+1] != '-' {
			c.Required, c.Excluded = q[i] == '+', q[i] == '-'
			i++
		}
		var text string
		switch {
		case q[i] == '"':
			text, i = quoted(q, i)
			c.Phrase = true
		default:
			end := tokenEnd(q, i)
			tok := q[i:end]
			name, value, ok := strings.Cut(tok, ":")
			facet := filterFacets[strings.ToLower(name)]
			if ok && facet != "" {
				if strings.HasPrefix(value, `"`) {
					value, end = quoted(q, i+len(name)+1)
				}
				i = end
				if strings.TrimSpace(value) != "" {
					c.Facet, c.Value = facet, strings.TrimSpace(value)
					out.Clauses = append(out.Clauses, c)
				}
				continue
			}
			if meant := nearFilter(name); ok && meant != "" {
				written := q[start:end]
				if strings.HasPrefix(value, `"`) {
					_, valueEnd := quoted(q, i+len(name)+1)
					written = q[start:valueEnd]
				}
				out.Mistyped = append(out.Mistyped, MistypedFilter{Written: written, Meant: q[start:i] + meant + written[i-start+len(name):]})
			}
			text, i = tok, end
		}
		c.Words = queryWords(text, c.Phrase || c.Required || c.Excluded, conversational)
		if len(c.Words) > 1 && (c.Required || c.Excluded) {
			c.Phrase = true
		}
		if len(c.Words) > 0 {
			out.Clauses = append(out.Clauses, c)
		}
	}
	// The last word is being typed when the query ends with it.
	folded := Fold(q)
	if last, _ := utf8.DecodeLastRuneInString(folded); unicode.IsLetter(last) || unicode.IsDigit(last) {
		if k := len(out.Clauses) - 1; k >= 0 {
			c := &out.Clauses[k]
			if !c.Phrase && !c.Excluded && c.Facet == "" && len(c.Words) > 0 && strings.HasSuffix(folded, c.Words[len(c.Words)-1].Raw) {
				c.Words[len(c.Words)-1].Prefix = true
			}
		}
	}
	// Stop words are left out, but as the word being typed when it is the
	// query's only word: "fo", "for", "form" on the way to "format". After
	// other words ("deploy my app to") it is a word of the sentence, and
	// its completions ("token", "torch") would outweigh the words before.
	words := 0
	for _, c := range out.Clauses {
		words += len(c.Words)
	}
	for k := range out.Clauses {
		c := &out.Clauses[k]
		kept := c.Words[:0]
		for _, w := range c.Words {
			if !w.Stop || w.Prefix && words == 1 {
				kept = append(kept, w)
			}
		}
		c.Words = kept
	}
	kept := out.Clauses[:0]
	for _, c := range out.Clauses {
		if c.Facet != "" || len(c.Words) > 0 {
			kept = append(kept, c)
		}
	}
	out.Clauses = kept
	return out
}

// queryWords returns the words of a clause's text: folded, at most
// maxTokenLen letters, stemmed.
func queryWords(text string, exact bool, conversational map[string]bool) []Word {
	var out []Word
	for _, w := range Words(Fold(text)) {
		if utf8.RuneCountInString(w) > maxTokenLen {
			continue
		}
		out = append(out, Word{Raw: w, Term: Stem(w), Stop: stopWords[w], Conversational: !exact && conversational[w]})
	}
	return out
}

// quoted returns the text of the quotation that starts at q[i] (a double
// quote), which runs to the next double quote or the end, and where the
// query goes on after it.
func quoted(q string, i int) (string, int) {
	end := strings.IndexByte(q[i+1:], '"')
	if end < 0 {
		return q[i+1:], len(q)
	}
	return q[i+1 : i+1+end], i + 2 + end
}

// tokenEnd returns where the run of non-space characters at q[i] ends.
func tokenEnd(q string, i int) int {
	for i < len(q) {
		r, n := utf8.DecodeRuneInString(q[i:])
		if unicode.IsSpace(r) {
			break
		}
		i += n
	}
	return i
}

func startsSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}
