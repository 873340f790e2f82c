package markdown

import (
	"math"
	"regexp"
	"slices"

	"github.com/dlclark/regexp2/v2/syntax"
)

// Most tokens of most lexers are matched by patterns as plain as \s+,
// [^=\s\[\]{}()$"'`\\<&|;]+, [_\p{L}][_\p{L}\p{N}]*, #.*$ or \{: a
// sequence of characters, sets and greedy runs of them, or alternatives
// of such sequences. regexp2 runs those as any other pattern, allocating
// a match and its groups each time. simpleMatcher matches them directly,
// with the same result, when it can prove that no backtracking could
// change it: every run that can stop at more than one length must be
// followed by nothing, or by something that cannot start with a
// character of the run. Then the greedy run is the only one that can
// lead to a match, and so the first alternative matching this way is
// regexp2's match.

// simpleMatcher matches a pattern: the first of its alternatives that
// matches at the position.
type simpleMatcher struct {
	alts [][]simpleElem
}

type simpleKind uint8

const (
	simpleOne    simpleKind = iota // the character ch
	simpleNotOne                   // any character but ch
	simpleSet                      // a character of set
	simpleString                   // the characters of str
	simpleEOL                      // nothing, before "\n" or at the end (multiline $)
)

// simpleElem is one element of a sequence: for characters and sets, from
// min to max of them (max math.MaxInt for no bound), as many as there
// are. An atomic run (regexp2 makes a run atomic where it has proved that
// giving back characters cannot help) never gives any back.
type simpleElem struct {
	kind     simpleKind
	ch       rune
	set      *syntax.CharSet
	ascii    [2]uint64 // for simpleSet: bit c for each c < 128 in set
	str      []rune
	min, max int
	atomic   bool
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

// match returns the length of the match at text[pos:], if any.
func (m *simpleMatcher) match(text []rune, pos int) (int, bool) {
	for _, alt := range m.alts {
		if n, ok := matchSequence(alt, text, pos); ok {
			return n, true
		}
	}
	return 0, false
}

func matchSequence(seq []simpleElem, text []rune, pos int) (int, bool) {
	p := pos
	for i := range seq {
		e := &seq[i]
		switch e.kind {
		case simpleString:
			if len(text)-p < len(e.str) {
				return 0, false
			}
			for j, c := range e.str {
				if text[p+j] != c {
					return 0, false
				}
			}
			p += len(e.str)
		case simpleEOL:
			if p < len(text) && text[p] != '\n' {
				return 0, false
			}
		default:
			n := 0
			for n < e.max && p < len(text) && e.in(text[p]) {
				n++
				p++
			}
			if n < e.min {
				return 0, false
			}
		}
	}
	return p - pos, true
}

// ignoreCaseFlag finds an inline (?i...) or (?...i...) option.
var ignoreCaseFlag = regexp.MustCompile(`\(\?[a-zA-Z-]*i`)

// newSimpleMatcher returns a simpleMatcher for a parsed pattern, or nil if
// the pattern is not simple enough (see above). Case-insensitive patterns
// are left to regexp2.
func newSimpleMatcher(pattern string, tree *syntax.RegexTree) *simpleMatcher {
	if ignoreCaseFlag.MatchString(pattern) || tree.Options&(syntax.IgnoreCase|syntax.RightToLeft|syntax.ECMAScript) != 0 {
		return nil
	}
	n := tree.Root
	// The root is group 0; non-capturing groups only group.
	for (n.T == syntax.NtCapture && n == tree.Root || n.T == syntax.NtGroup) && len(n.Children) == 1 {
		n = n.Children[0]
	}
	alts := []*syntax.RegexNode{n}
	if n.T == syntax.NtAlternate {
		alts = n.Children
	}
	m := &simpleMatcher{}
	for _, alt := range alts {
		seq, ok := simpleSequence(alt)
		if !ok {
			return nil
		}
		m.alts = append(m.alts, seq)
	}
	return m
}

// simpleSequence returns the elements of a node, if it is a sequence that
// a greedy match without backtracking matches as regexp2 does.
func simpleSequence(n *syntax.RegexNode) ([]simpleElem, bool) {
	var seq []simpleElem
	if !appendElems(&seq, n) {
		return nil, false
	}
	for i := range seq {
		if seq[i].kind == simpleString || seq[i].kind == simpleEOL || seq[i].min == seq[i].max || seq[i].atomic {
			continue // one length only, or no giving back
		}
		if i+1 < len(seq) && !cannotStartWith(&seq[i+1], &seq[i]) {
			return nil, false
		}
	}
	return seq, true
}

// appendElems appends the elements of n to seq, flattening sequences and
// non-capturing groups; false if n holds anything else.
func appendElems(seq *[]simpleElem, n *syntax.RegexNode) bool {
	if n.Options&(syntax.IgnoreCase|syntax.RightToLeft|syntax.ECMAScript) != 0 {
		return false
	}
	e := simpleElem{min: 1, max: 1}
	switch n.T {
	case syntax.NtConcatenate, syntax.NtGroup:
		for _, c := range n.Children {
			if !appendElems(seq, c) {
				return false
			}
		}
		return true
	case syntax.NtEmpty, syntax.NtUpdateBumpalong:
		// Nothing to match (UpdateBumpalong only tells a search where to
		// try next).
		return true
	case syntax.NtOne, syntax.NtOneloop, syntax.NtOneloopatomic:
		e.kind, e.ch = simpleOne, n.Ch
	case syntax.NtNotone, syntax.NtNotoneloop, syntax.NtNotoneloopatomic:
		e.kind, e.ch = simpleNotOne, n.Ch
	case syntax.NtSet, syntax.NtSetloop, syntax.NtSetloopatomic:
		if n.Set == nil {
			return false
		}
		e.kind, e.set = simpleSet, n.Set
		for c := range rune(128) {
			if n.Set.CharIn(c) {
				e.ascii[c/64] |= 1 << (c % 64)
			}
		}
	case syntax.NtMulti:
		if len(n.Str) == 0 {
			return true
		}
		e.kind, e.str = simpleString, n.Str
	case syntax.NtEol:
		e.kind = simpleEOL
	default:
		return false
	}
	switch n.T {
	case syntax.NtOneloopatomic, syntax.NtNotoneloopatomic, syntax.NtSetloopatomic:
		e.atomic = true
		fallthrough
	case syntax.NtOneloop, syntax.NtNotoneloop, syntax.NtSetloop:
		if n.M < 0 || n.N < n.M {
			return false
		}
		e.min, e.max = n.M, n.N
		if n.N == math.MaxInt32 {
			e.max = math.MaxInt
		}
	}
	*seq = append(*seq, e)
	return true
}

// cannotStartWith reports whether next, when it matches, is sure to
// start with a character that run does not repeat (or, for an end of
// line, at a character that is not one of run's): then run cannot give
// back characters to it.
func cannotStartWith(next, run *simpleElem) bool {
	switch next.kind {
	case simpleEOL:
		return !run.in('\n')
	case simpleString:
		return !run.in(next.str[0])
	}
	if next.min == 0 {
		return false // next can match nothing: what follows it counts too
	}
	switch {
	case next.kind == simpleOne:
		return !run.in(next.ch)
	case run.kind == simpleOne:
		return !next.in(run.ch)
	case next.kind == simpleSet && run.kind == simpleSet:
		return !run.set.MayOverlap(next.set)
	}
	return false
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
