// Package build runs skilldex's pipeline: it finds the skills in the
// sources, parses and checks each (in parallel), assembles the catalog, and
// writes the site. Load stops after the catalog; Build writes it out.
package build

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"path"
	"slices"
	"sync/atomic"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/derive"
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
	// Changed, when not nil, lists the real paths of the files and
	// folders created, written, removed or renamed since the last Load
	// with the same Cache, sources and options (a folder stands for
	// everything under it), as a watcher of the sources reports them: only
	// those parts of the sources are looked at again (source.Rediscover).
	// Nil: every folder is walked.
	Changed []string
}

// Load reads, parses and checks every skill of the sources and returns
// the catalog of their summaries. It fails only when a source cannot be
// read at all; everything wrong with a skill is in its diagnostics.
//
// A skill's UASP document is the author's, summarised here, or one derived
// from its SKILL.md when its content is read (Catalog.Content): Load does
// so for the skills it does not publish, whose findings the report lists;
// the build's pass does for the others, and a caller of Load alone who
// wants a published skill's document or findings reads its content.
func Load(ctx context.Context, opt LoadOptions) (*catalog.Catalog, error) {
	opt.Progress.start(StageDiscover, 0)
	found, err := discover(ctx, opt)
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
				if s, ok := opt.Cache.get(key, in); ok {
					skills[i] = s
					return
				}
			}
		}
		k := skill.Parse(in)
		ds := lint.Check(k, lint.Options{Strict: opt.Strict})
		// What is wrong with the author's document counts in the skill's
		// status like any finding; a derived one's findings are info.
		doc, uds := uasp.Given(k)
		s := catalog.NewSkill(k, doc, !opt.NoDerive && k.Name != "")
		s.Diagnostics = diag.Sort(append(ds, uds...))
		s.SourceName = src
		if cacheable {
			s.Key = hex.EncodeToString(key[:])
			opt.Cache.put(key, s)
		}
		skills[i] = s
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opt.Cache != nil {
		opt.Cache.end()
	}
	global := slices.Clone(found.Diagnostics) // found is kept for the next load: not appended to
	for _, ws := range found.Workspaces {
		var members []*lint.Member
		bySkill := map[*lint.Member]*catalog.Skill{}
		for _, s := range skills {
			if s.Workspace == ws {
				members = append(members, s.Member)
				bySkill[s.Member] = s
			}
		}
		per, g := lint.CheckWorkspace(ws, members)
		for m, ds := range per {
			cs := bySkill[m]
			cs.Diagnostics = diag.Sort(append(cs.Diagnostics, ds...))
		}
		global = append(global, g...)
	}
	// Plugins give their skills categories and tags, which the
	// catalog's taxonomies list.
	markets, pds := loadPlugins(found.Marketplaces, skills, roots)
	global = append(global, pds...)
	c := catalog.New(skills, found.Workspaces, markets, global, &loader{noDerive: opt.NoDerive, cache: opt.Cache})
	// The report lists every finding of the skills the site leaves out,
	// their documents' too: the pass will not come to them.
	var unpublished []*catalog.Skill
	for _, s := range c.All {
		if s.DocPending() && !s.Published() {
			unpublished = append(unpublished, s)
		}
	}
	errs := make([]error, len(unpublished))
	parallel.For(ctx, len(unpublished), opt.Workers, func(i int) {
		_, errs[i] = c.Content(unpublished[i])
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	opt.Cache.keepDiscovery(discoveryKey(opt), found)
	return c, nil
}

// discover finds the skills of the sources: where opt.Changed says what
// changed since the discovery opt.Cache holds, only there.
func discover(ctx context.Context, opt LoadOptions) (*source.Result, error) {
	// Taken, not read: a load that fails keeps none, and the next one
	// walks everything rather than trust changes it may have missed.
	prev := opt.Cache.takeDiscovery(discoveryKey(opt))
	if prev != nil && opt.Changed != nil {
		return source.Rediscover(ctx, prev, opt.Sources, opt.Source, opt.Changed)
	}
	return source.Discover(ctx, opt.Sources, opt.Source)
}

// discoveryKey is what a discovery depends on besides the files.
func discoveryKey(opt LoadOptions) string {
	return fmt.Sprintf("%q %+v", opt.Sources, opt.Source)
}

// contentReads counts the skills whose content was read, for tests.
var contentReads atomic.Int64

// loader reads the content of the skills of a catalog Load made.
type loader struct {
	noDerive bool
	// cache, when set, remembers the documents derived, for the next
	// load of an unchanged skill.
	cache *Cache
}

// Content parses the skill's files again and gives it its UASP document,
// as Load would have.
func (l *loader) Content(s *catalog.Skill) (*catalog.Content, error) {
	contentReads.Add(1)
	k := skill.Parse(s.Input)
	if err := s.CheckSame(k); err != nil {
		return nil, err
	}
	var doc *uasp.Document
	var ds []diag.Diagnostic
	if l.noDerive {
		doc, ds = uasp.Given(k)
	} else {
		doc, ds = derive.ForSkill(k)
	}
	if s.DocPending() {
		s.SetDoc(doc, ds)
		l.cache.remember(s, ds)
	}
	return &catalog.Content{Skill: k, Doc: doc}, nil
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
