// Package build runs skilldex's pipeline: it finds the skills in the
// sources, parses and checks each (in parallel), assembles the catalog, and
// writes the site. Load stops after the catalog; Build writes it out.
package build

import (
	"context"
	"encoding/hex"
	"path"
	"slices"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/lint"
	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/build/sourcename"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/internal/parallel"
)

// LoadOptions configure reading and checking the sources.
type LoadOptions struct {
	// Sources are folders and files, in order: a later one wins a name.
	Sources []string
	// Strict makes the checks those of the Agent Skills reference validator.
	Strict bool
	// Source limits; zero values take the defaults.
	Source source.Options
	// Workers bounds the parallelism; 0 means one per CPU.
	Workers int
	// NoDerive skips deriving UASP documents from SKILL.md: skills get the
	// document their author wrote, or none. Checking needs no derived
	// document (their findings are info and never change a status), so
	// validate sets it; everything that publishes or queries documents
	// leaves it off.
	NoDerive bool
	// Cache, when set, holds the per-skill work of earlier loads: only the
	// skills whose files changed are parsed and checked again.
	Cache *Cache
	// Skipped, when set, is told which folders discovery did not search,
	// and why (source.Result.Skipped): what --verbose prints.
	Skipped func([]source.Skip)
	// SourceNames name sources for people (the Source facet): a source,
	// as given in Sources, to its name. Sources not named here are named
	// as package sourcename says: by Repository, their git remote, their
	// folder.
	SourceNames map[string]string
	// Repository is the catalog's repository URL (the config's
	// repository:), which names the source of a catalog of one. Build
	// takes the site's when it is not set.
	Repository string
	// Progress, when set, follows the load (and Build's writing).
	Progress *Progress
}

// Load reads, parses and checks every skill of the sources, gives each its
// UASP document, and returns the catalog. It fails only when a source
// cannot be read at all; everything wrong with a skill is in its
// diagnostics. The skills' YAML syntax trees are let go once their checks
// are done (skill.Skill.ReleaseSyntax).
func Load(ctx context.Context, opt LoadOptions) (*catalog.Catalog, error) {
	opt.Progress.start(StageDiscover, 0)
	found, err := source.Discover(ctx, opt.Sources, opt.Source)
	if err != nil {
		return nil, err
	}
	if opt.Skipped != nil {
		opt.Skipped(found.Skipped)
	}
	roots := sourcename.Roots(opt.Sources, sourcename.Options{Names: opt.SourceNames, Repository: opt.Repository})
	skills := make([]*catalog.Skill, len(found.Inputs))
	if opt.Cache != nil {
		opt.Cache.begin()
	}
	opt.Progress.start(StageParse, len(found.Inputs))
	parallel.For(ctx, len(found.Inputs), opt.Workers, func(i int) {
		defer opt.Progress.add()
		in := found.Inputs[i]
		src := roots[in.RootIndex].Of(workspaceDir(in))
		var key [32]byte
		cacheable := false
		if opt.Cache != nil {
			key, cacheable = opt.Cache.key(in, src, opt)
			if cacheable {
				if e, ok := opt.Cache.get(key); ok {
					// The same files, found again: keep the work, but
					// point at this discovery's input, whose workspace
					// is the one the checks across skills look for.
					s := *e.skill
					s.Input = in
					skills[i] = &catalog.Skill{Skill: &s, Diagnostics: slices.Clone(e.diags), Doc: e.doc, Key: hex.EncodeToString(key[:]), SourceName: src}
					return
				}
			}
		}
		s := skill.Parse(in)
		ds := lint.Check(s, lint.Options{Strict: opt.Strict})
		// Every skill gets its UASP document, given or derived. What is
		// wrong with a given one counts in the skill's status like any
		// finding; a derived one's findings are info.
		var doc *uasp.Document
		var uds []diag.Diagnostic
		if !opt.NoDerive || s.UASPValue != nil {
			doc, uds = uasp.ForSkill(s)
		}
		// The checks of this skill are done: those across skills
		// (workspaces, below) read no deeper than ReleaseSyntax keeps.
		s.ReleaseSyntax()
		skills[i] = &catalog.Skill{Skill: s, Diagnostics: diag.Sort(append(ds, uds...)), Doc: doc, SourceName: src}
		if cacheable {
			skills[i].Key = hex.EncodeToString(key[:])
			opt.Cache.put(key, &cached{skill: s, diags: slices.Clone(skills[i].Diagnostics), doc: doc})
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opt.Cache != nil {
		opt.Cache.end()
	}
	global := found.Diagnostics
	for _, ws := range found.Workspaces {
		var members []*skill.Skill
		bySkill := map[*skill.Skill]*catalog.Skill{}
		for _, s := range skills {
			if s.Workspace == ws {
				members = append(members, s.Skill)
				bySkill[s.Skill] = s
			}
		}
		per, g := lint.CheckWorkspace(ws, members)
		for s, ds := range per {
			cs := bySkill[s]
			cs.Diagnostics = diag.Sort(append(cs.Diagnostics, ds...))
		}
		global = append(global, g...)
	}
	return catalog.New(skills, found.Workspaces, global), nil
}

// workspaceDir is the folder of the skill's SkillBag workspace relative to
// its root ("." for the root), or "" when it is in none: a workspace's
// skills are its .skills/<name>/ folders.
func workspaceDir(in *source.Input) string {
	if in.Workspace == nil {
		return ""
	}
	return path.Dir(path.Dir(in.RelPath))
}
