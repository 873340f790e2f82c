// Package pass describes a writer's share of a build. A build makes one
// pass over the published skills in which every writer does its work for
// each skill, reading the skill's content once for all of them and
// dropping it when the last is done; then each writer writes the files
// that depend on every skill, from the catalog's summaries.
package pass

import "github.com/skilldex/skilldex/build/catalog"

// Work is a writer's share of one build.
type Work struct {
	// Skill does the writer's work for s, the i-th published skill
	// (catalog.Catalog.Skills[i]). The build calls it at most once for
	// each skill (once each unless the build fails or is cancelled), from
	// many goroutines at once, and the writers of one skill one after
	// another. nil: nothing to do per skill.
	Skill func(i int, s *Skill) error
	// Catalog writes what depends on every skill. The build calls it
	// after every Skill call has returned, when every summary is complete
	// (catalog.Catalog.Complete). nil: nothing to write.
	Catalog func() error
}

// Skill is a published skill as the pass hands it to the writers: its
// summary, complete (its UASP document summarised), and its content, read
// the first time a writer asks for it. A writer that reuses what an
// earlier build made of an unchanged skill never asks.
type Skill struct {
	*catalog.Skill
	load    func() (*catalog.Content, error)
	content *catalog.Content
	err     error
	loaded  bool
}

// NewSkill hands s to the writers, load reading its content.
func NewSkill(s *catalog.Skill, load func() (*catalog.Content, error)) *Skill {
	return &Skill{Skill: s, load: load}
}

// Of hands the i-th published skill of c to the writers, its content read
// by c.
func Of(c *catalog.Catalog, i int) *Skill {
	s := c.Skills[i]
	return NewSkill(s, func() (*catalog.Content, error) { return c.Content(s) })
}

// Content returns the skill's content, read on the first call.
func (s *Skill) Content() (*catalog.Content, error) {
	if !s.loaded {
		s.content, s.err = s.load()
		s.loaded = true
	}
	return s.content, s.err
}
