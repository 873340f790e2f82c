package index

import (
	"regexp"
	"strings"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/build/yamltree"
)

// document is what search knows of a skill.
type document struct {
	Name, Description string
	// Triggers is the description's trigger clause ("Use when ..."), its
	// end: the description's field holds the rest.
	Triggers           string
	Tags, Capabilities []string
	Categories         []string
	Type               string // UASP meta.type, "" when unknown
	Keywords, Intents  []string
	// Headings are the body's Markdown headings, one a line.
	Headings string
	Body     string
	// License is the SPDX expression of the skill's license, or
	// spdx.Other (catalog.LicensesOf); Source the name of its source.
	License, Source string
	Status, Format  string
	// Plugins are the names of the skill's plugins (the Plugin facet's
	// values). PluginText is their names, one a line: the ranking model's
	// plugin field. PluginAbout adds their descriptions, for the bleve
	// index's plugin field, which programs query by field: the model
	// leaves descriptions out, since a plugin's description says what all
	// its skills share rather than what one does, and with it the judged
	// task queries ranked worse (at any weight: its words change the
	// terms' document counts).
	Plugins                 []string
	PluginText, PluginAbout string
	// inherited marks Tags and Categories the skill has from its plugins
	// (catalog.Inherited): facets, not text, since the plugin's field
	// holds what the plugin says.
	inherited catalog.Inherited
}

// maxBody bounds the body text indexed: past 64 KB a skill is reference
// material, and its words would only dilute the dictionary.
const maxBody = 64 << 10

// URLs are dropped from bodies before indexing: "https", "com" and path
// segments match nothing a person searches for. urlPattern says which;
// stripURLs does what its ReplaceAllString(s, " ") would, without the
// regexp machinery, which cost more than the rest of preparing a body.
var urlPattern = regexp.MustCompile(`\bhttps?://[^\s)>\]]+`)

// stripURLs replaces every URL urlPattern matches in s with a space.
func stripURLs(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); {
		j := strings.Index(s[i:], "http")
		if j < 0 {
			break
		}
		j += i
		i = j + 1
		if j > 0 && isWordByte(s[j-1]) { // \b: a word must not go on before it
			continue
		}
		k := j + len("http")
		if k < len(s) && s[k] == 's' {
			k++
		}
		if !strings.HasPrefix(s[k:], "://") {
			continue
		}
		k += len("://")
		end := k
		for end < len(s) && !endsURL(s[end]) {
			end++
		}
		if end == k {
			continue
		}
		b.WriteString(s[last:j])
		b.WriteByte(' ')
		last, i = end, end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// isWordByte is RE2's \w: ASCII letters, digits and underscore.
func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// endsURL is what urlPattern's [^\s)>\]] stops at (RE2's \s is
// [\t\n\f\r ]).
func endsURL(c byte) bool {
	switch c {
	case '\t', '\n', '\f', '\r', ' ', ')', '>', ']':
		return true
	}
	return false
}

// newDocument collects what search needs from a catalog skill and its
// content.
func newDocument(s *catalog.Skill, k *catalog.Content) *document {
	d := metaDocument(s)
	d.setContent(s, k)
	d.setBody(s, k)
	return d
}

// metaDocument is what search knows of a skill from its summary: what
// facets need. Its keywords and intents come with the content
// (setContent).
func metaDocument(s *catalog.Skill) *document {
	d := &document{
		Name:         s.Name,
		Description:  s.Description,
		Tags:         s.Tags,
		Capabilities: s.Capabilities,
		Categories:   s.Categories,
		Type:         strings.TrimSpace(s.Type()),
		License:      s.License,
		Source:       s.SourceName,
		Status:       string(s.Status),
		Format:       string(s.Format),
	}
	if len(s.Plugins) > 0 {
		d.Plugins = s.PluginNames()
		d.inherited = s.Inherited
		var names strings.Builder
		for _, p := range s.Plugins {
			names.WriteString(p.Name + "\n")
		}
		d.PluginText = names.String()
	}
	d.Triggers = d.Description[triggerClause(d.Description):]
	return d
}

// setContent completes the document with what the skill's content says:
// its type (s's summary is complete once its content is read), and the
// triggers of its UASP document; and with its plugins' names and
// descriptions, the bleve document's plugin field (PluginAbout).
func (d *document) setContent(s *catalog.Skill, k *catalog.Content) {
	u := uaspOf(k)
	d.Type, d.Keywords, d.Intents = strings.TrimSpace(s.Type()), u.Keywords, u.Intents
	// Set here, not by metaDocument: dropText drops it, and a record the
	// memo keeps needs it again when its chunk's bleve segment is made.
	var about strings.Builder
	for _, p := range s.Plugins {
		about.WriteString(p.Name + "\n" + p.Description + "\n")
	}
	d.PluginAbout = about.String()
}

// setBody sets the document's body from the skill's. A skill that is a
// UASP document alone has no body: its document, as the Markdown its page
// and archive show (uasp.ToMarkdown), is what it says, its commands and
// workflows included.
func (d *document) setBody(s *catalog.Skill, k *catalog.Content) {
	body := k.Body
	if s.Format == skill.UASP && len(body) == 0 && k.Doc != nil {
		body = uasp.ToMarkdown(k.Doc)
	}
	if len(body) > maxBody {
		body = body[:maxBody]
	}
	d.Body = stripURLs(string(body))
	d.Headings = headings(d.Body)
}

// dropText lets go of what only analysis and the bleve document read:
// the JSON index's cards and facets need no more.
func (d *document) dropText() {
	d.Body, d.Headings, d.Keywords, d.Intents, d.PluginAbout = "", "", nil, nil, ""
}

// texts returns the text of each field of fields, in order.
func (d *document) texts() [len(fields)]string {
	return [len(fields)]string{
		d.Name,
		strings.TrimSuffix(d.Description, d.Triggers),
		d.Triggers,
		ownTerms(d.Tags, d.inherited.Tags),
		strings.Join(d.Capabilities, "\n"),
		ownTerms(d.Categories, d.inherited.Categories),
		d.Type,
		strings.Join(d.Keywords, "\n"),
		strings.Join(d.Intents, "\n"),
		d.Headings,
		d.Body,
		d.PluginText,
	}
}

// ownTerms is the text of a skill's terms, "" when it has them from its
// plugins.
func ownTerms(terms []string, inherited bool) string {
	if inherited {
		return ""
	}
	return strings.Join(terms, "\n")
}

// triggerMarkers begin the clause of a description that says when to use
// the skill, in lower case.
var triggerMarkers = []string{
	"use when", "use this skill when", "use this when", "use it when", "use whenever", "use for", "use proactively",
	"should be used when", "triggers on", "trigger when", "invoke when", "activate when", "when the user", "when asked",
}

// triggerClause returns where the trigger clause of a description begins:
// at the first trigger marker that starts a word, or at its end when it
// has none.
func triggerClause(desc string) int {
	low := lowerASCII(desc)
	at := len(desc)
	for _, m := range triggerMarkers {
		for from := 0; from < at; {
			i := strings.Index(low[from:], m)
			if i < 0 {
				break
			}
			i += from
			end := i + len(m)
			if (i == 0 || !isWordByte(low[i-1])) && (end == len(low) || !isWordByte(low[end])) {
				at = min(at, i)
				break
			}
			from = i + 1
		}
	}
	return at
}

// lowerASCII lowercases the ASCII letters of s, keeping its length.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// headings returns the text of the Markdown body's ATX headings ("# ...",
// up to six #), one a line, leaving out fenced code blocks, where # starts
// a comment.
func headings(body string) string {
	var out strings.Builder
	fence := ""
	for line := range strings.Lines(body) {
		line = strings.TrimRight(line, "\r\n")
		t := strings.TrimLeft(line, " ")
		if len(line)-len(t) > 3 {
			continue // indented code
		}
		if fence != "" {
			if strings.HasPrefix(t, fence) && strings.TrimRight(strings.TrimSpace(t), fence[:1]) == "" {
				fence = ""
			}
			continue
		}
		if f := fenceOf(t); f != "" {
			fence = f
			continue
		}
		level := len(t) - len(strings.TrimLeft(t, "#"))
		rest := t[level:]
		if level < 1 || level > 6 || rest != "" && rest[0] != ' ' && rest[0] != '\t' {
			continue
		}
		text := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(rest), "#"))
		if text != "" {
			out.WriteString(text)
			out.WriteByte('\n')
		}
	}
	return out.String()
}

// fenceOf returns the fence a line opens (three or more backticks or
// tildes), or "".
func fenceOf(t string) string {
	for _, c := range []string{"`", "~"} {
		n := len(t) - len(strings.TrimLeft(t, c))
		if n >= 3 {
			return t[:n]
		}
	}
	return ""
}

// uaspView is the part of a skill's UASP document that search uses.
type uaspView struct {
	Type              string
	Keywords, Intents []string
}

// uaspOf is the one place search reads a UASP document: the skill's
// document (given or derived) when it has one, else the document the
// author wrote beside SKILL.md, as parsed.
func uaspOf(k *catalog.Content) uaspView {
	if k.Doc != nil {
		return uaspViewOf(k.Doc.Root)
	}
	root, _ := k.UASPValue.(*yamltree.Map)
	return uaspViewOf(root)
}

// uaspViewOf reads meta.type and triggers.{keywords,intents} of a UASP
// document root; anything missing or of another shape is left empty.
func uaspViewOf(root *yamltree.Map) uaspView {
	var u uaspView
	if root == nil {
		return u
	}
	if meta, ok := get[*yamltree.Map](root, "meta"); ok {
		if t, ok := get[string](meta, "type"); ok {
			u.Type = strings.TrimSpace(t)
		}
	}
	if tr, ok := get[*yamltree.Map](root, "triggers"); ok {
		u.Keywords = stringList(tr, "keywords")
		u.Intents = stringList(tr, "intents")
	}
	return u
}

func get[T any](m *yamltree.Map, key string) (T, bool) {
	var zero T
	if m == nil {
		return zero, false
	}
	v, ok := m.Get(key)
	if !ok {
		return zero, false
	}
	t, ok := v.(T)
	return t, ok
}

func stringList(m *yamltree.Map, key string) []string {
	list, _ := get[[]any](m, key)
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok && strings.TrimSpace(s) != "" {
			out = append(out, strings.TrimSpace(s))
		}
	}
	return out
}
