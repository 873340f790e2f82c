package skill

import (
	"crypto/sha256"
	"fmt"
)

// unloaded is what UnloadSource keeps of the text it lets go.
type unloaded struct {
	sum [sha256.Size]byte
}

// UnloadSource lets go of the text of SKILL.md (Source, its split form Doc
// and Body) once the skill is parsed, checked and given its UASP document,
// keeping its SHA-256; ReloadSource reads it back when the skill's files
// are written. A build that writes one skill at a time then holds the
// texts of the skills being written, not those of the whole catalog: for
// 10,000 skills of 5 KB, 54 MB less for the whole of the writing. A skill
// without a SKILL.md text (a UASP document alone, or one that could not
// be read) is left as it is.
func (s *Skill) UnloadSource() {
	if s.Source == nil || s.unloaded != nil {
		return
	}
	s.unloaded = &unloaded{sum: sha256.Sum256(s.Source)}
	s.Source, s.Doc, s.Body = nil, nil, nil
}

// Unloaded reports whether the text of SKILL.md is let go until
// ReloadSource.
func (s *Skill) Unloaded() bool { return s.unloaded != nil }

// ReloadSource reads back the text UnloadSource let go, as Parse read and
// split it. It fails when SKILL.md can no longer be read, or no longer
// holds what was read: the skill was checked, and its UASP document
// derived, from the text read first, and a site that mixed the two would
// be wrong. It does nothing when the text was not unloaded.
func (s *Skill) ReloadSource() error {
	u := s.unloaded
	if u == nil {
		return nil
	}
	file := s.DisplayPath(s.SkillFile)
	src, err := readLimited(s.FS, s.SkillFile)
	if err != nil {
		return fmt.Errorf("reading %s again: %w", file, err)
	}
	if sha256.Sum256(src) != u.sum {
		return fmt.Errorf("%s changed while the site was being built; build again once it is saved", file)
	}
	d := Split(src)
	s.Source, s.Doc, s.Body = src, d, d.Body
	s.unloaded = nil
	return nil
}
