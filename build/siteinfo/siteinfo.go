// Package siteinfo describes the site being built: its title and base URL,
// and where each of its files lives. Every writer asks it for paths and
// links, so that a site published under a sub-path (a GitHub project site
// lives under /<repo>/) links correctly everywhere.
package siteinfo

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Info is the site-wide configuration the writers share.
type Info struct {
	Title       string
	Description string
	// Base is the URL the site is served from. Its path always ends in "/".
	// Without a host, links are root-relative and feeds and sitemaps, which
	// need absolute URLs, use the path alone.
	Base *url.URL
	// Repository is the source repository's URL, if known, for install
	// snippets and "edit" links, and RepositoryBranch the branch the
	// links name ("" for forge.DefaultBranch). Where each skill lives in
	// the repository is its source.Input.RepoPath.
	Repository       string
	RepositoryBranch string
	// QueryPaths says which UASP query paths get a static answer file
	// (api/v1/skills/NAME/PATH.json): QueryPathsAll, QueryPathsSections,
	// QueryPathsNone, or QueryPathsAuto ("" too), which ForCatalog turns
	// into all or sections by the number of files all would take. Paths
	// without a file are answered from the longest listed prefix (the
	// fallback rule of api/v1/openapi.json), and every answer is in
	// api/v1/skills/NAME.json.
	QueryPaths string
	// QueryPathsChoice says, in one line, what ForCatalog chose for
	// QueryPaths "auto" and why; "" when QueryPaths was set.
	QueryPathsChoice string
	// LegacyDiscovery says whether the site carries the v0.1 discovery
	// index (.well-known/skills/index.json) and the copy of each SKILL.md
	// its clients fetch (.well-known/skills/NAME/SKILL.md): "true",
	// "false", or "auto" ("" too), which ForCatalog decides by size.
	LegacyDiscovery string
	// Parts are the optional parts of the site and whether each is
	// published; New publishes them all.
	Parts Parts
	// Generator names the program that built the site, in each page's
	// generator meta tag: "skilldex" (New's), or the CLI's version line,
	// which names the release or commit. It is the same for every build
	// of one binary, so the output stays deterministic; nothing else
	// varies with it.
	Generator string
	// Date stands in for the dates the sources do not give (an Atom entry
	// needs one): SOURCE_DATE_EPOCH when set, else the Unix epoch, so
	// that the output never depends on when it was built.
	Date time.Time
}

// Parts are the parts of a site a user may leave out to make it smaller:
// each costs a file or more per skill. Every link to a part left out goes
// too. Pages, the search page's JSON index, the agent API's documents and
// indexes, and llms.txt are always published.
type Parts struct {
	// Markdown: each page's Markdown twin (skills/NAME/index.html.md) and
	// llms-full.txt, which joins them.
	Markdown bool
	// Sources: each skill's own files, byte for byte, under skills/NAME/.
	Sources bool
	// Archives: each skill's .skill archive, and the ZIP the Agent Skills
	// discovery index points to for a skill of several files.
	Archives bool
	// Bleve: the bleve index (search/bleve/, search/bleve.zip), for
	// programs and skilldex search; the browser needs only the JSON index.
	Bleve bool
	// DerivedDocs: the UASP docs skilldex derives from SKILL.md, on each
	// page (a document the author wrote is always shown).
	DerivedDocs bool
}

// AllParts publishes every part.
var AllParts = Parts{Markdown: true, Sources: true, Archives: true, Bleve: true, DerivedDocs: true}

// Values of Info.QueryPaths.
const (
	QueryPathsAll      = "all"      // every filter-free path, down to the leaves
	QueryPathsSections = "sections" // top-level sections only (commands, constraints, ...)
	QueryPathsNone     = "none"     // no per-path file
	QueryPathsAuto     = "auto"     // all within PathFileBudget, sections beyond
)

// LargeCatalog is the number of published skills past which the "auto"
// setting of the v0.1 discovery copies leaves them out: agents get every
// SKILL.md from the v0.2.0 discovery index, and each copy costs a file.
const LargeCatalog = 1000

// PathFileBudget is the number of answer files (api/v1/skills/NAME/PATH.json
// and each skill's paths.json) up to which api.paths "auto" publishes
// every path; a catalog whose documents have more gets the sections
// only. README.md, Benchmarks, gives the measurements it rests on.
const PathFileBudget = 50_000

// DerivedPathFiles is the number of answer files reckoned for a skill
// whose document is still to be derived when the "auto" settings are
// decided (its paths are counted once it is): what a derived document
// has, paths.json included, rounded up (README.md, Benchmarks).
const DerivedPathFiles = 40

// CatalogSize is what the "auto" settings are decided by.
type CatalogSize struct {
	// Skills is the number of published skills.
	Skills int
	// Docs is the number of those whose UASP document is known, and Paths
	// the sum of their query paths (uasp.Document.Paths).
	Docs, Paths int
	// Pending is the number of skills whose document is still to be
	// derived.
	Pending int
}

// PathFiles returns the number of answer files api.paths: all would
// write: those of the documents known, and DerivedPathFiles for each
// document still to be derived.
func (c CatalogSize) PathFiles() int {
	return c.Paths + c.Docs + c.Pending*DerivedPathFiles
}

// ForCatalog returns a copy of i with its "auto" settings decided for a
// catalog of that size, and QueryPathsChoice saying why.
func (i *Info) ForCatalog(size CatalogSize) *Info {
	c := *i
	if c.QueryPaths == "" || c.QueryPaths == QueryPathsAuto {
		files := size.PathFiles()
		estimate := ""
		if size.Pending > 0 {
			estimate = "about "
		}
		if files <= PathFileBudget {
			c.QueryPaths = QueryPathsAll
			c.QueryPathsChoice = fmt.Sprintf("api.paths auto chose all: %s%s answer files, within the budget of %s",
				estimate, thousands(files), thousands(PathFileBudget))
		} else {
			c.QueryPaths = QueryPathsSections
			c.QueryPathsChoice = fmt.Sprintf("api.paths auto chose sections: every path would take %s%s answer files, over the budget of %s (set api.paths: all to publish them)",
				estimate, thousands(files), thousands(PathFileBudget))
		}
	}
	if c.LegacyDiscovery == "" || c.LegacyDiscovery == "auto" {
		c.LegacyDiscovery = strconv.FormatBool(size.Skills <= LargeCatalog)
	}
	return &c
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// PublishesPath reports whether the query path p gets a static file.
func (i *Info) PublishesPath(p string) bool {
	switch i.QueryPaths {
	case QueryPathsNone:
		return false
	case QueryPathsSections:
		return !strings.Contains(p, ".")
	}
	return true
}

// PublishesPaths reports whether any query path gets a static file, and so
// whether a skill has api/v1/skills/NAME/paths.json.
func (i *Info) PublishesPaths() bool { return i.QueryPaths != QueryPathsNone }

// PublishesLegacyDiscovery reports whether the site carries the v0.1
// discovery index and its SKILL.md copies; "auto" (undecided) counts as
// yes.
func (i *Info) PublishesLegacyDiscovery() bool { return i.LegacyDiscovery != "false" }

// ListsAgentSkill reports whether the Agent Skills discovery index
// (.well-known/agent-skills/index.json) lists a skill that has a SKILL.md:
// it does when the site publishes the skill's artifact, which is its
// SKILL.md (the copy under skills/NAME/ or the v0.1 one) for a skill that
// is only that, else the ZIP of its files.
func (i *Info) ListsAgentSkill(multiFile bool) bool {
	if multiFile {
		return i.Parts.Archives
	}
	return i.Parts.Sources || i.PublishesLegacyDiscovery()
}

// SourceDate returns the time SOURCE_DATE_EPOCH gives (the reproducible
// builds convention: seconds since the Unix epoch), or the epoch itself.
func SourceDate() time.Time {
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		if n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64); err == nil {
			return time.Unix(n, 0).UTC()
		}
	}
	return time.Unix(0, 0).UTC()
}

// New returns Info for a base URL such as "https://acme.github.io/skills/"
// or "/skills/". An empty base means the site root "/".
func New(title, base string) (*Info, error) {
	if base == "" {
		base = "/"
	}
	if strings.ContainsAny(base, " \t\r\n") {
		return nil, fmt.Errorf("base URL %q has blanks", base)
	}
	u, err := url.Parse(base)
	if err != nil {
		if ue, ok := err.(*url.Error); ok {
			err = ue.Err // without the URL again
		}
		return nil, fmt.Errorf("base URL %q is not a URL: %v", base, err)
	}
	if u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("base URL %q: want http or https, not %s", base, u.Scheme)
	}
	if u.Scheme != "" && u.Host == "" {
		return nil, fmt.Errorf("base URL %q has no host", base)
	}
	if u.Scheme == "" && u.Host == "" && looksLikeHost(u.Path) {
		return nil, fmt.Errorf("base URL %q starts with a host but no https://, so it would be a path on the site (did you mean https://%s?)", base, strings.TrimSuffix(u.Path, "/")+"/")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("base URL %q must not have a query or fragment", base)
	}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	u.RawPath = ""
	if title == "" {
		title = "Skills"
	}
	return &Info{Title: title, Base: u, Date: SourceDate(), Parts: AllParts, Generator: "skilldex"}, nil
}

// looksLikeHost reports whether a base URL's path starts with a host name
// ("acme.github.io/skills"), as a base URL written without https:// does:
// a first segment of dotted labels ending in a top-level domain of two or
// more letters ("v1.2/docs" is a path).
func looksLikeHost(p string) bool {
	first, _, _ := strings.Cut(p, "/")
	dot := strings.LastIndexByte(first, '.')
	if dot <= 0 || len(first)-dot-1 < 2 {
		return false
	}
	for _, r := range first[dot+1:] {
		if (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') {
			return false
		}
	}
	return true
}

// Link returns the root-relative URL of a site path ("skills/x/" ->
// "/repo/skills/x/"). Site paths are slash-separated and unescaped.
func (i *Info) Link(sitePath string) string {
	return i.Base.Path + EscapePath(sitePath)
}

// URL returns the absolute URL of a site path, or Link when the base URL
// has no host.
func (i *Info) URL(sitePath string) string {
	if i.Base.Host == "" {
		return i.Link(sitePath)
	}
	return i.Base.Scheme + "://" + i.Base.Host + i.Link(sitePath)
}

// Absolute reports whether URL gives absolute URLs.
func (i *Info) Absolute() bool { return i.Base.Host != "" }

// EscapePath percent-encodes each segment of a slash-separated path.
func EscapePath(p string) string {
	// Most paths (skill names are lowercase letters, digits and hyphens)
	// need nothing escaped: they are returned as they are, allocating
	// nothing, for the hundreds of thousands of links a build makes.
	for i := 0; i < len(p); i++ {
		if !pathSafe(p[i]) {
			return escapeSegments(p)
		}
	}
	return p
}

// pathSafe reports whether url.PathEscape leaves c as it is, or c is the
// separator.
func pathSafe(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '_' || c == '.' || c == '~' || c == '/'
}

func escapeSegments(p string) string {
	segs := strings.Split(p, "/")
	for j, s := range segs {
		segs[j] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// Marker is the file that marks a folder as a site skilldex built: the
// output writes it, a later build may replace only a folder that holds it,
// and discovery never reads a folder that holds it as sources.
const Marker = ".skilldex-site"

// Paths of the site's files, relative to the site root (DESIGN.md, output
// contract). Page paths end in "/"; their file is FileOf(path).
func SkillPage(name string) string          { return "skills/" + name + "/" }
func SkillFile(name, file string) string    { return "skills/" + name + "/" + file }
func SkillMarkdown(name string) string      { return "skills/" + name + "/index.html.md" }
func SkillArchive(name string) string       { return "skills/" + name + "/" + name + ".skill" }
func APISkill(name string) string           { return "api/v1/skills/" + name + ".json" }
func APIQuery(name, file string) string     { return "api/v1/skills/" + name + "/" + file + ".json" }
func APIPaths(name string) string           { return "api/v1/skills/" + name + "/paths.json" }
func TaxonomyPage(kind, slug string) string { return kind + "/" + slug + "/" }
func TaxonomyIndex(kind string) string      { return kind + "/" }
func PluginPage(slug string) string         { return "plugins/" + slug + "/" }
func APIPlugins() string                    { return "api/v1/plugins.json" }

// PluginsIndex is the site path of the page that lists the plugins.
const PluginsIndex = "plugins/"

// FileOf returns the file that serves a site path: "x/" -> "x/index.html".
func FileOf(sitePath string) string {
	if sitePath == "" || strings.HasSuffix(sitePath, "/") {
		return sitePath + "index.html"
	}
	return sitePath
}

// Slug turns a taxonomy term into a path segment: lowercase letters and
// digits (any script) separated by single hyphens; "C++" becomes "c-plus-plus"
// and "C#" "c-sharp" so that they do not collide with "c".
func Slug(term string) string {
	term = strings.NewReplacer("++", " plus plus ", "#", " sharp ", "+", " plus ").Replace(term)
	s := Hyphenate(term)
	if s == "" {
		s = fmt.Sprintf("term-%x", term)
		if len(s) > 40 {
			s = s[:40]
		}
	}
	return s
}

// Hyphenate lowercases s and keeps its letters and digits (any script),
// joining the runs between them with single hyphens: "My Skill_v2" ->
// "my-skill-v2".
func Hyphenate(s string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			dash = false
		} else if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}

// BuildFolderPrefix begins the name of the folder a build of the site at
// dest writes before moving its files into dest: a sibling of dest, which
// discovery and serve's watcher leave out as they leave dest out.
func BuildFolderPrefix(dest string) string { return "." + filepath.Base(dest) + ".skilldex-" }
