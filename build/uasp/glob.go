package uasp

import (
	"fmt"
	"strings"
)

// Match reports whether s matches the glob pattern with the semantics of
// Python's fnmatch.fnmatch(s.lower(), pattern.lower()), which uasp.md 6.4
// uses for filters: case-insensitive; * matches any run of characters
// (slashes included), ? any one character, [seq] one character of seq,
// [!seq] one character not in seq, ranges a-z inside brackets; a [ without
// its closing ] is an ordinary character; there is no escape character.
func Match(pattern, s string) bool {
	p := []rune(strings.ToLower(pattern))
	t := []rune(strings.ToLower(s))
	// Iterative matching with one backtrack point for the last star: linear
	// in practice, never exponential.
	pi, ti := 0, 0
	starP, starT := -1, 0
	for ti < len(t) {
		if pi < len(p) {
			switch p[pi] {
			case '*':
				starP, starT = pi, ti
				pi++
				continue
			case '?':
				pi++
				ti++
				continue
			case '[':
				if ok, width, matched := matchClass(p[pi:], t[ti]); ok {
					if matched {
						pi += width
						ti++
						continue
					}
				} else if t[ti] == '[' { // unterminated: a literal [
					pi++
					ti++
					continue
				}
			default:
				if p[pi] == t[ti] {
					pi++
					ti++
					continue
				}
			}
		}
		if starP < 0 {
			return false
		}
		starT++
		pi, ti = starP+1, starT
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// checkGlob says what is wrong with a filter's pattern: a '[' without its
// closing ']', which Match would read as an ordinary character (as
// fnmatch does) but which is nearly always a typo, and would silently
// match nothing.
func checkGlob(key, pattern string) error {
	p := []rune(pattern)
	for i := 0; i < len(p); i++ {
		if p[i] != '[' {
			continue
		}
		ok, width, _ := matchClass(p[i:], 0)
		if !ok {
			return fmt.Errorf("filter %s=%s: the '[' at character %d is never closed; close the class ([abc] matches a, b or c) or write [[] to match a '['", key, pattern, i+1)
		}
		i += width - 1
	}
	return nil
}

// matchClass reads the bracket expression at the start of p (p[0] == '[')
// as Python's fnmatch.translate does. ok is false when the bracket is not
// closed; width is the expression's length in runes.
func matchClass(p []rune, c rune) (ok bool, width int, matched bool) {
	j := 1
	if j < len(p) && p[j] == '!' {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for j < len(p) && p[j] != ']' {
		j++
	}
	if j >= len(p) {
		return false, 0, false
	}
	body := p[1:j]
	negate := false
	if len(body) > 0 && body[0] == '!' {
		negate = true
		body = body[1:]
	}
	in := false
	for i := 0; i < len(body); i++ {
		lo := body[i]
		if i+2 < len(body) && body[i+1] == '-' {
			hi := body[i+2]
			// Python drops ranges whose ends are reversed (z-a).
			if lo <= hi && c >= lo && c <= hi {
				in = true
			}
			i += 2
			continue
		}
		if c == lo {
			in = true
		}
	}
	return true, j + 1, in != negate
}
