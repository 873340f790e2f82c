package catalog

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/lint"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/build/spdx"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/build/yamltree"
)

// Skill is the catalog's summary of one skill: where it was found, what
// the files about the whole catalog show of it, and its findings. A field
// that a catalog-wide file comes to need is added here, made from the
// parsed skill in NewSkill, or by the load (a plugin's membership).
type Skill struct {
	// Input is where the skill was found: its source root and path, its
	// files, and the file system they are read through.
	*source.Input

	// Name is the skill's name, trimmed and NFKC-normalised ("" when it
	// has no usable name); Description its description, trimmed.
	Name, Description string
	Format            skill.Format
	// NamePos is where the name is written in the skill's file (its
	// frontmatter's name), for findings about the name; zero when
	// unknown.
	NamePos diag.Pos

	// Tags, Categories and Capabilities are the skill's terms of those
	// taxonomies (see NewSkill), clipped so that appending copies.
	Tags, Categories, Capabilities []string
	// License is the skill's license as an SPDX expression, or spdx.Other
	// when its frontmatter's names none (spdx.Normalize); "" without one.
	License string
	// SourceName names the source the skill comes from for people (a
	// repository's owner/name, a folder's name; see package sourcename):
	// the Source taxonomy's term. "" when unknown.
	SourceName string
	// Author is the frontmatter's author, trimmed.
	Author string
	// Date is the skill's date, from its frontmatter (see dateOf), when
	// Dated is set.
	Date  time.Time
	Dated bool
	// DeclaredVersion is the version the author declared: version in the
	// frontmatter, else metadata.version.
	DeclaredVersion string
	// USK holds the fields the USK mirror lists of a USK v3 skill; nil
	// for other skills.
	USK *USKFields

	// Doc summarises the skill's UASP document: nil when the skill has
	// none, or when it is still to be derived (DocPending).
	Doc *DocInfo

	// Diagnostics are all the skill's findings, sorted.
	Diagnostics []diag.Diagnostic
	Status      lint.Status
	// ShadowedBy is the skill that took this one's name, or nil.
	ShadowedBy *Skill
	// Key is a hash of everything the skill's parse and checks read (its
	// files, where it was found, the options), set when Load has a Cache:
	// writers key what they make of the skill with it in incremental
	// builds. "" when unknown.
	Key string
	// Member is what the checks of a SkillBag workspace read of the skill;
	// nil when it belongs to none.
	Member *lint.Member
	// Plugins are the plugins that hold the skill, sorted by name; see
	// SetPlugins, which sets Inherited too.
	Plugins   []*Plugin
	Inherited Inherited

	// docPending is set while the skill's document is still to be
	// derived from its content.
	docPending bool
	// read are the SHA-256 of SKILL.md and of the UASP document as they
	// were read for the summary: content read later must be the same.
	read [2][sha256.Size]byte
}

// USKFields are what the USK mirror's search and capabilities list of a USK
// v3 skill, as its author wrote them.
type USKFields struct {
	Version, Category             string
	Tags, Capabilities, Platforms []string
}

// DocInfo is what the catalog keeps of a skill's UASP document.
type DocInfo struct {
	// Type is meta.type, as written ("" when absent).
	Type string
	// Version is the document's content hash.
	Version string
	// Derived is set for a document derived from SKILL.md.
	Derived bool
	// Description is meta.description, trimmed, kept only when the skill
	// has no description of its own: it stands in for one.
	Description string
	// Paths is the number of the document's filter-free query paths
	// (uasp.Document.Paths): the answer files api.paths: all writes for
	// it, which the "auto" setting weighs before any is written.
	Paths int
}

// NewSkill summarises k, a skill parsed from its files. doc is its UASP
// document when the author wrote one (uasp.Given); pending says that a
// document is to be derived from its content when it is read
// (Catalog.Content).
func NewSkill(k *skill.Skill, doc *uasp.Document, pending bool) *Skill {
	s := &Skill{
		Input:       k.Input,
		Name:        k.Name,
		Description: k.Description,
		Format:      k.Format,
		docPending:  doc == nil && pending,
		read:        readSums(k),
	}
	s.Tags = slices.Clip(tagsOf(k))
	s.Categories = slices.Clip(categoriesOf(k))
	s.Capabilities = slices.Clip(capabilitiesOf(k))
	if fm := k.Frontmatter; fm != nil {
		if fm.Value("name") != nil {
			s.NamePos = fm.ValuePos("name")
		}
		s.License = spdx.Normalize(fm.License)
		s.Author = strings.TrimSpace(fm.Author)
		s.Date, s.Dated = dateOf(fm)
		s.DeclaredVersion = fm.Version
		if s.DeclaredVersion == "" {
			if v, ok := yamltree.GetAs[string](fm.Metadata, "version"); ok {
				s.DeclaredVersion = v
			}
		}
		if k.Format == skill.USK && k.SkillFile != "" && k.Source != nil {
			s.USK = &USKFields{Version: fm.Version, Category: fm.Category, Tags: fm.Tags,
				Capabilities: fm.Capabilities, Platforms: fm.PlatformCompatibility}
		}
	}
	if doc != nil {
		s.Doc = docInfo(s, doc)
	}
	if k.Workspace != nil {
		s.Member = lint.MemberOf(k)
	}
	return s
}

// readSums are the SHA-256 of what parsing k read.
func readSums(k *skill.Skill) (sums [2][sha256.Size]byte) {
	if k.Source != nil {
		sums[0] = sha256.Sum256(k.Source)
	}
	if k.UASPSource != nil {
		sums[1] = sha256.Sum256(k.UASPSource)
	}
	return sums
}

// CheckSame reports an error when k, the skill parsed again from its
// files, was not parsed from what the summary s was made of: s was
// checked, and its document derived, from what was read first, and a site
// that mixed the two would be wrong.
func (s *Skill) CheckSame(k *skill.Skill) error {
	sums := readSums(k)
	for i, file := range []string{s.SkillFile, s.UASPFile} {
		if sums[i] != s.read[i] {
			return fmt.Errorf("%s changed while the site was being built; build again once it is saved", s.DisplayPath(file))
		}
	}
	return nil
}

func docInfo(s *Skill, d *uasp.Document) *DocInfo {
	info := &DocInfo{Type: d.Type(), Version: d.Version, Derived: d.Derived, Paths: len(d.Paths())}
	if s.Description == "" {
		info.Description = d.Description()
	}
	return info
}

// DocPending reports whether the skill's UASP document is still to be
// derived: the first time its content is read, which the build's pass
// does for every published skill (and Load for the others).
func (s *Skill) DocPending() bool { return s.docPending }

// SetDoc completes the summary with doc, the document derived from the
// skill's content, and ds, what is wrong with it (info, which never
// changes a status). Loaders call it; it does nothing unless the
// document was pending.
func (s *Skill) SetDoc(doc *uasp.Document, ds []diag.Diagnostic) {
	if !s.docPending {
		return
	}
	var info *DocInfo
	if doc != nil {
		info = docInfo(s, doc)
	}
	s.SetDocInfo(info, ds)
}

// SetDocInfo is SetDoc with the document summarised already (as a cache
// remembers it).
func (s *Skill) SetDocInfo(info *DocInfo, ds []diag.Diagnostic) {
	s.docPending = false
	s.Doc = info
	if len(ds) > 0 {
		s.Diagnostics = diag.Sort(append(slices.Clip(s.Diagnostics), ds...))
	}
}

// Type is the skill's UASP type (meta.type), "" when it has none or its
// document is pending.
func (s *Skill) Type() string {
	if s.Doc == nil {
		return ""
	}
	return s.Doc.Type
}

// Published reports whether the skill is part of the site.
func (s *Skill) Published() bool { return s.Status != lint.Rejected && s.ShadowedBy == nil }

// dateKeys are the frontmatter and metadata keys a skill's date is read
// from, in order of preference.
var dateKeys = []string{"updated", "last_updated", "lastUpdated", "date", "created"}

// dateOf is a skill's date: the first of dateKeys in its frontmatter, then
// in its metadata, that holds a date, else USK's author_agent.built_at.
func dateOf(fm *skill.Frontmatter) (time.Time, bool) {
	for _, m := range []*yamltree.Map{fm.Data, fm.Metadata} {
		if m == nil {
			continue
		}
		for _, k := range dateKeys {
			if v, ok := m.Get(k); ok {
				if t, ok := parseDate(v); ok {
					return t, true
				}
			}
		}
	}
	if a := fm.AuthorAgent; a != nil {
		return parseDate(a.BuiltAt)
	}
	return time.Time{}, false
}

func parseDate(v any) (time.Time, bool) {
	switch x := v.(type) {
	case time.Time:
		return x, true
	case yamltree.Timestamp:
		return parseDate(string(x))
	case string:
		x = strings.TrimSpace(x)
		for _, layout := range []string{time.RFC3339Nano, time.RFC3339, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"} {
			if t, err := time.Parse(layout, x); err == nil {
				return t, true
			}
		}
	}
	return time.Time{}, false
}
