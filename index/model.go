package index

import (
	"slices"
	"strings"
)

// The ranking model: what both indexes rank with. Its parameters are all
// here; the JSON index's manifest carries the query-time ones (Model) to
// the browser's static/search-core.js and to any other reader of the
// JSON index, and `skilldex search` ranks the bleve index with them
// (ranker). They were tuned on the training split of the judged task
// queries (testdata/judged/task.tsv) and checked on the keyword and typo
// sets; see README.md, Search quality.
//
// A skill's weight for a term is, over the searchable fields,
//
//	Σ weight_f × tf_f × (k1+1) / (tf_f + k1 × (1 − b_f + b_f × len_f/pivot_f))
//
// (BM25's saturation and length normalisation per field, summed), stored
// on an 8-bit log scale (quantize). The pivot lengths are fixed rather
// than the catalog's averages, so that a skill's weights depend on the
// skill alone: a bleve segment or a JSON posting never changes because
// another skill did. A query's score for a skill is, over its words, the
// best of weight × idf × factor among the terms the word matches (the
// word's own stem: factor 1; a completion of the word being typed, a
// spelling neighbour, a related term: smaller factors), summed, times the
// share of the query's content words that matched.

// k1 is BM25's term frequency saturation.
const k1 = 1.2

// field is one searchable field of a skill.
type field struct {
	name   string  // the bleve field of its text
	weight float64 // how much a word in it counts
	b      float64 // BM25 length normalisation
	pivot  float64 // the length (in terms) b normalises to
}

// fields are the searchable fields; document.texts returns their text in
// this order. The pivots are about the corpus' average lengths. Weights
// above one for the description or its trigger clause, tags, keywords or
// headings bought nothing on the training queries; a name counts twice.
var fields = [...]field{
	{"name", 2, 0.5, 2},
	{"description", 1, 0.75, 15},
	{"triggers", 1, 0.75, 18},
	{"tags", 1, 0.5, 4},
	{"capabilities", 1, 0.5, 4},
	{"category", 1, 0.3, 2},
	{"type", 1, 0, 1},
	{"keywords", 1, 0.5, 10},
	{"intents", 1, 0.5, 36},
	{"headings", 1, 0.75, 50},
	{"body", 1, 0.75, 1000},
	{"plugin", 0.25, 0.5, 16},
}

// fieldWeight returns the field's name and its weight for the term
// counts tf of a field of length n.
func fieldWeight(f int, tf, n float64) float64 {
	x := fields[f]
	return x.weight * tf * (k1 + 1) / (tf + k1*(1-x.b+x.b*n/x.pivot))
}

// Model is the query-time part of the ranking model, as the JSON index's
// manifest holds it: how much each way of matching a query word counts,
// and how many of a term's documents take part. Every reader of the JSON
// index ranks with it.
type Model struct {
	// Completion is the factor of a term that the word being typed (or a
	// word that is no term) begins: Completion[0] + Completion[1] × the
	// share of the term's letters typed. Typed names a term the typed
	// word begins with (the word went past its stem: "optimiz" for
	// "optim"), with the same factors. When the word is itself a term,
	// these factors are multiplied by CompletionOfTerm.
	Completion       [2]float64 `json:"completion"`
	CompletionOfTerm float64    `json:"completionOfTerm"`
	// Fuzzy is the factor of a spelling neighbour at edit distance 1
	// and 2.
	Fuzzy [2]float64 `json:"fuzzy"`
	// Related multiplies a related term's similarity to the word's term.
	Related float64 `json:"related"`
	// Conversational is the factor of a conversational word, which does
	// not count in the share of words matched either: it never outweighs
	// a word about the task.
	Conversational float64 `json:"conversational"`
	// ConversationalWords are those words, folded.
	ConversationalWords []string `json:"conversationalWords"`
	// Head is how many documents of a term count (its highest weights),
	// unless the query requires, excludes or filters, when all do;
	// CompletionHead and RelatedHead bound completions and spelling
	// neighbours, and related terms, always.
	Head           int `json:"head"`
	CompletionHead int `json:"completionHead"`
	RelatedHead    int `json:"relatedHead"`
	// Completions and Neighbours bound the completions of a word and its
	// spelling neighbours: those in the most documents.
	Completions int `json:"completions"`
	Neighbours  int `json:"neighbours"`
	// CompleteFrom is the shortest word, not being typed, whose
	// completions are sought when it is no term; TypedPast how many
	// letters the word being typed may go past a term it begins with,
	// which has at least TypedTerm letters.
	CompleteFrom int `json:"completeFrom"`
	TypedPast    int `json:"typedPast"`
	TypedTerm    int `json:"typedTerm"`
	// A word of at least FuzzyFrom[0] letters gets spelling neighbours at
	// edit distance 1, of FuzzyFrom[1] at distance 2: when it matches no
	// term, or is a term of at most FuzzyRare documents and nothing else,
	// and then only neighbours in more than FuzzyCommoner times as many.
	FuzzyFrom     [2]int `json:"fuzzyFrom"`
	FuzzyRare     int    `json:"fuzzyRare"`
	FuzzyCommoner int    `json:"fuzzyCommoner"`
}

// model is the query-time model of this version of skilldex.
var model = Model{
	Completion:          [2]float64{0.5, 0.45},
	CompletionOfTerm:    0.5,
	Fuzzy:               [2]float64{0.6, 0.4},
	Related:             0.5,
	Conversational:      0.1,
	ConversationalWords: sortedFields(`able actually also anyone anything ever even every everyone everything get gets getting go goes going gone good got great guy guys help helps hey hi just keep keeping keeps kept knew know knows let lets like lot lots made make makes making many maybe much need needed needs new nice nothing ok okay people please really saw see seen sees someone somebody something still stuff sure thank thanks thing things think tried tries try trying want wanted wants way ways well went`),
	Head:                headSize,
	CompletionHead:      prefixHead,
	RelatedHead:         32,
	Completions:         prefixTerms,
	Neighbours:          3,
	CompleteFrom:        3,
	TypedPast:           3,
	TypedTerm:           4,
	FuzzyFrom:           [2]int{4, 8},
	FuzzyRare:           2,
	FuzzyCommoner:       4,
}

// sortedFields returns the words of s, sorted.
func sortedFields(s string) []string {
	w := strings.Fields(s)
	slices.Sort(w)
	return w
}
