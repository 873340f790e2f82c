package markdown

import (
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
// of which fail, and each run allocates (regexp2 makes a match text and a
// runner for it). That is most of the time and garbage of highlighting.
//
// fastLexer tokenises with the same rules, compiled the same way, and the
// same loop as chroma's LexerState.Iterator, so the tokens are the same;
// but before running a rule's regexp it asks whether the character at the
// position can start a match at all, using the set of first characters
// that regexp2 itself computes for a pattern (and relies on when it
// searches). Rules whose first characters do not include the one at hand
// are skipped without running anything. Rules that can match the empty
// string, or whose first characters regexp2 cannot tell, are always run.

// fastLexer is a chroma.RegexLexer's rules, compiled for tokenising.
type fastLexer struct {
	lexer *chroma.RegexLexer
	// rules is what emitters and mutators see in LexerState.Rules, as in
	// chroma; states holds the same rules with their first characters.
	rules  chroma.CompiledRules
	states map[string][]fastRule
}

// fastRule is a compiled rule and the characters that can start a match
// of it; first is nil when any character can (or the rule can match the
// empty string).
type fastRule struct {
	*chroma.CompiledRule
	first *syntax.CharSet
}

// canStart reports whether a match of r can start with c.
func (r *fastRule) canStart(c rune) bool {
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
	first := map[*chroma.CompiledRule]*syntax.CharSet{}
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
			first[cr] = firstChars(pattern)
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
			fr[i] = fastRule{cr, first[cr]}
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

// firstChars returns the characters that can start a match of pattern, or
// nil if regexp2 cannot tell or the pattern can match the empty string.
// It is computed on the pattern without chroma's \G anchor, as regexp2
// computes it for a search; a pattern that itself uses \G is left
// unfiltered.
func firstChars(pattern string) *syntax.CharSet {
	if strings.Contains(pattern, `\G`) {
		return nil
	}
	tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
	if err != nil {
		return nil
	}
	code, err := syntax.Write(tree)
	if err != nil || code.FcPrefix == nil || code.RightToLeft {
		return nil
	}
	code.PrepareCharSetASCIIBitmaps()
	set := code.FcPrefix.PrefixSet
	return &set
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
	}
	s.end = len(s.st.Text)
	if newlineAdded {
		s.end--
	}
	return s.next
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
		index, rule, groups, named := match(l.Text, l.Pos, rules)
		if groups == nil {
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
		l.Groups = groups
		l.NamedGroups = named
		l.Pos += utf8.RuneCountInString(groups[0])
		if rule.Mutator != nil {
			if err := rule.Mutator.Mutate(l); err != nil {
				panic(err)
			}
		}
		if rule.Type != nil {
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
// the character at pos.
func match(text []rune, pos int, rules []fastRule) (int, *chroma.CompiledRule, []string, map[string]string) {
	c := text[pos]
	for i := range rules {
		rule := &rules[i]
		if !rule.canStart(c) {
			continue
		}
		m, err := rule.Regexp.FindRunesMatchStartingAt(text, pos)
		if m != nil && err == nil && m.RuneIndex == pos {
			groups := []string{}
			named := make(map[string]string)
			for _, g := range m.Groups() {
				named[g.Name] = g.String()
				groups = append(groups, g.String())
			}
			return i, rule.CompiledRule, groups, named
		}
	}
	return 0, &chroma.CompiledRule{}, nil, nil
}
