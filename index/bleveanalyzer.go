package index

import (
	"bytes"
	"fmt"
	"slices"
	stdunicode "unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/token/stop"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/skilldex/skilldex/internal/arena"
)

// indexAnalyzer analyses the text fields of the bleve index at build time
// and gives exactly the tokens of bleve's "en" analyzer (terms,
// offsets, positions, types) at a fraction of its cost. Queries are
// analysed by bleve at search time, so nothing else would do.
//
// Most of the cost of bleve's analyzer is not the work but how it is
// done: its word segmenter allocates twice per segment (spaces included),
// every token is an allocation, and the Porter stemmer converts each term
// to runes and back. indexAnalyzer splits text made of ASCII bytes, and of
// the punctuation and symbols outside ASCII that the segmenter treats as
// spaces (wordSeparators), into words in one pass (see asciiWords), and
// runs bleve's own token filters once per distinct word, keeping the
// result: a document repeats its words, and a chunk of documents shares
// most of them. The lines of other text (letters outside ASCII, combining
// marks) are cut into words by bleve's tokenizer, and text that is not
// valid UTF-8 goes to bleve's analyzer as it is.
//
// An indexAnalyzer is used by one goroutine at a time (see docBuilders).
type indexAnalyzer struct {
	ref       analysis.Analyzer      // bleve's "en"
	tokenizer analysis.Tokenizer     // its tokenizer
	filters   []analysis.TokenFilter // its token filters, in order
	// words maps a word as the tokenizer cuts it to its term after the
	// filters; nil when a filter drops it (a stop word).
	words map[string]*term
	// terms interns the terms, so that the words of one stem ("review",
	// "Reviews", "reviewing") share one.
	terms map[string]*term
	// maxWords bounds the words remembered: past it, they are all
	// forgotten before the next text.
	maxWords int
	// vocab and termSlab hold the words' and terms' strings and the
	// terms themselves: tens of thousands of small objects per
	// analyzer, alive from chunk to chunk, in a few blocks (see
	// package arena). Forgetting the words starts new blocks: the old
	// ones live on while the documents in flight use their terms.
	vocab    arena.Strings
	termSlab arena.Slab[term]

	toks   []token // the tokens of the text last analysed
	seq    uint32  // numbers the texts analysed, for term.seq
	counts []int32 // occurrences of each distinct term of the text
}

// maxWords is indexAnalyzer.maxWords, about 10 MB of words: a chunk of 64
// documents has a few thousand distinct words, a whole catalog some tens
// of thousands.
const maxWords = 1 << 16

// term is a term of the index: what bleve's filters make of a word.
type term struct {
	text  string // the key of the token frequencies
	bytes []byte // the same bytes, as TokenFreq.Term
	// seq and slot number the term among the distinct terms of the text
	// being analysed (slot is valid when seq is the analyzer's).
	seq  uint32
	slot int32
}

// token is a token of the text last analysed.
type token struct {
	term            *term
	start, end, pos int
	typ             analysis.TokenType
}

// newIndexAnalyzer returns the analyzer of ref, bleve's analyzer named
// analyzerName in the index mapping. It checks that ref is still what
// NewMapping defines, since indexAnalyzer reproduces its tokenizer: the
// Unicode tokenizer, no character filters, and token filters that each
// turn one token into at most one, whatever its neighbours.
func newIndexAnalyzer(ref analysis.Analyzer) (*indexAnalyzer, error) {
	da, ok := ref.(*analysis.DefaultAnalyzer)
	if !ok || len(da.CharFilters) > 0 {
		return nil, fmt.Errorf("index analyzer: %s is not a plain custom analyzer", analyzerName)
	}
	if _, ok := da.Tokenizer.(*unicode.UnicodeTokenizer); !ok {
		return nil, fmt.Errorf("index analyzer: %s does not use the unicode tokenizer", analyzerName)
	}
	for _, f := range da.TokenFilters {
		switch f.(type) {
		case *en.PossessiveFilter, *lowercase.LowerCaseFilter, *stop.StopTokensFilter, *porter.PorterStemmer:
		default:
			return nil, fmt.Errorf("index analyzer: %s has an unexpected token filter %T", analyzerName, f)
		}
	}
	return &indexAnalyzer{
		ref:       ref,
		tokenizer: da.Tokenizer,
		filters:   da.TokenFilters,
		words:     map[string]*term{},
		terms:     map[string]*term{},
		maxWords:  maxWords,
	}, nil
}

// Analyze returns the tokens of text as bleve's analyzer gives them. It is
// what the tests compare; fields use tokenize and frequencies, which make
// no tokens.
func (a *indexAnalyzer) Analyze(text []byte) analysis.TokenStream {
	if !a.tokenize(text) {
		return a.ref.Analyze(slices.Clone(text))
	}
	out := make(analysis.TokenStream, len(a.toks))
	for i, t := range a.toks {
		out[i] = &analysis.Token{Term: t.term.bytes, Start: t.start, End: t.end, Position: t.pos, Type: t.typ}
	}
	return out
}

// tokenize sets a.toks to the tokens of text and reports whether it could:
// false for text that is not valid UTF-8, which bleve's analyzer must take.
//
// Text that asciiWords can cut (see splittable) is cut in one pass. Other
// text is cut a line at a time, each line by asciiWords when it can and
// by bleve's tokenizer when not: bleve's segmenter ends a segment at every
// line feed (no word, nor any other segment, holds one but at its end) and
// starts afresh after it, so the lines of valid UTF-8 text are cut apart
// as they are cut together. Invalid UTF-8 can make the segmenter stop
// before the end, which only the whole text shows.
func (a *indexAnalyzer) tokenize(text []byte) bool {
	whole := splittable(text)
	if !whole && !utf8.Valid(text) {
		return false
	}
	if len(a.words) > a.maxWords {
		// Only between texts: the tokens of a text must share their terms.
		clear(a.words)
		clear(a.terms)
		a.vocab, a.termSlab = arena.Strings{}, arena.Slab[term]{}
	}
	a.toks = a.toks[:0]
	if whole {
		a.addWords(text, 0, 0)
		return true
	}
	words := 0
	for off := 0; off < len(text); {
		end := len(text)
		if i := bytes.IndexByte(text[off:], '\n'); i >= 0 {
			end = off + i + 1
		}
		if line := text[off:end]; splittable(line) {
			words = a.addWords(line, off, words)
		} else {
			words = a.addBleveWords(line, off, words)
		}
		off = end
	}
	return true
}

// addWords appends to a.toks the tokens of the words of text, which
// splittable accepts: text starts at byte off of the field's text, after
// n words. It returns the number of words with those of text, stop words
// included: a stop word keeps its position, as bleve's stop filter does.
func (a *indexAnalyzer) addWords(text []byte, off, n int) int {
	asciiWords(text, func(start, end int, typ analysis.TokenType) {
		n++
		if t := a.term(text[start:end]); t != nil {
			a.toks = append(a.toks, token{term: t, start: off + start, end: off + end, pos: n, typ: typ})
		}
	})
	return n
}

// addBleveWords is addWords for any valid UTF-8 text, cut into words by
// bleve's tokenizer.
func (a *indexAnalyzer) addBleveWords(text []byte, off, n int) int {
	words := a.tokenizer.Tokenize(text)
	for _, w := range words {
		if t := a.term(w.Term); t != nil {
			a.toks = append(a.toks, token{term: t, start: off + w.Start, end: off + w.End, pos: n + w.Position, typ: w.Type})
		}
	}
	return n + len(words)
}

// term returns the term bleve's token filters make of word, nil when they
// drop it. A word not seen before goes through the filters themselves, as
// a stream of one token: each of them looks at one token at a time.
func (a *indexAnalyzer) term(word []byte) *term {
	if t, ok := a.words[string(word)]; ok {
		return t
	}
	ts := analysis.TokenStream{{Term: slices.Clone(word), Start: 0, End: len(word), Position: 1}}
	for _, f := range a.filters {
		ts = f.Filter(ts)
	}
	var t *term
	if len(ts) > 0 {
		if t = a.terms[string(ts[0].Term)]; t == nil {
			text := a.vocab.StringOf(ts[0].Term)
			t = a.termSlab.New(term{text: text, bytes: a.vocab.Bytes(text)})
			a.terms[text] = t
		}
	}
	a.words[a.vocab.StringOf(word)] = t
	return t
}

// frequencies returns the token frequencies of a.toks, as
// analysis.TokenFrequency makes them of a field's tokens: same terms,
// counts and locations, in the same order. It allocates a few blocks per
// text instead of a few objects per term. The locations of a term are a
// full slice (capacity = length): bleve's TokenFrequencies.MergeAll
// appends to them when it merges the values of a list field.
func (a *indexAnalyzer) frequencies(arrayPositions []uint64, options bindex.FieldIndexingOptions) bindex.TokenFrequencies {
	a.seq++
	a.counts = a.counts[:0]
	for _, t := range a.toks {
		if t.term.seq != a.seq {
			t.term.seq, t.term.slot = a.seq, int32(len(a.counts))
			a.counts = append(a.counts, 0)
		}
		a.counts[t.term.slot]++
	}
	out := make(bindex.TokenFrequencies, len(a.counts))
	tfs := make([]bindex.TokenFreq, len(a.counts))
	vectors := options.IncludeTermVectors()
	var locs []bindex.TokenLocation
	var ptrs []*bindex.TokenLocation
	if vectors {
		locs = make([]bindex.TokenLocation, len(a.toks))
		ptrs = make([]*bindex.TokenLocation, len(a.toks))
	}
	next, used := int32(0), 0
	for i, t := range a.toks {
		tf := &tfs[t.term.slot]
		if t.term.slot == next { // first occurrence: slots follow them
			next++
			tf.Term = t.term.bytes
			if vectors {
				n := int(a.counts[t.term.slot])
				tf.Locations = ptrs[used:used:(used + n)]
				used += n
			}
			out[t.term.text] = tf
		}
		if vectors {
			locs[i] = bindex.TokenLocation{ArrayPositions: arrayPositions, Start: t.start, End: t.end, Position: t.pos}
			tf.Locations = append(tf.Locations, &locs[i])
		}
		if !options.SkipFreqNorm() {
			tf.SetFrequency(tf.Frequency() + 1)
		}
	}
	return out
}

// Classes of ASCII bytes for word segmentation: their Word_Break property
// in Unicode 8.0, which bleve's segmenter (github.com/blevesearch/segment)
// implements. Every other byte, and every byte of 0x80 or more (those of
// wordSeparators), is Other.
const (
	wbLetter    = 1 << iota // ALetter: A-Z a-z
	wbDigit                 // Numeric: 0-9
	wbUnderline             // ExtendNumLet: _
	wbMidLetter             // MidLetter (:), MidNumLet (.) and Single_Quote (')
	wbMidNum                // MidNum (, ;), MidNumLet (.) and Single_Quote (')

	wbWord = wbLetter | wbDigit | wbUnderline
)

var wbClass = func() (c [256]uint8) {
	for b := 'a'; b <= 'z'; b++ {
		c[b] = wbLetter
		c[b-'a'+'A'] = wbLetter
	}
	for b := '0'; b <= '9'; b++ {
		c[b] = wbDigit
	}
	c['_'] = wbUnderline
	c[':'] = wbMidLetter
	c[','], c[';'] = wbMidNum, wbMidNum
	c['.'], c['\''] = wbMidLetter|wbMidNum, wbMidLetter|wbMidNum
	return c
}()

// splittable reports whether asciiWords cuts text into words as bleve's
// tokenizer does: whether text is valid UTF-8 made of ASCII and of
// wordSeparators, which asciiWords takes for bytes of no word.
func splittable(text []byte) bool {
	for i := 0; i < len(text); {
		if text[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(text[i:])
		if !stdunicode.Is(wordSeparators, r) { // utf8.RuneError is none
			return false
		}
		i += n
	}
	return true
}

// asciiWords calls fn with each word of text, in order, as bleve's
// Unicode tokenizer cuts it if text is splittable, with the type it gives
// the token. A word is
// a longest run of letters, digits and underscores, in which a MidLetter
// character may stand between two letters and a MidNum character between
// two digits (UAX #29 rules WB5 to WB13b); everything else is dropped.
// Like the segmenter, a word that has digits and no letters is Numeric,
// any other (letters, or only underscores) AlphaNumeric.
func asciiWords(text []byte, fn func(start, end int, typ analysis.TokenType)) {
	for i := 0; i < len(text); {
		if wbClass[text[i]]&wbWord == 0 {
			i++
			continue
		}
		start, seen := i, uint8(0)
		for i < len(text) {
			c := wbClass[text[i]]
			if c&wbWord != 0 {
				seen |= c
				i++
				continue
			}
			if i+1 < len(text) && joins(c, wbClass[text[i-1]], wbClass[text[i+1]]) {
				i++ // the next byte, a letter or digit, is taken next
				continue
			}
			break
		}
		typ := analysis.AlphaNumeric
		if seen&wbDigit != 0 && seen&wbLetter == 0 {
			typ = analysis.Numeric
		}
		fn(start, i, typ)
	}
}

// joins reports whether a character of class mid between characters of
// classes before and after stays inside a word: a MidLetter between two
// letters (WB6, WB7), a MidNum between two digits (WB11, WB12).
func joins(mid, before, after uint8) bool {
	return mid&wbMidLetter != 0 && before&after&wbLetter != 0 ||
		mid&wbMidNum != 0 && before&after&wbDigit != 0
}
