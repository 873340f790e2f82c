package markdown

import (
	"math"
	"regexp"
	"slices"
	"strconv"

	"github.com/dlclark/regexp2/v2/syntax"
)

// Most tokens of most lexers are matched by patterns as plain as \s+,
// [^=\s\[\]{}()$"'`\\<&|;]+, [_\p{L}][_\p{L}\p{N}]*, #.*$, \{ or
// \b(if|fi|else)(\s*)\b: sequences of characters, sets, runs of them,
// keyword lists, anchors and word boundaries, with groups around some of
// them. regexp2 runs those as any other pattern, allocating a match and
// its groups each time. simpleMatcher matches such a sequence directly,
// by the same rules: it tries the alternatives of a keyword list in
// order, a greedy run from longest to shortest, a lazy run from shortest
// to longest and an atomic run at its longest only, backtracking into the
// last choice whenever the rest of the sequence fails; and it gives up,
// leaving the match to regexp2, after maxBacktrack failures.

// maxBacktrack bounds the choices simpleMatcher takes back in one match
// before it leaves the match to regexp2 (whose own bound is a timeout).
const maxBacktrack = 1000

// simpleMatcher matches a pattern: the first of its alternatives (whole
// sequences) that matches at the position. A pattern with groups has one
// alternative.
type simpleMatcher struct {
	alts [][]simpleElem
	// groups are the pattern's groups 1, 2, ...: each the elements
	// [from, to) of the sequence.
	groups []simpleGroup
	// names are the groups' names, as regexp2 gives them: "0", "1", ...
	names []string
	// longest is the length of the longest alternative.
	longest int
}

type simpleGroup struct{ from, to int }

type simpleKind uint8

const (
	simpleOne    simpleKind = iota // the character ch
	simpleNotOne                   // any character but ch
	simpleSet                      // a character of set
	simpleString                   // the characters of str
	simpleWords                    // one of words, tried in order
	simpleAssert                   // nothing, where assert holds
)

// simpleAssertion is a zero-width assertion.
type simpleAssertion uint8

const (
	assertBol         simpleAssertion = iota // ^ (multiline): start, or after \n
	assertEol                                // $ (multiline): end, or before \n
	assertBeginning                          // \A
	assertEnd                                // \z
	assertEndZ                               // \Z, $: end, or before a final \n
	assertBoundary                           // \b
	assertNonBoundary                        // \B
	assertAhead                              // (?=c): before a character of look
	assertNotAhead                           // (?!c): not before one
)

// simpleElem is one element of a sequence. For characters and sets, it
// matches from min to max of them (max math.MaxInt for no bound); a run
// of them is greedy unless lazy, and an atomic one (regexp2 makes a run
// atomic where it has proved that giving back characters cannot help)
// never gives any back.
type simpleElem struct {
	kind     simpleKind
	ch       rune
	set      *syntax.CharSet
	ascii    [2]uint64 // for simpleSet: bit c for each c < 128 in set
	str      []rune
	words    [][]rune
	min, max int
	lazy     bool
	atomic   bool
	assert   simpleAssertion
	look     *simpleElem // for assertAhead and assertNotAhead
}

// in reports whether c is one of the characters e repeats.
func (e *simpleElem) in(c rune) bool {
	switch e.kind {
	case simpleOne:
		return c == e.ch
	case simpleNotOne:
		return c != e.ch
	case simpleSet:
		if c < 128 {
			return e.ascii[c/64]&(1<<(c%64)) != 0
		}
		return e.set.CharIn(c)
	}
	return false
}

// holds reports whether the assertion e holds at text[p], as regexp2's
// runner decides it.
func (e *simpleElem) holds(text []rune, p int) bool {
	switch e.assert {
	case assertBol:
		return p == 0 || text[p-1] == '\n'
	case assertEol:
		return p == len(text) || text[p] == '\n'
	case assertBeginning:
		return p == 0
	case assertEnd:
		return p == len(text)
	case assertEndZ:
		return p == len(text) || p == len(text)-1 && text[p] == '\n'
	case assertBoundary, assertNonBoundary:
		b := (p > 0 && syntax.IsWordChar(text[p-1])) != (p < len(text) && syntax.IsWordChar(text[p]))
		return b == (e.assert == assertBoundary)
	case assertAhead:
		return p < len(text) && e.look.in(text[p])
	case assertNotAhead:
		return !(p < len(text) && e.look.in(text[p]))
	}
	return false
}

// match matches at text[pos:]. It returns the end of the match and, in
// starts (at least m.longest+1 long), where each element of the matching
// sequence started and, after them, where it ended. decided is false when
// it gave up: then only regexp2 can tell.
func (m *simpleMatcher) match(text []rune, pos int, starts []int) (end int, ok, decided bool) {
	for _, alt := range m.alts {
		budget := maxBacktrack
		end, ok := matchSequence(alt, 0, text, pos, starts, &budget)
		if budget < 0 {
			return 0, false, false
		}
		if ok {
			return end, true, true
		}
	}
	return 0, false, true
}

// matchSequence matches seq[i:] at text[p:], backtracking as regexp2
// does, and counts what it takes back against budget.
func matchSequence(seq []simpleElem, i int, text []rune, p int, starts []int, budget *int) (int, bool) {
	for ; i < len(seq); i++ {
		e := &seq[i]
		starts[i] = p
		switch e.kind {
		case simpleString:
			if !hasAt(text, p, e.str) {
				return 0, false
			}
			p += len(e.str)
		case simpleAssert:
			if !e.holds(text, p) {
				return 0, false
			}
		case simpleWords:
			for _, w := range e.words {
				if !hasAt(text, p, w) {
					continue
				}
				if end, ok := matchSequence(seq, i+1, text, p+len(w), starts, budget); ok || *budget < 0 {
					return end, ok
				}
				*budget--
			}
			return 0, false
		default:
			n := 0
			for n < e.max && p+n < len(text) && e.in(text[p+n]) {
				n++
			}
			if n < e.min {
				return 0, false
			}
			if e.atomic || e.min == e.max || i == len(seq)-1 && !e.lazy {
				p += n // the only length, or the first tried with nothing after
				continue
			}
			for k := range n - e.min + 1 {
				if !e.lazy {
					k = n - e.min - k // longest first
				}
				if end, ok := matchSequence(seq, i+1, text, p+e.min+k, starts, budget); ok || *budget < 0 {
					return end, ok
				}
				*budget--
			}
			return 0, false
		}
	}
	starts[len(seq)] = p
	return p, true
}

func hasAt(text []rune, p int, s []rune) bool {
	return len(text)-p >= len(s) && slices.Equal(text[p:p+len(s)], s)
}

// ignoreCaseFlag finds an inline (?i...) or (?...i...) option.
var ignoreCaseFlag = regexp.MustCompile(`\(\?[a-zA-Z-]*i`)

// newSimpleMatcher returns a simpleMatcher for a parsed pattern, or nil if
// the pattern holds more than it handles. Case-insensitive patterns and
// named groups are left to regexp2.
func newSimpleMatcher(pattern string, tree *syntax.RegexTree) *simpleMatcher {
	if ignoreCaseFlag.MatchString(pattern) || tree.Options&(syntax.IgnoreCase|syntax.RightToLeft|syntax.ECMAScript|syntax.RE2) != 0 ||
		tree.Caplist != nil { // named groups: regexp2 names and numbers them its own way
		return nil
	}
	n := tree.Root
	// The root is group 0; non-capturing groups only group.
	for (n.T == syntax.NtCapture && n == tree.Root || n.T == syntax.NtGroup) && len(n.Children) == 1 {
		n = n.Children[0]
	}
	m := &simpleMatcher{}
	if n.T == syntax.NtAlternate && !(literalOnly(n) && captures(n) == 0) {
		// Whole sequences as alternatives, without groups.
		if captures(n) != 0 {
			return nil
		}
		for _, alt := range n.Children {
			b := seqBuilder{}
			if !b.add(alt, false) {
				return nil
			}
			m.alts = append(m.alts, b.seq)
		}
	} else {
		b := seqBuilder{groups: &m.groups}
		if !b.add(n, true) {
			return nil
		}
		m.alts = [][]simpleElem{b.seq}
		if captures(n) != len(m.groups) {
			return nil // a group where it is not handled
		}
	}
	m.names = []string{"0"}
	for i := range m.groups {
		m.names = append(m.names, strconv.Itoa(i+1))
	}
	for _, alt := range m.alts {
		m.longest = max(m.longest, len(alt))
	}
	return m
}

// literalOnly reports whether n matches strings and nothing else: no
// sets, runs, assertions or groups.
func literalOnly(n *syntax.RegexNode) bool {
	if n.Options&(syntax.IgnoreCase|syntax.RightToLeft) != 0 {
		return false
	}
	switch n.T {
	case syntax.NtOne, syntax.NtMulti, syntax.NtEmpty:
		return true
	case syntax.NtAlternate, syntax.NtConcatenate, syntax.NtGroup:
		for _, c := range n.Children {
			if !literalOnly(c) {
				return false
			}
		}
		return true
	}
	return false
}

// captures counts the groups under n.
func captures(n *syntax.RegexNode) int {
	c := 0
	if n.T == syntax.NtCapture {
		c++
	}
	for _, ch := range n.Children {
		c += captures(ch)
	}
	return c
}

// seqBuilder flattens a node into a sequence of elements.
type seqBuilder struct {
	seq    []simpleElem
	groups *[]simpleGroup // nil: no groups allowed
}

// add appends the elements of n; false if n holds anything not handled.
// Groups are handled only at the top of the sequence (top), numbered
// from 1 in order.
func (b *seqBuilder) add(n *syntax.RegexNode, top bool) bool {
	if n.Options&(syntax.IgnoreCase|syntax.RightToLeft|syntax.ECMAScript|syntax.RE2) != 0 {
		return false
	}
	e := simpleElem{min: 1, max: 1}
	switch n.T {
	case syntax.NtConcatenate, syntax.NtGroup:
		for _, c := range n.Children {
			if !b.add(c, top && n.T == syntax.NtConcatenate) {
				return false
			}
		}
		return true
	case syntax.NtCapture:
		if !top || b.groups == nil || len(n.Children) != 1 || n.N != -1 || n.M != len(*b.groups)+1 {
			return false
		}
		from := len(b.seq)
		if !b.add(n.Children[0], false) {
			return false
		}
		*b.groups = append(*b.groups, simpleGroup{from, len(b.seq)})
		return true
	case syntax.NtEmpty, syntax.NtUpdateBumpalong:
		// Nothing to match (UpdateBumpalong only tells a search where to
		// try next).
		return true
	case syntax.NtAlternate:
		if !literalOnly(n) {
			return false
		}
		words, exact := literalPrefixes(n)
		if !exact {
			return false
		}
		e.kind, e.words = simpleWords, words
	case syntax.NtMulti:
		if len(n.Str) == 0 {
			return true
		}
		e.kind, e.str = simpleString, n.Str
	case syntax.NtBol, syntax.NtEol, syntax.NtBeginning, syntax.NtEnd, syntax.NtEndZ, syntax.NtBoundary, syntax.NtNonboundary:
		e.kind = simpleAssert
		e.assert = map[syntax.NodeType]simpleAssertion{
			syntax.NtBol: assertBol, syntax.NtEol: assertEol, syntax.NtBeginning: assertBeginning,
			syntax.NtEnd: assertEnd, syntax.NtEndZ: assertEndZ, syntax.NtBoundary: assertBoundary,
			syntax.NtNonboundary: assertNonBoundary,
		}[n.T]
	case syntax.NtPosLook, syntax.NtNegLook:
		// A look-ahead at one character.
		if len(n.Children) != 1 {
			return false
		}
		look := seqBuilder{}
		if !look.add(n.Children[0], false) || len(look.seq) != 1 || look.seq[0].kind > simpleSet ||
			look.seq[0].min != 1 || look.seq[0].max != 1 {
			return false
		}
		e.kind, e.look = simpleAssert, &look.seq[0]
		e.assert = assertAhead
		if n.T == syntax.NtNegLook {
			e.assert = assertNotAhead
		}
	default:
		if !charElem(&e, n) {
			return false
		}
	}
	b.seq = append(b.seq, e)
	return true
}

// charElem fills e for a character, set or run node.
func charElem(e *simpleElem, n *syntax.RegexNode) bool {
	switch n.T {
	case syntax.NtOne, syntax.NtOneloop, syntax.NtOnelazy, syntax.NtOneloopatomic:
		e.kind, e.ch = simpleOne, n.Ch
	case syntax.NtNotone, syntax.NtNotoneloop, syntax.NtNotonelazy, syntax.NtNotoneloopatomic:
		e.kind, e.ch = simpleNotOne, n.Ch
	case syntax.NtSet, syntax.NtSetloop, syntax.NtSetlazy, syntax.NtSetloopatomic:
		if n.Set == nil {
			return false
		}
		e.kind, e.set = simpleSet, n.Set
		for c := range rune(128) {
			if n.Set.CharIn(c) {
				e.ascii[c/64] |= 1 << (c % 64)
			}
		}
	default:
		return false
	}
	switch n.T {
	case syntax.NtOne, syntax.NtNotone, syntax.NtSet:
		return true
	case syntax.NtOnelazy, syntax.NtNotonelazy, syntax.NtSetlazy:
		e.lazy = true
	case syntax.NtOneloopatomic, syntax.NtNotoneloopatomic, syntax.NtSetloopatomic:
		e.atomic = true
	}
	if n.M < 0 || n.N < n.M {
		return false
	}
	e.min, e.max = n.M, n.N
	if n.N == math.MaxInt32 {
		e.max = math.MaxInt
	}
	return true
}

// A literal prefix filter skips a rule whose every match starts with one
// of a few strings (a keyword list like \b(if|then|else|fi)\b, which
// regexp2 turns into a tree of alternatives) where the text starts with
// none of them: regexp2 would run and fail, allocating as it goes. Its
// first characters alone let through every word that starts like a
// keyword.

// maxPrefixes bounds the strings of a filter.
const maxPrefixes = 64

// prefixFilter holds the strings, by first character.
type prefixFilter map[rune][][]rune

// newPrefixFilter returns the filter of a parsed pattern, or nil if a
// match can start with anything, or with nothing.
func newPrefixFilter(pattern string, tree *syntax.RegexTree) prefixFilter {
	if ignoreCaseFlag.MatchString(pattern) || tree.Options&(syntax.IgnoreCase|syntax.RightToLeft) != 0 {
		return nil
	}
	prefixes, _ := literalPrefixes(tree.Root)
	if len(prefixes) == 0 {
		return nil
	}
	f := prefixFilter{}
	for _, p := range prefixes {
		if len(p) == 0 {
			return nil // a match can start with anything
		}
		f[p[0]] = append(f[p[0]], p)
	}
	return f
}

// allows reports whether text[pos:] starts with one of f's strings.
func (f prefixFilter) allows(text []rune, pos int) bool {
	for _, p := range f[text[pos]] {
		if len(text)-pos >= len(p) && slices.Equal(text[pos:pos+len(p)], p) {
			return true
		}
	}
	return false
}

// literalPrefixes returns strings one of which every match of n starts
// with, and whether every match of n is one of them; nil if it cannot
// tell. Zero-width assertions match the empty string.
func literalPrefixes(n *syntax.RegexNode) (prefixes [][]rune, exact bool) {
	if n.Options&(syntax.IgnoreCase|syntax.RightToLeft) != 0 {
		return nil, false
	}
	switch n.T {
	case syntax.NtOne:
		return [][]rune{{n.Ch}}, true
	case syntax.NtMulti:
		return [][]rune{n.Str}, true
	case syntax.NtEmpty, syntax.NtBoundary, syntax.NtNonboundary, syntax.NtBol, syntax.NtEol,
		syntax.NtBeginning, syntax.NtStart, syntax.NtEndZ, syntax.NtEnd, syntax.NtUpdateBumpalong,
		syntax.NtPosLook, syntax.NtNegLook:
		return [][]rune{{}}, true
	case syntax.NtCapture, syntax.NtGroup, syntax.NtAtomic:
		if len(n.Children) != 1 {
			return nil, false
		}
		return literalPrefixes(n.Children[0])
	case syntax.NtConcatenate:
		prefixes, exact = [][]rune{{}}, true
		for _, c := range n.Children {
			p, e := literalPrefixes(c)
			if p == nil || len(prefixes)*len(p) > maxPrefixes {
				return prefixes, false
			}
			var next [][]rune
			for _, a := range prefixes {
				for _, b := range p {
					next = append(next, slices.Concat(a, b))
				}
			}
			prefixes = next
			if !e {
				return prefixes, false
			}
		}
		return prefixes, true
	case syntax.NtAlternate:
		exact = true
		for _, c := range n.Children {
			p, e := literalPrefixes(c)
			if p == nil || len(prefixes)+len(p) > maxPrefixes {
				return nil, false
			}
			prefixes = append(prefixes, p...)
			exact = exact && e
		}
		return prefixes, exact
	}
	return nil, false
}
