package index

import (
	"regexp"
	"strings"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/yamltree"
)

// Field weights, in the order the issue fixes: a word in the name counts
// most, then the description, tags, capabilities, category, type, the
// UASP trigger keywords and intents, and last the body. Both indexes use
// them: the JSON index when it scores at build time, bleve as query boosts.
const (
	weightName         = 10
	weightDescription  = 6
	weightTags         = 4
	weightCapabilities = 3
	weightCategory     = 2.5
	weightType         = 2
	weightKeywords     = 1.8
	weightIntents      = 1.5
	weightBody         = 1
)

// field is one searchable field of a skill.
type field struct {
	name   string  // bleve field name
	weight float64 // query boost and JSON-index weight
	b      float64 // BM25 length normalisation
}

// fields lists the searchable fields in weight order; document.texts
// returns their text in the same order.
var fields = [...]field{
	{"name", weightName, 0.5},
	{"description", weightDescription, 0.75},
	{"tags", weightTags, 0.5},
	{"capabilities", weightCapabilities, 0.5},
	{"category", weightCategory, 0.3},
	{"type", weightType, 0},
	{"keywords", weightKeywords, 0.5},
	{"intents", weightIntents, 0.5},
	{"body", weightBody, 0.75},
}

// document is what search knows of a skill.
type document struct {
	Name, Description  string
	Tags, Capabilities []string
	Categories         []string
	Type               string // UASP meta.type, "" when unknown
	Keywords, Intents  []string
	Body               string
	// License is the SPDX expression of the skill's license, or
	// spdx.Other (catalog.LicensesOf); Source the name of its source.
	License, Source string
	Status, Format  string
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
	d.setBody(k)
	return d
}

// metaDocument is what search knows of a skill from its summary: what
// facets need. Its keywords and intents come with the content
// (setContent).
func metaDocument(s *catalog.Skill) *document {
	return &document{
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
}

// setContent completes the document with what the skill's content says:
// its type (s's summary is complete once its content is read), and the
// triggers of its UASP document.
func (d *document) setContent(s *catalog.Skill, k *catalog.Content) {
	u := uaspOf(k)
	d.Type, d.Keywords, d.Intents = strings.TrimSpace(s.Type()), u.Keywords, u.Intents
}

// setBody sets the document's body from the skill's.
func (d *document) setBody(k *catalog.Content) {
	body := k.Body
	if len(body) > maxBody {
		body = body[:maxBody]
	}
	d.Body = stripURLs(string(body))
}

// texts returns the text of each field of fields, in order.
func (d *document) texts() [len(fields)]string {
	return [len(fields)]string{
		d.Name,
		d.Description,
		strings.Join(d.Tags, "\n"),
		strings.Join(d.Capabilities, "\n"),
		strings.Join(d.Categories, "\n"),
		d.Type,
		strings.Join(d.Keywords, "\n"),
		strings.Join(d.Intents, "\n"),
		d.Body,
	}
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
