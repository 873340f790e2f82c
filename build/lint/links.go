package lint

import (
	"bytes"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/diag"
)

// mdLink matches an inline Markdown link or image target.
var mdLink = regexp.MustCompile(`!?\[[^\]\n]*\]\(\s*<?([^)\s>]+)>?(?:\s+["'(][^)\n]*)?\)`)

var scheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)

// LocalLinks returns the relative link targets of a Markdown body with the
// line each is on, skipping fenced code and inline code spans. Targets are
// unescaped and cleaned, relative to the skill root; fragments and queries
// are dropped. A target that leaves the skill starts with "../".
func LocalLinks(body []byte, bodyLine int) []LocalLink {
	var out []LocalLink
	inFence := false
	fence := ""
	for i, rest := 0, body; len(rest) > 0; i++ {
		line := rest
		if j := bytes.IndexByte(rest, '\n'); j >= 0 {
			line, rest = rest[:j], rest[j+1:]
		} else {
			rest = nil
		}
		t := strings.TrimLeft(string(line), " ")
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			mark := t[:3]
			if !inFence {
				inFence, fence = true, mark
			} else if mark == fence && strings.Trim(strings.TrimSpace(t), mark[:1]) == "" {
				inFence = false
			}
			continue
		}
		if inFence {
			continue
		}
		if !bytes.Contains(line, []byte("](")) {
			continue // no inline link; the regexp costs more than this test
		}
		l := stripCodeSpans(string(line))
		for _, m := range mdLink.FindAllStringSubmatchIndex(l, -1) {
			target := l[m[2]:m[3]]
			if target == "" || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "/") || scheme.MatchString(target) {
				continue
			}
			if j := strings.IndexAny(target, "#?"); j >= 0 {
				target = target[:j]
			}
			if u, err := url.PathUnescape(target); err == nil {
				target = u
			}
			if target == "" {
				continue
			}
			// Columns count characters, as build/skill's positions do.
			out = append(out, LocalLink{Target: path.Clean(target), Raw: l[m[2]:m[3]], Line: bodyLine + i, Column: utf8.RuneCount(line[:m[0]]) + 1})
		}
	}
	return out
}

// LocalLink is a link from SKILL.md to a file of the skill.
type LocalLink struct {
	Target, Raw  string
	Line, Column int
}

// stripCodeSpans blanks out `code` spans so that links inside them are not
// read, keeping columns unchanged.
func stripCodeSpans(s string) string {
	if !strings.Contains(s, "`") {
		return s
	}
	b := []byte(s)
	in := false
	for i, c := range b {
		if c == '`' {
			in = !in
			continue
		}
		if in {
			b[i] = ' '
		}
	}
	return string(b)
}

func (c *checker) links() {
	s := c.s
	files := make(map[string]bool, len(s.Files))
	dirs := map[string]bool{}
	for _, f := range s.Files {
		files[f.Path] = true
		for d := path.Dir(f.Path); d != "."; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for _, l := range LocalLinks(s.Body, s.BodyLine) {
		pos := diag.Pos{Line: l.Line, Column: l.Column}
		switch {
		case l.Target == ".." || strings.HasPrefix(l.Target, "../"):
			c.add(pos, "reference-missing", "link %q leaves the skill folder, so it breaks once the skill is installed elsewhere; copy the file into the skill", l.Raw)
		case slices.Contains(s.LeftOut, l.Target):
			c.add(pos, "reference-missing", "link %q points to a file the skill leaves out (see the finding on the file), so it breaks once the skill is installed; make the file fit or link to where it is published", l.Raw)
		case !files[l.Target] && !dirs[l.Target] && l.Target != ".":
			c.add(pos, "reference-missing", "link %q points to a file the skill does not contain; add the file or fix the link", l.Raw)
		}
	}
}
