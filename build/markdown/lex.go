package markdown

import (
	"errors"
	"math"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// chroma's regexp lexers find each token by trying the current state's
// rules in order, each a regexp anchored at the position, until one
// matches: a token of ordinary code costs ten to thirty regexp runs, most
// of which fail, and each run allocates (regexp2 makes a match text, a
// match and its groups). That was most of the time and garbage of
// highlighting.
//
// fastLexer tokenises with the same rules, compiled the same way, in the
// same loop as chroma's LexerState.Iterator, so the tokens are the same
// (lex_test.go compares them for every lexer). It runs fewer regexps:
//
//   - a rule is skipped where the character at the position cannot start
//     a match (by the first characters regexp2 computes for a pattern and
//     relies on when it searches), and where the text starts with none of
//     the strings every match starts with (keyword lists);
//   - a plain pattern is matched by a simpleMatcher (simple.go);
//   - a rule whose groups nobody reads runs a regexp that does not
//     capture.
//
// And it allocates less per token: a match's groups are slices of the
// text, kept in one slice and one map refilled at each match, and a plain
// token type's token is returned without making chroma's iterator for it.

// fastLexer is a chroma.RegexLexer's rules, compiled for tokenising.
type fastLexer struct {
	lexer *chroma.RegexLexer
	// rules is what emitters and mutators see in LexerState.Rules, as in
	// chroma; states holds the same rules with their first characters.
	rules  chroma.CompiledRules
	states map[string][]fastRule
}

// fastRule is a compiled rule and what fastLexer knows of it.
type fastRule struct {
	*chroma.CompiledRule
	// ascii has bit c set for each character c below 128 that can start
	// a match (a table, because CharSet.CharIn copies the set at each
	// call), and first, when not nil, holds them all (nil: any character
	// can start a match, or the rule can match the empty string).
	ascii [2]uint64
	first *syntax.CharSet
	// simple, when not nil, matches the rule's pattern in place of its
	// regexp.
	simple *simpleMatcher
	// wholeOnly is true when nothing reads a match's groups but the
	// whole match: the rule emits a plain token type and its mutator, if
	// any, only pushes or pops states. Then only the whole match is kept
	// in LexerState.Groups, and regexp2 need not make the others.
	wholeOnly bool
	// regexp is the rule's regexp, or for a wholeOnly rule whose groups
	// only group, the same without capturing groups.
	regexp *regexp2.Regexp
	// prefixes, when not nil, holds strings one of which every match
	// starts with.
	prefixes prefixFilter
}

func newFastRule(cr *chroma.CompiledRule, a analysis) fastRule {
	r := fastRule{CompiledRule: cr, first: a.first, simple: a.simple, prefixes: a.prefixes}
	_, plain := cr.Type.(chroma.TokenType)
	r.wholeOnly = plain && stackOnly(cr.Mutator)
	if r.wholeOnly && a.simple == nil && a.capturesIdle {
		// The same pattern with its groups not capturing: regexp2 then
		// keeps no capture for each character a group in a loop matches
		// (as in "(\\\\|\\"|[^"])*").
		if re, err := regexp2.Compile(`\G`+a.pattern, regexp2.ExplicitCapture); err == nil {
			re.MatchTimeout = matchTimeout
			r.regexp = re
		}
	}
	if r.regexp == nil {
		r.regexp = cr.Regexp
	}
	first := a.first
	for c := range rune(128) {
		if first == nil || first.CharIn(c) {
			r.ascii[c/64] |= 1 << (c % 64)
		}
	}
	return r
}

// stackOnly reports whether a rule's mutator is nil or chroma's push or
// pop (Combined becomes a push when the rules are compiled), which change
// the state stack and read nothing else.
func stackOnly(m chroma.Mutator) bool {
	if m == nil {
		return true
	}
	k, ok := m.(chroma.SerialisableMutator)
	return ok && (k.MutatorKind() == "push" || k.MutatorKind() == "pop")
}

// canStart reports whether a match of r can start with c.
func (r *fastRule) canStart(c rune) bool {
	if c < 128 {
		return r.ascii[c/64]&(1<<(c%64)) != 0
	}
	return r.first == nil || r.first.CharIn(c)
}

// fastLexers maps a chroma.Lexer to its *lazyFastLexer. It holds one
// entry per lexer of the registry at most: lexerFor returns nothing else.
var fastLexers sync.Map

// lazyFastLexer compiles a fastLexer on first use: compiling a lexer's
// rules costs milliseconds, which only lexers a catalog uses should cost.
type lazyFastLexer struct {
	once sync.Once
	f    *fastLexer // nil: tokenise with chroma
}

// tokenise is lexer.Tokenise(nil, code), by a fastLexer when lexer has
// one.
func tokenise(lexer chroma.Lexer, code string) (chroma.Iterator, error) {
	v, ok := fastLexers.Load(lexer)
	if !ok {
		v, _ = fastLexers.LoadOrStore(lexer, &lazyFastLexer{})
	}
	lazy := v.(*lazyFastLexer)
	lazy.once.Do(func() { lazy.f = newFastLexer(lexer) })
	if lazy.f == nil {
		return lexer.Tokenise(nil, code)
	}
	return lazy.f.Tokenise(code), nil
}

// matchTimeout is chroma's bound on one regexp run.
const matchTimeout = 250 * time.Millisecond

// noFastLexer names the lexers tokenised by chroma itself: Raku's
// mutators rewrite the rule table while lexing, which fastLexer's
// precomputed states would not see.
var noFastLexer = map[string]bool{"Raku": true}

// newFastLexer compiles l's rules as chroma does (RegexLexer.maybeCompile),
// or returns nil if l is not a plain regexp lexer of the global registry
// or its rules do not compile.
func newFastLexer(l chroma.Lexer) (f *fastLexer) {
	rl, ok := l.(*chroma.RegexLexer)
	if !ok || noFastLexer[rl.Config().Name] || lexers.GlobalLexerRegistry.Get(rl.Config().Name) != l {
		return nil
	}
	defer func() {
		if recover() != nil {
			f = nil
		}
	}()
	raw, err := rl.Rules()
	if err != nil {
		return nil
	}
	cfg := rl.Config()
	flags := ""
	if !cfg.NotMultiline {
		flags += "m"
	}
	if cfg.CaseInsensitive {
		flags += "i"
	}
	if cfg.DotAll {
		flags += "s"
	}
	compiled := chroma.CompiledRules{}
	analysed := map[*chroma.CompiledRule]analysis{}
	for state, rules := range raw {
		compiled[state] = nil
		for _, rule := range rules {
			pattern := "(?:" + rule.Pattern + ")"
			if flags != "" {
				pattern = "(?" + flags + ")" + pattern
			}
			re, err := regexp2.Compile(`\G` + pattern)
			if err != nil {
				return nil
			}
			re.MatchTimeout = matchTimeout
			cr := &chroma.CompiledRule{Rule: rule, Regexp: re}
			analysed[cr] = analyse(pattern)
			compiled[state] = append(compiled[state], cr)
		}
	}
	if !applyLexerMutators(compiled) {
		return nil
	}
	f = &fastLexer{lexer: rl, rules: compiled, states: make(map[string][]fastRule, len(compiled))}
	for state, rules := range compiled {
		fr := make([]fastRule, len(rules))
		for i, cr := range rules {
			fr[i] = newFastRule(cr, analysed[cr])
		}
		f.states[state] = fr
	}
	return f
}

// applyLexerMutators runs the compile-time mutators (include, combined)
// over rules as chroma's maybeCompile does: after each one, from the
// start, until none is left.
func applyLexerMutators(rules chroma.CompiledRules) bool {
restart:
	seen := map[chroma.LexerMutator]bool{}
	for state := range rules {
		for i := range len(rules[state]) {
			m, ok := rules[state][i].Mutator.(chroma.LexerMutator)
			if !ok {
				continue
			}
			if seen[m] {
				return false
			}
			seen[m] = true
			if err := m.MutateLexer(rules, state, i); err != nil {
				return false
			}
			goto restart
		}
	}
	for state := range rules {
		for _, rule := range rules[state] {
			if v, ok := rule.Type.(chroma.ValidatingEmitter); ok {
				if v.ValidateEmitter(rule) != nil {
					return false
				}
			}
		}
	}
	return true
}

// analysis is what fastLexer knows of a pattern: the characters that can
// start a match (nil if regexp2 cannot tell, or the pattern can match the
// empty string), a simpleMatcher if it has one, and whether its groups
// only capture (no backreference, balancing group or condition reads
// them), so that not capturing would not change what it matches.
type analysis struct {
	pattern      string
	first        *syntax.CharSet
	simple       *simpleMatcher
	prefixes     prefixFilter
	capturesIdle bool
}

// analyse parses a pattern without chroma's \G anchor, as regexp2 does
// for a search, takes the first characters that regexp2 computes for it,
// and makes its simpleMatcher and prefix filter if it has them. A pattern
// that itself uses \G is left alone.
func analyse(pattern string) analysis {
	if strings.Contains(pattern, `\G`) {
		return analysis{}
	}
	tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
	if err != nil {
		return analysis{}
	}
	a := analysis{pattern: pattern, simple: newSimpleMatcher(pattern, tree), capturesIdle: capturesIdle(tree.Root)}
	a.prefixes = newPrefixFilter(pattern, tree)
	code, err := syntax.Write(tree)
	if err != nil || code.FcPrefix == nil || code.RightToLeft {
		return a
	}
	code.PrepareCharSetASCIIBitmaps()
	set := code.FcPrefix.PrefixSet
	a.first = &set
	return a
}

// capturesIdle reports whether nothing in the tree under n depends on
// what a group captured.
func capturesIdle(n *syntax.RegexNode) bool {
	switch n.T {
	case syntax.NtRef, syntax.NtBackRefCond, syntax.NtExprCond:
		return false
	case syntax.NtCapture:
		if n.N != -1 { // a balancing group: (?<a-b>...)
			return false
		}
	}
	for _, c := range n.Children {
		if !capturesIdle(c) {
			return false
		}
	}
	return true
}

// Tokenise is chroma's RegexLexer.Tokenise with options nil.
func (f *fastLexer) Tokenise(text string) chroma.Iterator {
	if strings.IndexByte(text, '\r') >= 0 {
		text = ensureLF(text)
	}
	newlineAdded := false
	if f.lexer.Config().EnsureNL && !strings.HasSuffix(text, "\n") {
		text += "\n"
		newlineAdded = true
	}
	s := &fastState{
		f: f,
		st: chroma.LexerState{
			Lexer:          f.lexer,
			Registry:       lexers.GlobalLexerRegistry,
			Text:           []rune(text),
			Stack:          []string{"root"},
			Rules:          f.rules,
			MutatorContext: map[any]any{},
		},
		text:  text,
		named: map[string]string{},
	}
	s.end = len(s.st.Text)
	if newlineAdded {
		s.end--
	}
	s.offsets, s.copyGroups = runeOffsets(text, len(s.st.Text))
	return s.next
}

// runeOffsets returns the byte offset in text of each rune, and of its
// end, so that a match's groups can be sliced from text rather than
// copied from the runes: nil if they are the same (ASCII). For invalid
// UTF-8 the runes do not encode back to text, and copy is true.
func runeOffsets(text string, runes int) (offsets []int32, copy bool) {
	if !utf8.ValidString(text) || len(text) > math.MaxInt32 {
		return nil, true
	}
	if len(text) == runes {
		return nil, false
	}
	offsets = make([]int32, 0, runes+1)
	for i := range text {
		offsets = append(offsets, int32(i))
	}
	return append(offsets, int32(len(text))), false
}

// ensureLF is chroma's: \r\n and \r become \n.
func ensureLF(text string) string {
	buf := make([]byte, len(text))
	var j int
	for i := range len(text) {
		c := text[i]
		if c == '\r' {
			if i < len(text)-1 && text[i+1] == '\n' {
				continue
			}
			c = '\n'
		}
		buf[j] = c
		j++
	}
	return string(buf[:j])
}

// fastState is one tokenisation: chroma's LexerState and the iterators of
// the tokens matched but not yet returned.
type fastState struct {
	f     *fastLexer
	st    chroma.LexerState
	stack []chroma.Iterator
	end   int // len(Text), less the newline Tokenise added

	// text is Text as a string, and offsets the byte offset of each rune
	// (see runeOffsets).
	text       string
	offsets    []int32
	copyGroups bool
	// groups and named are LexerState.Groups and NamedGroups, refilled
	// at each match. chroma makes new ones each time, but emitters and
	// mutators read them only while the match is handled: the emitters'
	// iterators are drained before the next match is tried.
	groups []string
	named  map[string]string
	// starts is simpleMatcher's scratch: where each element matched.
	starts []int
	// stalls counts the matches in a row that consumed nothing.
	stalls int
}

// next is chroma's LexerState.Iterator, with the rules matched by match.
func (s *fastState) next() chroma.Token {
	l := &s.st
	for l.Pos < s.end && len(l.Stack) > 0 {
		if t, ok := s.pending(); ok {
			return t
		}
		l.State = l.Stack[len(l.Stack)-1]
		rules, ok := s.f.states[l.State]
		if !ok {
			panic("unknown state " + l.State)
		}
		index, rule := s.match(rules)
		if rule == nil {
			// As chroma (after Pygments): an unmatched newline outside the
			// root state resets the stack.
			if l.Text[l.Pos] == '\n' && l.State != "root" {
				l.Stack = []string{"root"}
				continue
			}
			l.Pos++
			return chroma.Token{Type: chroma.Error, Value: string(l.Text[l.Pos-1 : l.Pos])}
		}
		l.Rule = index
		l.Groups = s.groups
		l.NamedGroups = s.named
		before := l.Pos
		l.Pos += utf8.RuneCountInString(s.groups[0])
		if rule.Mutator != nil {
			if err := rule.Mutator.Mutate(l); err != nil {
				panic(err)
			}
		}
		s.checkProgress(before)
		if t, ok := rule.Type.(chroma.TokenType); ok {
			// What TokenType.Emit's iterator would give, without making
			// it: the stack is empty, so this token is the next.
			if tok := (chroma.Token{Type: t, Value: l.Groups[0]}); t != chroma.Ignore && tok != chroma.EOF {
				return tok
			}
		} else if rule.Type != nil {
			s.stack = append(s.stack, rule.Type.Emit(l.Groups, l))
		}
	}
	if t, ok := s.pending(); ok {
		return t
	}
	if l.Pos != len(l.Text) && len(l.Stack) == 0 {
		value := string(l.Text[l.Pos:])
		l.Pos = len(l.Text)
		return chroma.Token{Type: chroma.Error, Value: value}
	}
	return chroma.EOF
}

// maxStalls bounds the matches in a row that consume nothing. Some of
// chroma's lexers never end on some inputs (JSONata and Jungle, after an
// unterminated string, match the empty string forever, making an empty
// token each time); chroma would hang the build there. A lexer that ends
// does not come near this many.
const maxStalls = 10000

// errLexerStalls stops a tokenisation that does not move on: highlight
// recovers from the panic and shows the block plain.
var errLexerStalls = errors.New("markdown: the lexer matches nothing forever")

// checkProgress counts the matches in a row that left the position at
// before, and panics with errLexerStalls past maxStalls.
func (s *fastState) checkProgress(before int) {
	if s.st.Pos != before {
		s.stalls = 0
		return
	}
	if s.stalls++; s.stalls > maxStalls {
		panic(errLexerStalls)
	}
}

// pending returns the next token of the iterators stacked by emitters.
func (s *fastState) pending() (chroma.Token, bool) {
	for len(s.stack) > 0 {
		n := len(s.stack) - 1
		t := s.stack[n]()
		if t.Type == chroma.Ignore {
			continue
		}
		if t == chroma.EOF {
			s.stack = s.stack[:n]
			continue
		}
		return t, true
	}
	return chroma.Token{}, false
}

// match is chroma's matchRules, skipping the rules that cannot start with
// the character at the position: it returns the first rule of rules that
// matches there, and its index, and sets s.groups and s.named; or nil.
func (s *fastState) match(rules []fastRule) (int, *chroma.CompiledRule) {
	text, pos := s.st.Text, s.st.Pos
	c := text[pos]
	for i := range rules {
		rule := &rules[i]
		if !rule.canStart(c) {
			continue
		}
		if sm := rule.simple; sm != nil {
			if len(s.starts) <= sm.longest {
				s.starts = make([]int, sm.longest+1)
			}
			end, ok, decided := sm.match(text, pos, s.starts)
			if decided {
				if !ok {
					continue
				}
				s.groups = s.groups[:0]
				clear(s.named)
				s.addGroup(sm.names[0], pos, end-pos)
				if !rule.wholeOnly {
					for g, span := range sm.groups {
						from, to := s.starts[span.from], s.starts[span.to]
						s.addGroup(sm.names[g+1], from, to-from)
					}
				}
				return i, rule.CompiledRule
			}
		}
		if rule.prefixes != nil && !rule.prefixes.allows(text, pos) {
			continue
		}
		m, err := rule.regexp.FindRunesMatchStartingAt(text, pos)
		if m == nil || err != nil || m.RuneIndex != pos {
			continue
		}
		s.groups = s.groups[:0]
		clear(s.named)
		if m.GroupCount() == 1 || rule.wholeOnly {
			s.addGroup(m.Name, m.RuneIndex, m.RuneLength) // no []Group made
		} else {
			for _, g := range m.Groups() {
				s.addGroup(g.Name, g.RuneIndex, g.RuneLength)
			}
		}
		return i, rule.CompiledRule
	}
	return 0, nil
}

// addGroup appends the group of runes [index, index+length) to s.groups
// and s.named.
func (s *fastState) addGroup(name string, index, length int) {
	var v string
	switch {
	case s.copyGroups:
		v = string(s.st.Text[index : index+length])
	case s.offsets == nil:
		v = s.text[index : index+length]
	default:
		v = s.text[s.offsets[index]:s.offsets[index+length]]
	}
	s.groups = append(s.groups, v)
	s.named[name] = v
}
