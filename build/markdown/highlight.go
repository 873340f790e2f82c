package markdown

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/alecthomas/chroma/v2"
	chromahtml "github.com/alecthomas/chroma/v2/formatters/html"
	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// Chroma is called directly rather than through goldmark-highlighting:
// that extension looks the lexer up for every block (lexers.Get falls back
// to matching every lexer's filename globs for an unknown name), formats through chroma's HTML formatter (fmt.Sprintf per
// token, line spans we do not want) and has no notion of a per-body budget
// or a fallback to plain text when a lexer fails. Here the lookup is
// cached, tokens are written straight into the pooled output with classes
// only, and a block that is too big, or a lexer that errs or panics, gives
// the plain escaped block.

// lexerCache maps a fenced block's language, as written, to its lexer (a
// nil value: no lexer, shown plain). It holds at most maxLexerCache
// names, so that bodies full of made-up language names cannot grow it
// without bound; beyond that, lookups still work, uncached.
var (
	lexerCache    sync.Map
	lexerCacheLen atomic.Int32
)

const maxLexerCache = 1024

// lexerFor returns the lexer for a fenced block's language, or nil if
// there is none or it is plain text.
func lexerFor(lang string) chroma.Lexer {
	if v, ok := lexerCache.Load(lang); ok {
		l, _ := v.(chroma.Lexer)
		return l
	}
	l := lookupLexer(lang)
	if lexerCacheLen.Load() < maxLexerCache {
		if _, loaded := lexerCache.LoadOrStore(lang, l); !loaded {
			lexerCacheLen.Add(1)
		}
	}
	return l
}

func lookupLexer(lang string) (l chroma.Lexer) {
	defer func() {
		if recover() != nil {
			l = nil
		}
	}()
	l = lexers.Get(lang)
	if l == nil {
		return nil
	}
	// Highlighting plain text would only wrap it in a span.
	if name := strings.ToLower(l.Config().Name); name == "plaintext" || name == "text" {
		return nil
	}
	return l
}

// Highlighted blocks are remembered by language and content: chroma's
// lexers try each rule's regexp in turn at every token, which makes
// highlighting most of a body's rendering time, and the same blocks come
// back when serve rebuilds after an edit and
// when skills of a catalog share boilerplate (install commands, config
// snippets). The cache holds at most maxHighlightCache bytes of output;
// when full it is emptied and starts again, which is simple and keeps the
// bound strict.
type hlKey struct {
	lexer string
	sum   [sha256.Size]byte
}

var hlCache struct {
	sync.RWMutex
	m    map[hlKey][]byte
	size int
}

const maxHighlightCache = 16 << 20

// highlightCacheOff turns the cache off, for benchmarks of a cold build.
var highlightCacheOff bool

func cachedHighlight(lexer chroma.Lexer, code []byte) []byte {
	if highlightCacheOff {
		buf := highlight(lexer, code)
		if buf == nil {
			return nil
		}
		out := bytes.Clone(buf.Bytes())
		putScratch(buf)
		return out
	}
	key := hlKey{lexer.Config().Name, sha256.Sum256(code)}
	hlCache.RLock()
	out, ok := hlCache.m[key]
	hlCache.RUnlock()
	if ok {
		return out
	}
	buf := highlight(lexer, code)
	if buf == nil {
		return nil
	}
	out = bytes.Clone(buf.Bytes())
	putScratch(buf)
	hlCache.Lock()
	if hlCache.m == nil || hlCache.size+len(out) > maxHighlightCache {
		hlCache.m, hlCache.size = map[hlKey][]byte{}, 0
	}
	if len(out) <= maxHighlightCache {
		hlCache.m[key] = out
		hlCache.size += len(out)
	}
	hlCache.Unlock()
	return out
}

// scratch pools the buffers tokens are written to before they are copied
// into the output: a lexer can fail half way, and then the block is shown
// plain instead.
var scratch = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// highlight writes code tokenised by lexer as spans with chroma's short
// class names ("k", "s2", ...) into a buffer and returns it (to be given
// back with putScratch), or nil if the lexer failed or panicked.
func highlight(lexer chroma.Lexer, code []byte) (out *bytes.Buffer) {
	buf := scratch.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if recover() != nil {
			putScratch(buf)
			out = nil
		}
	}()
	it, err := lexer.Tokenise(nil, string(code))
	if err != nil {
		putScratch(buf)
		return nil
	}
	// Adjacent tokens with the same class are written as one span: lexers
	// emit many small tokens (one per space or punctuation mark).
	var cls string
	var pending []byte
	flush := func() {
		if len(pending) == 0 {
			return
		}
		if cls != "" {
			buf.WriteString(`<span class="`)
			buf.WriteString(cls)
			buf.WriteString(`">`)
		}
		escapeTo(buf, pending)
		if cls != "" {
			buf.WriteString(`</span>`)
		}
		pending = pending[:0]
	}
	stalls := 0
	for t := it(); t != chroma.EOF; t = it() {
		if t.Value == "" {
			// Some of chroma's lexers never end on some inputs (JSONata
			// and Jungle, after an unterminated string, match the empty
			// string forever); a lexer that ends does not come near this
			// many empty tokens in a row.
			if stalls++; stalls > maxStalls {
				putScratch(buf)
				return nil
			}
			continue
		}
		stalls = 0
		c := tokenClass(t.Type)
		switch t.Type {
		case chroma.Error:
			// Text the lexer could not follow: chroma's styles paint it
			// on red, which for a stranger's odd but valid code only
			// looks broken. Plain is kinder.
			c = ""
		case chroma.TextWhitespace:
			// Neither theme gives white space a visible style; left
			// unclassed it merges with its neighbours and saves a span
			// per gap.
			c = ""
		}
		if c != cls {
			flush()
			cls = c
		}
		pending = append(pending, t.Value...)
	}
	flush()
	return buf
}

// maxStalls bounds the empty tokens in a row a lexer may make before the
// block is shown plain.
const maxStalls = 10000

func putScratch(b *bytes.Buffer) {
	if b.Cap() <= maxPooledBuf {
		scratch.Put(b)
	}
}

// tokenClass is the CSS class chroma's HTML formatter gives a token type:
// the type's own short name, or its parent's.
func tokenClass(t chroma.TokenType) string {
	for t != 0 {
		if c, ok := chroma.StandardTypes[t]; ok {
			return c
		}
		t = t.Parent()
	}
	return ""
}

// escapeTo writes s with & < > " ' escaped.
func escapeTo(buf *bytes.Buffer, s []byte) {
	last := 0
	for i, c := range s {
		var esc string
		switch c {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&#34;"
		case '\'':
			esc = "&#39;"
		default:
			continue
		}
		buf.Write(s[last:i])
		buf.WriteString(esc)
		last = i + 1
	}
	buf.Write(s[last:])
}

// Themes of [CSS].
const (
	lightStyle = "github"
	darkStyle  = "github-dark"
)

// codeBackgrounds are, for each theme, the backgrounds its colours are
// read on: the style's own, and static/style.css's --code (inline code,
// and pre before the highlighting's rules apply).
var codeBackgrounds = map[string][]string{
	lightStyle: {"#f7f7f7", "#f3f4f6"},
	darkStyle:  {"#0d1117", "#1c222b"},
}

// minContrast is WCAG 2.2 AA's contrast for text (1.4.3).
const minContrast = 4.5

var css = sync.OnceValue(func() []byte {
	var b bytes.Buffer
	b.WriteString("/* Code highlighting: chroma's " + lightStyle + " and " + darkStyle + " styles, made by build/markdown. */\n")
	light, dark := legible(themeRules(lightStyle), codeBackgrounds[lightStyle], false), legible(themeRules(darkStyle), codeBackgrounds[darkStyle], true)
	// Each theme applies only where the other does not, so that a token
	// styled by one theme and not the other (bold in one, say) does not
	// keep the first theme's look in the second.
	writeScoped(&b, "@media (prefers-color-scheme: light)", ":root:not([data-theme=dark])", light)
	writeScoped(&b, "", ":root[data-theme=light]", light)
	writeScoped(&b, "@media (prefers-color-scheme: dark)", ":root:not([data-theme=light])", dark)
	writeScoped(&b, "", ":root[data-theme=dark]", dark)
	return b.Bytes()
})

// CSS returns the stylesheet for highlighted code: chroma's github style,
// applied when the reader's system prefers a light scheme unless the page
// says data-theme="dark" on its root element, and always with
// data-theme="light"; and github-dark, applied under
// @media (prefers-color-scheme: dark) for :root:not([data-theme=light]) and
// always under :root[data-theme=dark]. Rules are scoped to the .chroma
// class of highlighted <pre> elements. The result is the same on every call
// and the caller may keep or change it.
func CSS() []byte { return bytes.Clone(css()) }

// rule is one CSS rule: a selector under .chroma and its declarations.
type rule struct{ selector, decls string }

// themeRules returns chroma's rules for a style, without those for line
// numbers and highlighted lines, which Render never emits.
func themeRules(name string) []rule {
	var b bytes.Buffer
	f := chromahtml.New(chromahtml.WithClasses(true), chromahtml.WithCSSComments(false))
	if err := f.WriteCSS(&b, styles.Get(name)); err != nil {
		return nil
	}
	var rules []rule
	for line := range strings.Lines(b.String()) {
		sel, decls, ok := strings.Cut(strings.TrimSpace(line), " { ")
		if !ok || !strings.HasPrefix(sel, ".chroma") {
			continue
		}
		switch strings.TrimPrefix(sel, ".chroma .") {
		case "lnlinks", "lntd", "lntable", "hl", "lnt", "ln", "line":
			continue
		}
		rules = append(rules, rule{sel, strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(decls), "}"))})
	}
	return rules
}

func writeScoped(b *bytes.Buffer, media, scope string, rules []rule) {
	indent := ""
	if media != "" {
		b.WriteString(media + " {\n")
		indent = "  "
	}
	for _, r := range rules {
		b.WriteString(indent + scope + " " + r.selector + " { " + r.decls + " }\n")
	}
	if media != "" {
		b.WriteString("}\n")
	}
}

// foreground is a rule's text colour: "color: #rrggbb" at the start of the
// declarations or after a "; ".
var foreground = regexp.MustCompile(`(^|; )color: #([0-9a-fA-F]{6})\b`)

// legible returns rules with every text colour that has less than
// minContrast against one of backgrounds made darker (or, for a dark
// theme, lighter) until it has it; chroma's github style has a grey or two
// meant for white. Rules with a background of their own keep their
// colours.
func legible(rules []rule, backgrounds []string, dark bool) []rule {
	out := make([]rule, len(rules))
	for i, r := range rules {
		out[i] = r
		if strings.Contains(r.decls, "background") {
			continue
		}
		out[i].decls = foreground.ReplaceAllStringFunc(r.decls, func(m string) string {
			sub := foreground.FindStringSubmatch(m)
			c := parseHex(sub[2])
			for step := 0; step < 100 && worstContrast(c, backgrounds) < minContrast; step++ {
				for k := range c {
					if dark {
						c[k] += (1 - c[k]) * 0.05
					} else {
						c[k] *= 0.95
					}
				}
			}
			return sub[1] + "color: " + hexOf(c)
		})
	}
	return out
}

// worstContrast is c's lowest WCAG contrast ratio against backgrounds.
func worstContrast(c [3]float64, backgrounds []string) float64 {
	worst := math.Inf(1)
	for _, bg := range backgrounds {
		a, b := luminance(c), luminance(parseHex(strings.TrimPrefix(bg, "#")))
		worst = min(worst, (max(a, b)+0.05)/(min(a, b)+0.05))
	}
	return worst
}

// luminance is WCAG's relative luminance of an sRGB colour of channels 0
// to 1.
func luminance(c [3]float64) float64 {
	var l [3]float64
	for k, v := range c {
		if v <= 0.04045 {
			l[k] = v / 12.92
		} else {
			l[k] = math.Pow((v+0.055)/1.055, 2.4)
		}
	}
	return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
}

func parseHex(h string) [3]float64 {
	var c [3]float64
	for k := range c {
		v, _ := strconv.ParseUint(h[2*k:2*k+2], 16, 8)
		c[k] = float64(v) / 255
	}
	return c
}

func hexOf(c [3]float64) string {
	return fmt.Sprintf("#%02x%02x%02x", int(math.Round(c[0]*255)), int(math.Round(c[1]*255)), int(math.Round(c[2]*255)))
}
