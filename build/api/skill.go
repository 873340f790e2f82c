package api

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"path"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/pack"
	"github.com/skilldex/skilldex/build/pass"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/uasp"
)

// writeSkill writes one skill's files as the output group "api:NAME":
// its Markdown twin, its files as published, its archives, its UASP
// document and answers, and its USK schema. In an incremental build a
// group whose key did not change is kept as it is, and the skill's
// content is not read.
func writeSkill(out *output.Writer, e *entry, ps *pass.Skill, site *siteinfo.Info, key string) error {
	g, reused, err := out.Group("api:"+e.name, key)
	if err != nil || reused {
		return err
	}
	s, err := ps.Content()
	if err != nil {
		return err
	}
	parts := site.Parts
	buf := getScratch()
	defer putScratch(buf)
	if parts.Markdown {
		buf.b = appendSkillMarkdown(buf.b[:0], e, s)
		if err := g.WriteRaw(siteinfo.SkillMarkdown(e.name), buf.b); err != nil {
			return err
		}
	}
	// The archives hold every file of the skill: each is read once, for
	// them and for the skill's published files (pack.Skill and pack.Flat
	// would read each again), SKILL.md and the UASP document not at all:
	// the archive holds the very bytes the skill was made from.
	var files []pack.File
	if e.hasSkillMD && parts.Archives {
		var err error
		files, err = pack.ReadFiles(s.FS, pack.Paths(s.Input), func(p string) []byte {
			switch p {
			case s.SkillFile:
				return s.Source
			case s.UASPFile:
				return s.UASPSource
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	if parts.Sources {
		if err := writeFiles(g, e, s, files); err != nil {
			return err
		}
	}
	if e.hasSkillMD && parts.Archives {
		zb := bytes.NewBuffer(buf.b[:0])
		if err := pack.WriteFiles(zb, e.name, files); err != nil {
			return err
		}
		if err := g.WriteRaw(siteinfo.SkillArchive(e.name), zb.Bytes()); err != nil {
			return err
		}
		if e.multiFile {
			zb.Reset()
			if err := pack.WriteFiles(zb, "", files); err != nil {
				return err
			}
			if err := g.WriteRaw(flatArchivePath(e.name), zb.Bytes()); err != nil {
				return err
			}
		}
		buf.b = zb.Bytes()
	}
	// Clients of the v0.1 discovery index fetch .well-known/skills/NAME/SKILL.md.
	if e.hasSkillMD && site.PublishesLegacyDiscovery() {
		if err := g.WriteRaw(legacySkillMD(e.name), s.Source); err != nil {
			return err
		}
	}
	if e.docArchive && parts.Archives {
		var buf bytes.Buffer
		if err := pack.WriteFiles(&buf, e.name, documentPackage(e, s)); err != nil {
			return err
		}
		if err := g.WriteRaw(siteinfo.SkillArchive(e.name), buf.Bytes()); err != nil {
			return err
		}
	}
	if s.Doc != nil {
		if err := writeDocument(g, e, s, site, buf); err != nil {
			return err
		}
	}
	if e.usk {
		b, err := marshal(uskSchema(e, s))
		if err != nil {
			return err
		}
		if err := g.WriteRaw(agentSchemaPath(e.name), b); err != nil {
			return err
		}
	}
	return nil
}

// documentPackage is the .skill of a UASP document alone: the document as
// written, and a SKILL.md made of its name, description and Markdown
// (uasp.ToMarkdown), so that the archive installs and reads back like any
// skill, its document used as given.
func documentPackage(e *entry, s *catalog.Content) []pack.File {
	var b bytes.Buffer
	b.WriteString("---\n")
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	_ = enc.Encode(struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
	}{e.name, e.description}) // two strings: cannot fail
	_ = enc.Close()
	b.WriteString("---\n\n")
	b.Write(uasp.ToMarkdown(s.Doc))
	return []pack.File{{Path: "SKILL.md", Data: b.Bytes()}, {Path: path.Base(s.UASPFile), Data: s.UASPSource}}
}

// writeFiles publishes every file of the skill where
// siteinfo.PublishedFile puts it (active documents only as text), byte for
// byte, and SKILL.md at skills/NAME/SKILL.md whatever its spelling. read
// are files already read, sorted by path (pack.ReadFiles); the others
// are copied from the skill's folder.
func writeFiles(g *output.Group, e *entry, s *catalog.Content, read []pack.File) error {
	in := s.Input
	for _, f := range in.Files {
		p := siteinfo.PublishedFile(e.name, f.Path)
		if p == "" {
			continue // not a path a site can hold; it stays in the archive
		}
		data := s.Source // SKILL.md exactly as parsing read it
		if f.Path != in.SkillFile {
			data = nil
			if i, ok := slices.BinarySearchFunc(read, f.Path, func(r pack.File, p string) int { return strings.Compare(r.Path, p) }); ok {
				data = read[i].Data
			}
		}
		if data != nil {
			if err := g.WriteRaw(p, data); err != nil {
				return err
			}
			continue
		}
		if err := copyFile(g, p, in.FS, f.Path); err != nil {
			return err
		}
	}
	if e.hasSkillMD && in.SkillFile != "SKILL.md" {
		return g.WriteRaw(siteinfo.SkillFile(e.name, "SKILL.md"), s.Source)
	}
	return nil
}

// copyFile streams one file of the skill into the site, unchanged.
func copyFile(g *output.Group, sitePath string, fsys fs.FS, name string) error {
	src, err := fsys.Open(name)
	if err != nil {
		return fmt.Errorf("%s: %w (was it removed during the build? build again)", name, err)
	}
	defer src.Close()
	dst, err := g.Create(sitePath)
	if err != nil {
		return err
	}
	_, err = io.Copy(dst, src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeDocument writes the whole document, one answer per path, and the
// list of paths.
func writeDocument(g *output.Group, e *entry, s *catalog.Content, site *siteinfo.Info, buf *scratch) error {
	d := s.Doc
	sd := skillJSON(e, s, site)
	buf.b = appendJSON(buf.b[:0], &sd)
	if err := g.WriteRaw(siteinfo.APISkill(e.name), buf.b); err != nil {
		return err
	}
	if !site.PublishesPaths() {
		return nil
	}
	// URL is File as a URL relative to paths.json: a file name may hold
	// '%' (as the %2F of a '/') and, before a ':', read as a scheme.
	type pathFile struct {
		Path string `json:"path"`
		File string `json:"file"`
		URL  string `json:"url"`
	}
	list := []pathFile{}
	for _, p := range d.Paths() {
		if !site.PublishesPath(p) || !HasAnswerFile(p) {
			continue
		}
		file := uasp.PathFile(p)
		// The same bytes `skilldex query` prints: the same engine, the
		// same encoder.
		if err := g.WriteRaw(AnswerPath(e.name, p), uasp.MarshalAnswer(d.Query(p, nil))); err != nil {
			return err
		}
		list = append(list, pathFile{p, file, "./" + url.PathEscape(file)})
	}
	b, err := marshal(struct {
		Skill   string     `json:"skill"`
		Version string     `json:"version"`
		Paths   []pathFile `json:"paths"`
	}{e.name, e.version, list})
	if err != nil {
		return err
	}
	return g.WriteRaw(siteinfo.APIPaths(e.name), b)
}

// skillDocument is api/v1/skills/NAME.json.
type skillDocument struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Format      string   `json:"format"`
	Status      string   `json:"status"`
	Type        string   `json:"type,omitempty"`
	Version     string   `json:"version"`
	Declared    string   `json:"declared_version,omitempty"`
	Derived     bool     `json:"derived"`
	DerivedFrom string   `json:"derived_from,omitempty"`
	Valid       bool     `json:"valid"`
	Problems    []string `json:"problems,omitempty"`
	Tags        []string `json:"tags"`
	// Plugins are the plugins that hold the skill, with their categories.
	Plugins []skillPlugin `json:"plugins,omitempty"`
	URLs    urls          `json:"urls"`
	// Files are the skill's files, SKILL.md included, sorted by path.
	Files []skillFile `json:"files"`
	// Frontmatter is the SKILL.md frontmatter as written (null without one).
	Frontmatter *tree `json:"frontmatter"`
	// Document is the UASP document, meta.version set to the content hash.
	Document tree `json:"document"`
}

// skillFile is one file of a skill in its JSON.
type skillFile struct {
	// Path is slash-separated, relative to the skill's folder.
	Path string `json:"path"`
	// Size is in bytes.
	Size int64 `json:"size"`
	// URL is where the site publishes the file, absent when it does not
	// (publish.sources off, or a path no site can hold: the archive has
	// it).
	URL string `json:"url,omitempty"`
}

// skillFiles lists the files of e's skill for its JSON.
func skillFiles(e *entry, site *siteinfo.Info) []skillFile {
	files := make([]skillFile, 0, len(e.s.Files))
	for _, f := range e.s.Files {
		sf := skillFile{Path: f.Path, Size: f.Size}
		if p := siteinfo.PublishedFile(e.name, f.Path); p != "" && site.Parts.Sources {
			sf.URL = site.URL(p)
		}
		files = append(files, sf)
	}
	return files
}

func skillJSON(e *entry, s *catalog.Content, site *siteinfo.Info) skillDocument {
	d := s.Doc
	sd := skillDocument{
		Name: e.name, Description: e.description, Format: e.format, Status: e.status,
		Type: e.docType, Version: e.version, Declared: e.declared,
		Derived: d.Derived, Valid: d.Valid(), Problems: d.Problems(), Tags: e.tags, Plugins: e.plugins, URLs: e.urls,
		Files: skillFiles(e, site), Document: tree{d.Root},
	}
	if d.Derived {
		sd.DerivedFrom = "SKILL.md"
	}
	if fm := s.Frontmatter; fm != nil && fm.Data != nil {
		sd.Frontmatter = &tree{fm.Data}
	}
	return sd
}

func (e *entry) twinFrontmatter() *twinFrontmatter {
	fm := &twinFrontmatter{
		Name: e.name, Description: e.description, Format: e.format, Status: e.status,
		Type: e.docType, Version: e.version, Declared: e.declared, Tags: e.tags,
		Page: e.urls.Page, Source: e.urls.SkillMD, Archive: e.urls.Archive, API: e.urls.JSON,
	}
	if e.hasDoc {
		fm.Paths = e.urls.Paths
	}
	return fm
}

// scratch is a buffer for the files of one skill, each written out before
// the next is made: a skill's files are built in it rather than in new
// slices grown from nothing, which the collector would have to take back.
type scratch struct{ b []byte }

var scratchPool = sync.Pool{New: func() any { return &scratch{b: make([]byte, 0, 16<<10)} }}

func getScratch() *scratch { return scratchPool.Get().(*scratch) }

// putScratch returns buf to the pool unless it grew for an unusually large
// skill, which should not keep its memory.
func putScratch(buf *scratch) {
	if cap(buf.b) <= 1<<20 {
		scratchPool.Put(buf)
	}
}

// appendSkillMarkdown appends skills/NAME/index.html.md: a YAML summary,
// then the SKILL.md body as written, or, for a UASP document alone, the
// document as Markdown (uasp.ToMarkdown).
func appendSkillMarkdown(b []byte, e *entry, s *catalog.Content) []byte {
	fm := e.twinFrontmatter()
	b = append(b, "---\n"...)
	b = fm.appendYAML(b)
	b = append(b, "---\n\n"...)
	switch {
	case e.hasSkillMD:
		b = append(b, bytes.TrimLeft(s.Body, "\n")...)
	case s.Doc != nil:
		b = append(b, uasp.ToMarkdown(s.Doc)...)
	}
	if len(b) > 0 && b[len(b)-1] != '\n' {
		b = append(b, '\n')
	}
	return b
}
