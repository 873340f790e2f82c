package plugin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/skilldex/skilldex/build/diag"
)

// ParseMarketplace reads a client's marketplace file. file names it in the
// diagnostics. The result is never nil: a file that is not JSON gives an
// Invalid marketplace with no entries.
func ParseMarketplace(client Client, file string, data []byte) (*Marketplace, []diag.Diagnostic) {
	m := &Marketplace{Client: client, File: file}
	r := newReader(client, file, data)
	root := r.root()
	if root == nil {
		m.Invalid = true
		return m, r.diags
	}
	m.doc = r.doc
	m.Name = r.name(root, "", "name", "marketplace", true)
	if owner := root.get("owner"); owner != nil || client != Codex {
		m.Owner = r.person(root, "", "owner")
		if m.Owner == nil && owner == nil {
			r.report(root.start, diag.Error, "plugin-field-missing", `the marketplace has no "owner": add {"name": "..."} naming who maintains it`)
		} else if m.Owner != nil && m.Owner.Name == "" {
			r.report(owner.start, diag.Error, "plugin-field-missing", `"owner" has no "name": add the maintainer's name`)
		}
	}
	meta := r.object(root, "", "metadata")
	m.Description = cmpOr(r.str(meta, "metadata", "description"), r.str(root, "", "description"))
	m.Version = cmpOr(r.version(meta, "metadata"), r.version(root, ""))
	var pluginRoot string
	if raw := r.str(meta, "metadata", "pluginRoot"); raw != "" {
		m.PluginRoot = raw
		if clean, ok := cleanRelative(raw); ok {
			pluginRoot = clean
		} else {
			r.report(meta.get("pluginRoot").start, diag.Error, "plugin-source-invalid",
				`"metadata.pluginRoot" %q must be a folder inside the marketplace, such as "./plugins"`, raw)
		}
	}
	if iface := r.object(root, "", "interface"); iface != nil {
		m.DisplayName = r.str(iface, "interface", "displayName")
	}
	m.Extra = r.extra(root, "$schema", "name", "owner", "metadata", "description", "version", "interface", "plugins")

	plugins := root.get("plugins")
	switch {
	case plugins == nil:
		r.report(root.start, diag.Error, "plugin-field-missing", `the marketplace has no "plugins": add an array with one entry per plugin`)
	case plugins.kind == '[':
		m.Invalid = r.errors > 0
		seen := map[string]*Entry{}
		for i, item := range plugins.items {
			before := r.errors
			e := r.entry(item, fmt.Sprintf("plugins[%d]", i), pluginRoot)
			if first, dup := seen[e.Name]; dup && e.Name != "" {
				r.report(item.get("name").start, diag.Error, "plugin-name-duplicate",
					"the marketplace already lists a plugin named %q (line %d): rename or remove one; clients keep only the first",
					e.Name, r.doc.pos(first.obj.start).Line)
			} else {
				seen[e.Name] = e
			}
			e.Invalid = r.errors > before || e.Name == ""
			m.Entries = append(m.Entries, e)
		}
		return m, r.diags
	default:
		r.wrongType(plugins, "plugins", "an array")
	}
	m.Invalid = r.errors > 0
	return m, r.diags
}

// ParseManifest reads a client's plugin manifest (plugin.json). The result
// is never nil: a file that is not JSON gives an Invalid manifest.
func ParseManifest(client Client, file string, data []byte) (*Manifest, []diag.Diagnostic) {
	mf := &Manifest{Client: client, File: file}
	r := newReader(client, file, data)
	root := r.root()
	if root == nil {
		mf.Invalid = true
		return mf, r.diags
	}
	mf.doc = r.doc
	// Codex names a manifest without a name after its folder.
	mf.Metadata = r.metadata(root, "", client != Codex)
	mf.Components = r.components(root, "")
	known := append([]string{"$schema"}, metadataKeys...)
	if client == Codex {
		if iface := r.object(root, "", "interface"); iface != nil {
			mf.DisplayName = cmpOr(mf.DisplayName, r.str(iface, "interface", "displayName"))
			mf.Category = cmpOr(mf.Category, r.str(iface, "interface", "category"))
			mf.Description = cmpOr(mf.Description, r.str(iface, "interface", "shortDescription"))
		}
	}
	mf.Extra = r.extra(root, append(known, ComponentKinds...)...)
	mf.Invalid = r.errors > 0
	return mf, r.diags
}

// maxManifestBytes bounds what is read of one manifest: the largest real
// marketplace files are tens of kilobytes.
const maxManifestBytes = 4 << 20

var bom = []byte{0xEF, 0xBB, 0xBF}

// reader turns one document into the model, reporting as it goes.
type reader struct {
	client Client
	doc    *document
	diags  []diag.Diagnostic
	errors int
}

func newReader(client Client, file string, data []byte) *reader {
	r := &reader{client: client}
	text, hadBOM := bytes.CutPrefix(data, bom)
	var serr *syntaxError
	r.doc, serr = parseDocument(file, text)
	if hadBOM {
		r.report(0, diag.Warning, "plugin-json-bom", "the file starts with a byte order mark, which JSON.parse rejects: save it as UTF-8 without BOM")
	}
	if serr != nil {
		r.report(serr.offset, diag.Error, "plugin-json-syntax", "invalid JSON: %s; clients reject the whole file", serr.msg)
	}
	return r
}

// root returns the top-level object, or nil (reported) when there is none.
func (r *reader) root() *node {
	root := r.doc.root
	if root == nil {
		return nil
	}
	if root.kind != '{' {
		r.report(root.start, diag.Error, "plugin-json-syntax", "the file holds %s, not a JSON object: a manifest is one object {...}", kindName(root.kind))
		return nil
	}
	r.duplicates(root)
	return root
}

func (r *reader) report(offset int, sev diag.Severity, code, format string, args ...any) {
	r.diags = append(r.diags, diag.At(r.doc.file, r.doc.pos(offset), sev, code, "%s", message(format, args...)))
	if sev == diag.Error {
		r.errors++
	}
}

// duplicates reports every name written twice in one object.
func (r *reader) duplicates(n *node) {
	seen := map[string]int{}
	for _, m := range n.members {
		if first, ok := seen[m.name]; ok {
			r.report(m.start, diag.Warning, "plugin-json-duplicate-key",
				"%q is already set on line %d; clients use this later value: remove one", m.name, r.doc.pos(first).Line)
		} else {
			seen[m.name] = m.start
		}
		r.duplicates(m.value)
	}
	for _, it := range n.items {
		r.duplicates(it)
	}
}

func fieldPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

// wrongType reports n, which is not of the wanted kind. null is a warning:
// it is read as if the field were absent.
func (r *reader) wrongType(n *node, field, want string) {
	if n.kind == 'n' {
		r.report(n.start, diag.Warning, "plugin-field-type", "%q is null and is ignored: remove it, or give it %s", field, want)
		return
	}
	r.report(n.start, diag.Error, "plugin-field-type", "%q must be %s, not %s", field, want, kindName(n.kind))
}

// str returns obj's string field key, or "" when it is absent or of
// another type (reported).
func (r *reader) str(obj *node, parent, key string) string {
	v := obj.get(key)
	if v == nil {
		return ""
	}
	if v.kind != '"' {
		r.wrongType(v, fieldPath(parent, key), "a string")
		return ""
	}
	return v.str
}

// object returns obj's object field key, or nil.
func (r *reader) object(obj *node, parent, key string) *node {
	v := obj.get(key)
	if v == nil {
		return nil
	}
	if v.kind != '{' {
		r.wrongType(v, fieldPath(parent, key), "an object")
		return nil
	}
	return v
}

// strs returns obj's field key, an array of strings; items of another type
// are reported and left out.
func (r *reader) strs(obj *node, parent, key string) []string {
	v := obj.get(key)
	if v == nil {
		return nil
	}
	field := fieldPath(parent, key)
	if v.kind != '[' {
		r.wrongType(v, field, "an array of strings")
		return nil
	}
	var out []string
	for i, it := range v.items {
		if it.kind != '"' {
			r.wrongType(it, fmt.Sprintf("%s[%d]", field, i), "a string")
			continue
		}
		out = append(out, it.str)
	}
	return out
}

// name reads a required name field and checks it is kebab-case. what says
// whose name it is, for the messages.
func (r *reader) name(obj *node, parent, key, what string, required bool) string {
	v := obj.get(key)
	if v == nil {
		if required {
			r.report(obj.start, diag.Error, "plugin-field-missing", "the %s has no %q: add one in kebab-case, such as \"my-%s\"", what, key, what)
		}
		return ""
	}
	s := r.str(obj, parent, key)
	switch {
	case v.kind != '"':
	case strings.TrimSpace(s) == "":
		r.report(v.start, diag.Error, "plugin-field-missing", "the %s's %q is empty: give it a name in kebab-case", what, fieldPath(parent, key))
	case strings.ContainsFunc(s, isSpace):
		r.report(v.start, diag.Error, "plugin-name-not-kebab", "%s name %q holds spaces, which clients reject: write it in kebab-case, %q", what, s, kebab(s))
	case !IsCommandWord(s):
		r.report(v.start, diag.Warning, "plugin-name-not-kebab", "%s name %q holds characters that are not safe in a command, so no install command is published for it: write it in kebab-case, %q", what, s, kebab(s))
	case !isKebab(s):
		r.report(v.start, diag.Warning, "plugin-name-not-kebab", "%s name %q is not kebab-case: write it as %q, which install commands and skill names can use as is", what, s, kebab(s))
	}
	return s
}

// version reads obj's version field and checks it is a semantic version.
func (r *reader) version(obj *node, parent string) string {
	s := r.str(obj, parent, "version")
	if s != "" && !isSemver(s) {
		r.report(obj.get("version").start, diag.Warning, "plugin-version-not-semver",
			"version %q is not a semantic version: write MAJOR.MINOR.PATCH, such as %q", s, semverHint(s))
	}
	return s
}

// person reads an author or owner: an object with name, email and url, or
// a string, which is the name.
func (r *reader) person(obj *node, parent, key string) *Person {
	v := obj.get(key)
	if v == nil {
		return nil
	}
	field := fieldPath(parent, key)
	switch v.kind {
	case '"':
		return &Person{Name: v.str}
	case '{':
		return &Person{Name: r.str(v, field, "name"), Email: r.str(v, field, "email"), URL: r.str(v, field, "url")}
	}
	r.wrongType(v, field, `an object {"name": ...}`)
	return nil
}

// metadataKeys are the fields Metadata models.
var metadataKeys = []string{"name", "displayName", "description", "version", "author", "license", "homepage", "repository", "category", "keywords", "tags"}

func (r *reader) metadata(obj *node, parent string, nameRequired bool) Metadata {
	return Metadata{
		Name:        r.name(obj, parent, "name", "plugin", nameRequired),
		DisplayName: r.str(obj, parent, "displayName"),
		Description: r.str(obj, parent, "description"),
		Version:     r.version(obj, parent),
		Author:      r.person(obj, parent, "author"),
		License:     r.str(obj, parent, "license"),
		Homepage:    r.str(obj, parent, "homepage"),
		Repository:  r.str(obj, parent, "repository"),
		Category:    r.str(obj, parent, "category"),
		Keywords:    r.strs(obj, parent, "keywords"),
		Tags:        r.strs(obj, parent, "tags"),
	}
}

// components reads the component fields: each a path, an array of paths,
// or (hooks, MCP and LSP servers) definitions written inline.
func (r *reader) components(obj *node, parent string) map[string]Component {
	var out map[string]Component
	for _, kind := range ComponentKinds {
		v := obj.get(kind)
		if v == nil {
			continue
		}
		field := fieldPath(parent, kind)
		var c Component
		switch v.kind {
		case '"':
			c.Paths = r.paths(c.Paths, field, v)
		case '{':
			c.Inline = 1
		case '[':
			for i, it := range v.items {
				switch it.kind {
				case '"':
					c.Paths = r.paths(c.Paths, fmt.Sprintf("%s[%d]", field, i), it)
				case '{':
					c.Inline++
				default:
					r.wrongType(it, fmt.Sprintf("%s[%d]", field, i), "a path or an object")
				}
			}
		default:
			r.wrongType(v, field, "a path, an array of paths, or an object")
			continue
		}
		if out == nil {
			out = map[string]Component{}
		}
		out[kind] = c
	}
	return out
}

// paths appends the path n and checks it stays inside the plugin folder.
func (r *reader) paths(to []string, field string, n *node) []string {
	switch _, ok := cleanRelative(n.str); {
	case !ok:
		r.report(n.start, diag.Warning, "plugin-path-invalid", "%q is %q, which leaves the plugin folder; clients ignore it: give a path inside the plugin, starting with ./", field, n.str)
	case !strings.HasPrefix(n.str, "./"):
		r.report(n.start, diag.Warning, "plugin-path-invalid", "%q is %q; clients ignore a component path that does not start with ./: write %q", field, n.str, "./"+strings.TrimPrefix(n.str, "/"))
	}
	return append(to, n.str)
}

// extra returns obj's fields other than known, as written.
func (r *reader) extra(obj *node, known ...string) map[string]json.RawMessage {
	var out map[string]json.RawMessage
	for _, m := range obj.members {
		if slices.Contains(known, m.name) {
			continue
		}
		if out == nil {
			out = map[string]json.RawMessage{}
		}
		out[m.name] = r.doc.raw(m.value)
	}
	return out
}

// entry reads one plugin entry of a marketplace. pluginRoot is the cleaned
// metadata.pluginRoot, or "". An entry that is not an object gives an
// empty entry, which the caller marks invalid.
func (r *reader) entry(n *node, field, pluginRoot string) *Entry {
	e := &Entry{obj: n, Strict: true}
	if n.kind != '{' {
		r.wrongType(n, field, "an object describing a plugin")
		return e
	}
	e.Metadata = r.metadata(n, field, true)
	e.Components = r.components(n, field)
	if v := n.get("strict"); v != nil {
		switch v.kind {
		case 't', 'f':
			e.Strict = v.kind == 't'
		default:
			r.wrongType(v, field+".strict", "true or false")
		}
	}
	if p := r.object(n, field, "policy"); p != nil {
		e.Policy = &Policy{Installation: r.str(p, field+".policy", "installation"), Authentication: r.str(p, field+".policy", "authentication")}
	}
	e.Source = r.source(n, field, pluginRoot)
	known := append([]string{"source", "strict", "policy"}, metadataKeys...)
	e.Extra = r.extra(n, append(known, ComponentKinds...)...)
	return e
}

// sourceKinds are the source objects each client knows.
var sourceKinds = map[Client][]string{
	Claude: {SourceGitHub, SourceURL, SourceGitSubdir, SourceNPM, SourcePip},
	Codex:  {SourceLocal, SourceURL, SourceGitSubdir},
	Cursor: {SourceGitHub, SourceURL, SourceGitSubdir, SourceNPM, SourcePip, SourceLocal},
}

// source reads an entry's source and checks what can be checked without
// the file system: required fields, and that a relative path stays inside
// the marketplace.
func (r *reader) source(entry *node, field, pluginRoot string) Source {
	v := entry.get("source")
	field += ".source"
	if v == nil {
		r.report(entry.start, diag.Error, "plugin-field-missing", "the plugin has no \"source\": add \"./plugins/NAME\" for a folder of this repository, or an object such as {\"source\": \"github\", \"repo\": \"OWNER/REPO\"}")
		return Source{}
	}
	switch v.kind {
	case '"':
		s := Source{Kind: SourcePath, Path: v.str}
		r.relativeSource(v, field, v.str, pluginRoot)
		return s
	case '{':
	default:
		r.wrongType(v, field, `a path such as "./plugins/NAME" or a source object`)
		return Source{}
	}
	s := Source{
		Kind: r.str(v, field, "source"), Path: r.str(v, field, "path"), Repo: r.str(v, field, "repo"),
		URL: r.str(v, field, "url"), Ref: r.str(v, field, "ref"), SHA: r.str(v, field, "sha"),
		Package: r.str(v, field, "package"), Version: r.str(v, field, "version"), Registry: r.str(v, field, "registry"),
	}
	need := func(keys ...string) {
		for _, k := range keys {
			if v.get(k) == nil {
				r.report(v.start, diag.Error, "plugin-field-missing", "a %q source needs %q: add it to %q", s.Kind, k, field)
			}
		}
	}
	known := sourceKinds[r.client]
	switch {
	case v.get("source") == nil:
		r.report(v.start, diag.Error, "plugin-field-missing", "%q has no \"source\" naming its kind: add one of %s", field, quoteList(known))
	case s.Kind == "":
	case !slices.Contains(known, s.Kind):
		r.report(v.get("source").start, diag.Warning, "plugin-source-invalid",
			"source kind %q is unknown to %s, which skips the plugin: use one of %s", s.Kind, r.client, quoteList(known))
	case s.Kind == SourceGitHub:
		need("repo")
		if s.Repo != "" && !isOwnerRepo(s.Repo) {
			r.report(v.get("repo").start, diag.Error, "plugin-source-invalid", "%q is %q: write the repository as OWNER/REPO", field+".repo", s.Repo)
		}
	case s.Kind == SourceURL:
		need("url")
		if rel, ok := s.Relative(); ok {
			r.relativeSource(v.get("url"), field+".url", rel, "")
		}
	case s.Kind == SourceGitSubdir:
		need("url", "path")
	case s.Kind == SourceNPM, s.Kind == SourcePip:
		need("package")
	case s.Kind == SourceLocal:
		need("path")
		if v.get("path") != nil {
			r.relativeSource(v.get("path"), field+".path", s.Path, "")
		}
	}
	return s
}

// relativeSource checks a source that is a folder of the marketplace's
// repository.
func (r *reader) relativeSource(n *node, field, p, pluginRoot string) {
	if n == nil || n.kind != '"' {
		return
	}
	bare := !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../")
	switch _, ok := cleanRelative(path.Join(pluginRoot, p)); {
	case !ok:
		r.report(n.start, diag.Error, "plugin-source-invalid", "%q is %q, which is not a folder inside the marketplace: give a path relative to the marketplace root, such as \"./plugins/NAME\"", field, p)
	case bare && pluginRoot == "":
		r.report(n.start, diag.Error, "plugin-source-invalid", "%q is %q: a relative source must start with ./ (write %q), or set metadata.pluginRoot", field, p, "./"+strings.TrimPrefix(p, "./"))
	case r.client == Codex && strings.HasSuffix(field, ".path") && path.Clean(p) == ".":
		r.report(n.start, diag.Error, "plugin-source-invalid", "Codex needs a sub-folder in %q: for the repository root, write {\"source\": \"url\", \"url\": \"./\"}", field)
	}
}

// cleanRelative cleans a slash-separated relative path and reports whether
// it stays inside the folder it is relative to.
func cleanRelative(p string) (string, bool) {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") || len(p) > 1 && p[1] == ':' {
		return "", false
	}
	c := path.Clean(p)
	if c == ".." || strings.HasPrefix(c, "../") {
		return "", false
	}
	return c, true
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

func cmpOr(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
