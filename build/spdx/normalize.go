package spdx

import (
	"net/url"
	"slices"
	"strings"
	"unicode"
)

// Normalize returns the SPDX license expression a frontmatter license
// names, for people to filter by: "" when text is empty, Other when it
// names no license clearly.
//
// An SPDX expression comes back with its identifiers spelt as the SPDX
// list spells them and its operators in capitals ("mit or apache-2.0" is
// "MIT OR Apache-2.0"); the deprecated GNU identifiers become their -only
// and -or-later forms ("GPL-3.0+" is "GPL-3.0-or-later"). Otherwise text
// is read as license names joined by "or", "and" or "/" ("MIT license",
// "Apache License, Version 2.0", "GPLv3", "MIT/Apache 2.0"; "and" is OR
// in text that says "dual licensed"), each of which
// must be a name the table of aliases knows, give or take "the",
// "license" and "version": text that is more than that ("Complete terms
// in LICENSE.txt", "Proprietary", a sentence about the license) is Other.
// So is a URL, unless it is a license's page on spdx.org, opensource.org
// or choosealicense.com.
func Normalize(text string) string {
	text = strings.TrimSpace(text)
	if text == "" {
		return ""
	}
	if len(text) > maxText {
		return Other
	}
	if expr, ok := parseExpression(text); ok {
		return expr
	}
	if strings.HasPrefix(text, "http://") || strings.HasPrefix(text, "https://") {
		return fromURL(text)
	}
	parts, ops := splitNames(text)
	dual := isDual(text)
	var b strings.Builder
	for i, p := range parts {
		id, ok := nameOf(p)
		if !ok {
			return Other
		}
		if i > 0 {
			op := ops[i-1]
			if dual {
				// "Dual licensed under MIT and Apache 2.0" offers either.
				op = "OR"
			}
			b.WriteString(" " + op + " ")
		}
		b.WriteString(id)
	}
	return b.String()
}

// isDual reports whether text says the work is dual licensed ("dual",
// "dual-licensed"): its licenses are then alternatives, whatever word
// joins them.
func isDual(text string) bool {
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) })
	return slices.Contains(words, "dual")
}

// maxText bounds the text Normalize reads: a license name is short, and
// past this it is prose.
const maxText = 200

// canonical returns the identifier id (a key of licenses, or a
// LicenseRef-) as Normalize writes it, plus being a trailing "+".
func canonical(id string, plus bool) string {
	if deprecatedGNU[id] {
		if plus {
			return id + "-or-later"
		}
		return id + "-only"
	}
	if plus {
		return id + "+"
	}
	return id
}

// parseExpression reads text as an SPDX license expression: identifiers
// (with an optional "+" and "WITH exception"), AND and OR in any case,
// and parentheses. It returns the expression as Normalize writes it.
func parseExpression(text string) (string, bool) {
	toks, ok := tokenize(text)
	if !ok || len(toks) == 0 {
		return "", false
	}
	p := &exprParser{toks: toks}
	if !p.or() || p.i != len(toks) {
		return "", false
	}
	return strings.NewReplacer("( ", "(", " )", ")").Replace(strings.Join(p.out, " ")), true
}

// tokenize splits an SPDX expression into identifiers and parentheses;
// ok is false when text holds any other character.
func tokenize(text string) (toks []string, ok bool) {
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c == '(' || c == ')':
			toks = append(toks, text[i:i+1])
			i++
		case isIDRune(rune(c)):
			j := i
			for j < len(text) && isIDRune(rune(text[j])) {
				j++
			}
			toks = append(toks, text[i:j])
			i = j
		default:
			return nil, false
		}
	}
	return toks, true
}

// exprParser is a recursive-descent parser of the SPDX expression
// grammar (SPDX 2.3, annex D); out collects the tokens as Normalize
// writes them.
type exprParser struct {
	toks []string
	i    int
	out  []string
}

func (p *exprParser) peekOp(op string) bool {
	return p.i < len(p.toks) && strings.EqualFold(p.toks[p.i], op)
}

// or reads and-expressions joined by OR; and reads terms joined by AND:
// AND binds the tighter.
func (p *exprParser) or() bool  { return p.joined("OR", p.and) }
func (p *exprParser) and() bool { return p.joined("AND", p.term) }

// joined reads operands (with next) joined by the operator op.
func (p *exprParser) joined(op string, next func() bool) bool {
	if !next() {
		return false
	}
	for p.peekOp(op) {
		p.i++
		p.out = append(p.out, op)
		if !next() {
			return false
		}
	}
	return true
}

// term reads a parenthesised expression or a license, with its exception.
func (p *exprParser) term() bool {
	if p.i >= len(p.toks) {
		return false
	}
	if p.toks[p.i] == "(" {
		p.i++
		p.out = append(p.out, "(")
		if !p.or() || p.i >= len(p.toks) || p.toks[p.i] != ")" {
			return false
		}
		p.i++
		p.out = append(p.out, ")")
		return true
	}
	tok := p.toks[p.i]
	plus := strings.HasSuffix(tok, "+")
	id, ok := lookup(strings.TrimSuffix(tok, "+"))
	if !ok {
		return false
	}
	p.i++
	p.out = append(p.out, canonical(id, plus))
	if p.peekOp("WITH") {
		p.i++
		if p.i >= len(p.toks) {
			return false
		}
		exc, ok := exceptions[strings.ToLower(p.toks[p.i])]
		if !ok {
			return false
		}
		p.i++
		p.out = append(p.out, "WITH", exc)
	}
	return true
}

// fromURL names the license of a license page's URL on the sites that
// keep one page per SPDX identifier; any other URL is Other.
func fromURL(text string) string {
	u, err := url.Parse(text)
	if err != nil {
		return Other
	}
	host := strings.TrimPrefix(strings.ToLower(u.Hostname()), "www.")
	segs := strings.FieldsFunc(u.Path, func(r rune) bool { return r == '/' })
	if len(segs) != 2 {
		return Other
	}
	switch host {
	case "spdx.org", "opensource.org", "choosealicense.com":
	default:
		return Other
	}
	if seg := strings.ToLower(segs[0]); seg != "licenses" && seg != "license" {
		return Other
	}
	name := segs[1]
	for _, ext := range []string{".html", ".php", ".txt"} {
		name = strings.TrimSuffix(name, ext)
	}
	if id, ok := lookup(name); ok && !strings.HasPrefix(id, "LicenseRef-") {
		return canonical(id, false)
	}
	if id, ok := aliases[key(name)]; ok {
		return id
	}
	return Other
}

// splitNames splits text into license names at "or", "and", "/" and "&",
// returning the names and the SPDX operators between them. "or later"
// and "or any later" do not split: they belong to the name.
func splitNames(text string) (names, ops []string) {
	words := strings.Fields(strings.NewReplacer("/", " / ", "&", " & ").Replace(text))
	var cur []string
	flush := func() {
		names = append(names, strings.Join(cur, " "))
		cur = nil
	}
	for i, w := range words {
		op := ""
		switch strings.ToLower(w) {
		case "or":
			next := ""
			if i+1 < len(words) {
				next = strings.ToLower(words[i+1])
			}
			if next != "later" && next != "any" && next != "newer" {
				op = "OR"
			}
		case "/":
			op = "OR"
		case "and", "&":
			op = "AND"
		}
		if op == "" {
			cur = append(cur, w)
			continue
		}
		flush()
		ops = append(ops, op)
	}
	flush()
	return names, ops
}

// nameOf returns the SPDX identifier one license name stands for: an
// identifier (as parseExpression reads one), or a name whose key is in
// the table of aliases.
func nameOf(name string) (string, bool) {
	if expr, ok := parseExpression(name); ok && !strings.ContainsAny(expr, " ()") {
		return expr, true
	}
	id, ok := aliases[key(name)]
	return id, ok
}

// filler are the words a license name may have around the name itself.
var filler = map[string]bool{
	"the": true, "license": true, "licensed": true, "version": true, "v": true, "ver": true,
	"under": true, "released": true, "available": true, "dual": true,
	"international": true, "unported": true, "universal": true,
}

// key reduces a license name to the words that tell licenses apart, so
// that spellings of one name share it: lowercase, "licence" as
// "license", punctuation and filler words dropped, letters split from the
// digits that follow them ("GPLv3" is "gpl 3"), ".0" dropped from
// version numbers ("2.0" is "2"), "+", "or later" and "or any later" as
// "+", and a word repeated next to itself once ("The MIT License (MIT)"
// is "mit").
func key(name string) string {
	name = strings.ReplaceAll(strings.ToLower(name), "licence", "license")
	var words []string
	add := func(w string) {
		w = strings.TrimRight(w, ".")
		for strings.HasSuffix(w, ".0") && len(w) > 2 && isDigit(w[len(w)-3]) {
			w = w[:len(w)-2]
		}
		if w == "" || filler[w] || (len(words) > 0 && words[len(words)-1] == w) {
			return
		}
		words = append(words, w)
	}
	fields := strings.FieldsFunc(name, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '.' || r == '+')
	})
	for _, f := range fields {
		for i := 0; i < len(f); {
			j := i + 1
			switch {
			case f[i] == '+':
				add("+")
			case isDigit(f[i]):
				// Digits run on to the next "+": "1.3c" and "0bsd" are
				// one word.
				for j < len(f) && f[j] != '+' {
					j++
				}
				add(f[i:j])
			default:
				// Letters (and dots: "license.txt" is one word) run on
				// to the next digit.
				for j < len(f) && f[j] != '+' && !isDigit(f[j]) {
					j++
				}
				w := f[i:j]
				if j < len(f) && isDigit(f[j]) && len(w) > 1 && strings.HasSuffix(w, "v") {
					w = w[:len(w)-1] // GPLv3
				}
				add(w)
			}
			i = j
		}
	}
	// "or later" and "or any later" are "+".
	out := make([]string, 0, len(words))
	for i := 0; i < len(words); i++ {
		switch {
		case words[i] == "or" && i+1 < len(words) && (words[i+1] == "later" || words[i+1] == "newer"):
			out = append(out, "+")
			i++
		case words[i] == "or" && i+2 < len(words) && words[i+1] == "any" && (words[i+2] == "later" || words[i+2] == "newer"):
			out = append(out, "+")
			i += 2
		default:
			out = append(out, words[i])
		}
	}
	return strings.Join(out, " ")
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
