package plugin

import (
	"cmp"
	"path"
	"slices"
)

// SkillRef is a skill of the catalog: its folder, slash-separated and
// relative to the root of the file system given to Load ("." for the root
// itself), and its name.
type SkillRef struct {
	Dir  string `json:"dir"`
	Name string `json:"name"`
}

// Assign gives every plugin of s the skills it holds, and returns, for each
// skill folder that belongs to a plugin, the names of its plugins, sorted.
// A plugin holds a skill whose folder is one of its SkillDirs or directly
// inside one, as clients load SKILLS_DIR/NAME/SKILL.md. A skill may belong
// to several plugins: a plugin whose source is the repository's root holds
// every skill in its skills folder, whatever other plugins list them.
// Skills of the entries and manifests that have errors belong to no plugin.
func (s *Set) Assign(skills []SkillRef) map[string][]string {
	if s == nil {
		return nil
	}
	holders := map[string][]*Plugin{} // skill folder → plugins holding it
	for _, p := range s.Plugins {
		for _, li := range p.Listings {
			for _, d := range li.SkillDirs {
				if !slices.Contains(holders[d], p) {
					holders[d] = append(holders[d], p)
				}
			}
		}
	}
	out := map[string][]string{}
	held := map[*Plugin][]SkillRef{}
	for _, sk := range skills {
		dir := path.Clean(sk.Dir)
		var names []string
		for _, p := range holders[dir] {
			held[p] = append(held[p], sk)
			names = append(names, p.Name)
		}
		if parent := path.Dir(dir); parent != dir {
			for _, p := range holders[parent] {
				if !slices.Contains(names, p.Name) {
					held[p] = append(held[p], sk)
					names = append(names, p.Name)
				}
			}
		}
		if names != nil {
			slices.Sort(names)
			out[sk.Dir] = names
		}
	}
	for _, p := range s.Plugins {
		p.Skills = held[p]
		slices.SortFunc(p.Skills, func(a, b SkillRef) int { return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Dir, b.Dir)) })
	}
	return out
}
