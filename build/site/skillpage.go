package site

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html/template"
	"net/url"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/forge"
	"github.com/skilldex/skilldex/build/lint"
	"github.com/skilldex/skilldex/build/markdown"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/pass"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/build/yamltree"
)

// skillView is what skill.html shows of one skill.
type skillView struct {
	Name, Description string
	Type, TypeLink    string
	Format, Status    string
	Version           string
	License           termLink // the SPDX expression (or Other) and its page
	Source            termLink
	Permissions       []string
	Categories, Tags  []termLink
	// CategoriesInherited and TagsInherited say that the skill has its
	// categories, its tags, from its plugins (catalog.Inherited).
	CategoriesInherited, TagsInherited bool
	// Plugins link the pages of the skill's plugins.
	Plugins      []termLink
	Body         template.HTML
	TOC          []markdown.Heading
	UASP         template.HTML
	UASPDerived  bool
	UASPVersion  string
	UASPDeclared string
	APIDoc       string
	Interface    []fact
	Schemas      []schemaView
	Examples     []exampleView
	Diagnostics  []diagView
	Install      *installView
	Facts        []fact
	Files        []fileLink
	Endpoints    []endpoint
	Forge        []endpoint // the skill's source on its forge (forgeLinks)
}

type fact struct{ Key, Value, Link string }
type termLink struct{ Name, Link string }
type fileLink struct{ Path, Link, Size string }
type endpoint struct{ Label, Link string }

type diagView struct {
	Severity, Where, Code, Message string
}

type schemaView struct {
	ID, Title string
	Rows      []schemaRow
	JSON      string
}

type schemaRow struct {
	Name, Type, Description string
	Required                bool
}

type exampleView struct {
	Name, Description string
	Input, Output     string
}

// writeSkillPage renders a published skill's page. Each page is a group
// keyed by the skill's content key and the renderer's key, so that an
// incremental build keeps the pages of unchanged skills.
func (r *renderer) writeSkillPage(s *pass.Skill, out *output.Writer) error {
	key := ""
	if s.Key != "" {
		env, err := r.linkEnv(s)
		if err != nil {
			return err
		}
		sum := sha256.Sum256([]byte(s.Key + "\x00" + r.key + "\x00" + env + "\x00" + r.termsEnv(s.Skill) + "\x00" + s.PluginsKey() + "\x00" + r.mentionsWorld))
		key = hex.EncodeToString(sum[:])
	}
	g, reused, err := out.Group("page:"+s.Name, key)
	if err != nil || reused {
		return err
	}
	k, err := s.Content()
	if err != nil {
		return err
	}
	p, err := r.skillPage(s.Skill, k)
	if err != nil {
		return err
	}
	return r.writePage(g, siteinfo.SkillPage(s.Name), "skill.html", p)
}

// skillPage is what skill.html renders for s, whose content is k.
func (r *renderer) skillPage(s *catalog.Skill, k *catalog.Content) (*page, error) {
	v, err := r.skillView(s, k)
	if err != nil {
		return nil, err
	}
	p := &page{
		Title:       s.Name,
		Description: firstLine(s.Description, 300),
		Section:     "home",
		Skill:       true,
		Data:        v,
	}
	if r.site.Parts.Markdown {
		p.Alternate = r.site.Link(siteinfo.SkillMarkdown(s.Name))
	}
	return p, nil
}

func (r *renderer) skillView(s *catalog.Skill, k *catalog.Content) (*skillView, error) {
	site := r.site
	v := &skillView{
		Name:        s.Name,
		Description: strings.TrimSpace(s.Description),
		Format:      s.Format.Label(),
		Status:      string(s.Status),
		APIDoc:      site.Link(siteinfo.APISkill(s.Name)),
	}
	fm := k.Frontmatter
	if fm != nil {
		v.Version = strings.TrimSpace(fm.Version)
		if p := fm.Permissions; p != nil {
			if p.Network {
				v.Permissions = append(v.Permissions, "network")
			}
			if p.Filesystem {
				v.Permissions = append(v.Permissions, "filesystem")
			}
			if p.Subprocess {
				v.Permissions = append(v.Permissions, "subprocess")
			}
			for _, e := range p.EnvVars {
				v.Permissions = append(v.Permissions, "env "+e)
			}
		}
	}
	if t := s.Type(); t != "" {
		v.Type, v.TypeLink = t, r.termLink(catalog.Types, t)
	}
	if t := s.License; t != "" {
		v.License = termLink{t, r.termLink(catalog.Licenses, t)}
	}
	if t := s.SourceName; t != "" {
		v.Source = termLink{t, r.termLink(catalog.Sources, t)}
	}
	for _, t := range s.Categories {
		v.Categories = append(v.Categories, termLink{t, r.termLink(catalog.Categories, t)})
	}
	for _, t := range s.Tags {
		v.Tags = append(v.Tags, termLink{hashTag(t), r.termLink(catalog.Tags, t)})
	}
	v.CategoriesInherited, v.TagsInherited = s.Inherited.Categories, s.Inherited.Tags
	v.Plugins = r.pluginBadges(s)

	files := map[string]bool{}
	for _, f := range s.Files {
		files[f.Path] = true
		fl := fileLink{Path: f.Path, Size: byteSize(f.Size)}
		if p := siteinfo.PublishedFile(s.Name, f.Path); p != "" && site.Parts.Sources {
			fl.Link = site.Link(p)
		}
		v.Files = append(v.Files, fl)
	}
	resolve := r.linkResolver(s, files)
	if len(k.Body) > 0 {
		res, err := markdown.Render(k.Body, markdown.Options{ResolveLink: resolve, HeadingShift: 1, LinkMention: r.linkMention})
		if err != nil {
			return nil, fmt.Errorf("%s: rendering the body: %w", s.File(), err)
		}
		v.Body = template.HTML(res.HTML)
		for _, h := range res.Headings {
			if h.Level == 2 || h.Level == 3 {
				v.TOC = append(v.TOC, h)
			}
		}
	}
	if d := k.Doc; d != nil && (!d.Derived || site.Parts.DerivedDocs) {
		res, err := markdown.Render(uasp.SectionsMarkdown(d, 1), markdown.Options{ResolveLink: resolve, IDPrefix: "uasp-"})
		if err != nil {
			return nil, fmt.Errorf("%s: rendering the UASP document: %w", s.File(), err)
		}
		v.UASP = template.HTML(res.HTML)
		v.UASPDerived = d.Derived
		v.UASPVersion = d.Version
		if d.DeclaredVersion != d.Version {
			v.UASPDeclared = d.DeclaredVersion
		}
		if len(k.Body) == 0 {
			// A UASP document alone is the whole page: its sections are the
			// table of contents.
			for _, h := range res.Headings {
				if h.Level == 3 {
					v.TOC = append(v.TOC, markdown.Heading{Level: 2, ID: h.ID, Text: h.Text})
				}
			}
		}
	}
	if fm != nil {
		v.Interface = interfaceFacts(fm.Interface)
		if fm.InputSchema != nil {
			v.Schemas = append(v.Schemas, schemaOf("input", "Input schema", fm.InputSchema))
		}
		if fm.OutputSchema != nil {
			v.Schemas = append(v.Schemas, schemaOf("output", "Output schema", fm.OutputSchema))
		}
		for i, e := range fm.Examples {
			ev := exampleView{Name: e.Name, Description: e.Description}
			if ev.Name == "" {
				ev.Name = fmt.Sprintf("Example %d", i+1)
			}
			if e.HasInput {
				ev.Input = jsonText(e.Input)
			}
			if e.HasOutput {
				ev.Output = jsonText(e.Output)
			}
			v.Examples = append(v.Examples, ev)
		}
	}
	v.Diagnostics = diagViews(s.Diagnostics)
	v.Install = r.installOf(s)
	v.Facts = r.facts(s, fm)
	v.Forge = forgeLinks(site, s)
	v.Endpoints = []endpoint{{"UASP document (JSON)", site.Link(siteinfo.APISkill(s.Name))}}
	if k.Doc != nil && site.PublishesPaths() {
		v.Endpoints = append(v.Endpoints, endpoint{"Query paths", site.Link(siteinfo.APIPaths(s.Name))})
	}
	if site.Parts.Markdown {
		v.Endpoints = append(v.Endpoints, endpoint{"This page as Markdown", site.Link(siteinfo.SkillMarkdown(s.Name))})
	}
	if s.SkillFile != "" && site.Parts.Sources {
		v.Endpoints = append(v.Endpoints, endpoint{"SKILL.md source", site.Link(siteinfo.PublishedFile(s.Name, s.SkillFile))})
	}
	return v, nil
}

func (r *renderer) facts(s *catalog.Skill, fm *skill.Frontmatter) []fact {
	var out []fact
	add := func(k, v, link string) {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, fact{k, firstLine(v, 200), link})
		}
	}
	add("Format", s.Format.Label(), "")
	// The page lists its own findings; the report's pages depend on the
	// whole catalog, so a link into them would go stale.
	statusLink := ""
	if len(s.Diagnostics) > 0 {
		statusLink = "#sd-diagnostics"
	}
	add("Status", string(s.Status), statusLink)
	if fm != nil {
		add("Version", fm.Version, "")
		add("License", fm.License, "")
		add("Author", fm.Author, "")
		add("Homepage", fm.Homepage, safeHTTPURL(fm.Homepage))
		add("Compatibility", fm.Compatibility, "")
		add("Platforms", strings.Join(fm.PlatformCompatibility, ", "), "")
		if rq := fm.Requirements; rq != nil {
			add("Python", rq.MinPython, "")
			add("Node.js", rq.MinNode, "")
			add("Python packages", strings.Join(rq.PythonPackages, ", "), "")
			add("Node packages", strings.Join(rq.NodePackages, ", "), "")
		}
		add("Allowed tools", strings.Join(fm.AllowedTools, ", "), "")
		if a := fm.AuthorAgent; a != nil {
			add("Written by agent", strings.TrimSpace(a.Name+" "+a.Provider), "")
		}
	}
	if s.Workspace != nil {
		add("Workspace", s.Workspace.Path, "")
	}
	add("Source", s.File(), "")
	return out
}

// forgeLinks are the links to s's source on the forge, when the site knows
// its repository and s where it lives in it: its SKILL.md (or UASP
// document) to view and edit; an archive only to view; on a forge whose
// URL forms are unknown, the repository.
func forgeLinks(site *siteinfo.Info, s *catalog.Skill) []endpoint {
	if site.Repository == "" || s.RepoPath == "" {
		return nil
	}
	file := s.RepoPath
	if s.Packaging == source.Folder {
		main := s.SkillFile
		if main == "" {
			main = s.UASPFile
		}
		file = path.Join(file, main)
	}
	l, ok := forge.File(site.Repository, site.RepositoryBranch, file)
	switch {
	case !ok:
		return nil
	case l.Edit == "":
		return []endpoint{{"Source repository", l.View}}
	case s.Packaging == source.Archive:
		return []endpoint{{"View source", l.View}}
	}
	return []endpoint{{"View source", l.View}, {"Edit this skill", l.Edit}}
}

// skillFolders finds the published skill that lives in a source folder,
// so that a link from one skill to another (a nested skill's SKILL.md, a
// sibling's file) leads to the other skill's page or file.
type skillFolders map[string]*catalog.Skill

func folderKey(root int, rel string) string { return fmt.Sprintf("%d:%s", root, rel) }

func newSkillFolders(c *catalog.Catalog) skillFolders {
	m := skillFolders{}
	for _, s := range c.Skills {
		if s.Packaging == source.Folder {
			m[folderKey(s.RootIndex, s.RelPath)] = s
		}
	}
	return m
}

// linkWorldOf digests what links between skills resolve against: every
// published skill's name, folder and files.
func linkWorldOf(c *catalog.Catalog) string {
	h := sha256.New()
	for _, s := range c.Skills {
		fmt.Fprintf(h, "%d\x00%s\x00%s\x00%s\x00%d\x00%s\x00", s.RootIndex, s.RelPath, s.Name, s.Packaging, len(s.Files), s.SkillFile)
		for _, f := range s.Files {
			fmt.Fprintf(h, "%s\x00", f.Path)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// owner returns the skill whose folder holds target (a path relative to
// the source root), and target relative to that folder.
func (m skillFolders) owner(root int, target string) (*catalog.Skill, string) {
	for dir := target; ; dir = path.Dir(dir) {
		if s := m[folderKey(root, dir)]; s != nil {
			rel := strings.TrimPrefix(strings.TrimPrefix(target, dir), "/")
			if dir == "." {
				rel = target
			}
			return s, rel
		}
		if dir == "." || dir == "/" {
			return nil, ""
		}
	}
}

// linkResolver maps a relative link in a skill's Markdown to the published
// copy of the file it names: one of the skill's own files, or another
// skill (its page for its SKILL.md or folder, else its file). A link to
// anything the site does not publish loses its href and keeps its text;
// lint has reported it (reference-missing).
func (r *renderer) linkResolver(s *catalog.Skill, files map[string]bool) func(string) (string, bool) {
	site := r.site
	return func(dest string) (string, bool) {
		u, err := url.Parse(dest)
		if err != nil || u.Scheme != "" || u.Host != "" || u.Path == "" || strings.HasPrefix(u.Path, "/") {
			return "", false
		}
		fragment := ""
		if u.Fragment != "" {
			fragment = "#" + url.PathEscape(u.Fragment)
		}
		p := path.Clean(u.Path)
		if files[p] {
			if !site.Parts.Sources {
				return "", true
			}
			if pub := siteinfo.PublishedFile(s.Name, p); pub != "" {
				return site.Link(pub) + fragment, true
			}
			return "", true
		}
		if s.Packaging != source.Folder || r.folders == nil {
			return "", true
		}
		target := path.Join(s.RelPath, p)
		if target == ".." || strings.HasPrefix(target, "../") {
			return "", true
		}
		other, rel := r.folders.owner(s.RootIndex, target)
		if other == nil {
			return "", true
		}
		if rel == "" || rel == other.SkillFile {
			if other == s {
				return "#sd-main", true
			}
			return site.Link(siteinfo.SkillPage(other.Name)), true
		}
		for _, f := range other.Files {
			if f.Path == rel && site.Parts.Sources {
				if pub := siteinfo.PublishedFile(other.Name, rel); pub != "" {
					return site.Link(pub) + fragment, true
				}
			}
		}
		return "", true
	}
}

// linkEnv says where the links of a skill's body that leave its own files
// lead in this build: the page depends on it, since another skill may come
// or go without this skill changing.
//
// What a link resolves to depends on the skill and on which skills live
// in which folders with which files (r.linkWorld): serve's memo keeps the
// answer while both stay the same. The links themselves are asked for in
// every build, not only when the answer must be worked out again: the
// memo forgets what a build does not use, and finding them again after a
// skill came or went would read the content of every skill.
func (r *renderer) linkEnv(s *pass.Skill) (string, error) {
	targets, err := r.outwardLinks(s)
	if err != nil || len(targets) == 0 {
		return "", err
	}
	key := "site-1:env:" + s.Key + ":" + s.Name + ":" + r.linkWorld + ":" + r.key
	if s.Key != "" {
		if env, ok := memo.Lookup[string](r.memo, key); ok {
			return env, nil
		}
	}
	env := r.resolveLinkEnv(s.Skill, targets)
	if s.Key != "" {
		r.memo.Put(key, env)
	}
	return env, nil
}

// resolveLinkEnv is linkEnv worked out: each target, and where it leads.
func (r *renderer) resolveLinkEnv(s *catalog.Skill, targets []string) string {
	resolve := r.linkResolver(s, ownFiles(s))
	var b strings.Builder
	for _, target := range targets {
		u, _ := resolve(target)
		b.WriteString(target + "\x00" + u + "\x00")
	}
	return b.String()
}

// ownFiles is the set of the skill's files, by path.
func ownFiles(s *catalog.Skill) map[string]bool {
	files := make(map[string]bool, len(s.Files))
	for _, f := range s.Files {
		files[f.Path] = true
	}
	return files
}

// linkMention links a mention of a plugin's skill (PLUGIN:SKILL) to the
// skill's page, when the catalog has the plugin and it holds the skill.
func (r *renderer) linkMention(m string) (string, bool) {
	u, ok := r.mentions[m]
	return u, ok
}

// termsEnv says where the skill's taxonomy terms link in this build: a
// term's slug depends on the other terms of the catalog (see termLinks).
func (r *renderer) termsEnv(s *catalog.Skill) string {
	var b strings.Builder
	if t := s.Type(); t != "" {
		b.WriteString(r.termLink(catalog.Types, t) + "\x00")
	}
	for _, t := range s.Categories {
		b.WriteString(r.termLink(catalog.Categories, t) + "\x00")
	}
	for _, t := range s.Tags {
		b.WriteString(r.termLink(catalog.Tags, t) + "\x00")
	}
	if t := s.License; t != "" {
		b.WriteString(r.termLink(catalog.Licenses, t) + "\x00")
	}
	if t := s.SourceName; t != "" {
		b.WriteString(r.termLink(catalog.Sources, t) + "\x00")
	}
	return b.String()
}

// outwardLinks returns the targets of the body's relative links that are
// not the skill's own files. They depend on the skill's content alone, so
// serve's memo keeps them: finding links parses the body.
func (r *renderer) outwardLinks(s *pass.Skill) ([]string, error) {
	key := "site-1:links:" + s.Key
	if s.Key != "" {
		if targets, ok := memo.Lookup[[]string](r.memo, key); ok {
			return targets, nil
		}
	}
	k, err := s.Content()
	if err != nil {
		return nil, err
	}
	files := ownFiles(s.Skill)
	var targets []string
	for _, l := range lint.LocalLinks(k.Body, k.BodyLine) {
		if !files[l.Target] {
			targets = append(targets, l.Target)
		}
	}
	if s.Key != "" {
		r.memo.Put(key, targets)
	}
	return targets, nil
}

func interfaceFacts(in *skill.Interface) []fact {
	if in == nil {
		return nil
	}
	var out []fact
	for _, f := range []fact{{Key: "Type", Value: in.Type}, {Key: "Entry point", Value: in.EntryPoint},
		{Key: "Runtime", Value: in.Runtime}, {Key: "Call pattern", Value: in.CallPattern}} {
		if f.Value != "" {
			out = append(out, f)
		}
	}
	return out
}

// schemaOf lists a JSON Schema's properties as rows, nested objects as
// dotted names, three levels deep.
func schemaOf(id, title string, s *yamltree.Map) schemaView {
	v := schemaView{ID: id, Title: title, JSON: jsonText(s)}
	var walk func(prefix string, m *yamltree.Map, depth int)
	walk = func(prefix string, m *yamltree.Map, depth int) {
		props, _ := mapAt(m, "properties")
		required := map[string]bool{}
		if list, ok := m.Get("required"); ok {
			if l, ok := list.([]any); ok {
				for _, e := range l {
					if s, ok := e.(string); ok {
						required[s] = true
					}
				}
			}
		}
		for k, pv := range props.All() {
			pm, _ := pv.(*yamltree.Map)
			row := schemaRow{Name: prefix + k, Required: required[k]}
			if pm != nil {
				row.Type = scalar(pm, "type")
				if items, ok := mapAt(pm, "items"); ok && row.Type == "array" {
					if t := scalar(items, "type"); t != "" {
						row.Type = "array of " + t
					}
				}
				row.Description = scalar(pm, "description")
				if e, ok := pm.Get("enum"); ok {
					row.Description = strings.TrimSpace(row.Description + " One of: " + jsonInline(e) + ".")
				}
				if d, ok := pm.Get("default"); ok {
					row.Description = strings.TrimSpace(row.Description + " Default: " + jsonInline(d) + ".")
				}
			}
			v.Rows = append(v.Rows, row)
			if pm != nil && depth < 3 {
				walk(prefix+k+".", pm, depth+1)
			}
		}
	}
	walk("", s, 1)
	return v
}

func mapAt(m *yamltree.Map, key string) (*yamltree.Map, bool) {
	if m == nil {
		return nil, false
	}
	v, ok := m.Get(key)
	if !ok {
		return nil, false
	}
	mm, ok := v.(*yamltree.Map)
	return mm, ok
}

func scalar(m *yamltree.Map, key string) string {
	v, ok := m.Get(key)
	if !ok {
		return ""
	}
	switch x := v.(type) {
	case string:
		return x
	case []any:
		return jsonInline(x)
	case *yamltree.Map, nil:
		return ""
	}
	return jsonInline(v)
}

func jsonText(v any) string {
	b, err := yamltree.JSON(v, "  ")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func jsonInline(v any) string {
	b, err := yamltree.JSON(v, "")
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func diagViews(ds []diag.Diagnostic) []diagView {
	out := make([]diagView, 0, len(ds))
	for _, d := range ds {
		where := d.File
		if d.Line > 0 {
			where += fmt.Sprintf(":%d", d.Line)
			if d.Column > 0 {
				where += fmt.Sprintf(":%d", d.Column)
			}
		}
		out = append(out, diagView{Severity: d.Severity.String(), Where: where, Code: d.Code, Message: d.Message})
	}
	return out
}

// safeHTTPURL returns u when it is an absolute http(s) URL, else "".
func safeHTTPURL(u string) string {
	p, err := url.Parse(strings.TrimSpace(u))
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return ""
	}
	return p.String()
}

func byteSize(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
}

// firstLine flattens s to one line of at most max runes.
func firstLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= max || utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:max-1])) + "…"
}

// hashTag is how a tag is shown: with one leading '#', which SkillBag tags
// (#group/name) already have.
func hashTag(t string) string {
	if strings.HasPrefix(t, "#") {
		return t
	}
	return "#" + t
}
