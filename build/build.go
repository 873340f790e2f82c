package build

import (
	"context"
	"errors"
	"fmt"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/skilldex/skilldex/build/api"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/pass"
	"github.com/skilldex/skilldex/build/site"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/index"
	"github.com/skilldex/skilldex/internal/parallel"
)

// Options configure a build.
type Options struct {
	LoadOptions
	// Output is the site folder to write (default "public").
	Output string
	// Site is the site's title and base URL.
	Site *siteinfo.Info
	// NoMinify writes HTML, CSS and JavaScript as generated.
	NoMinify bool
	// Previous is the manifest of the site now at Output, from the Result
	// of the build that wrote it. With it (and a LoadOptions.Cache), the
	// build is incremental: only what changed is rendered and written, and
	// the output is the same as a full build's.
	Previous *output.Manifest
	// LimitMemory sets a soft memory limit for writing the site, from the
	// number of skills (see memoryLimit), unless the program has one
	// (GOMEMLIMIT): for a one-off build, whose process holds nothing
	// else. serve, whose memo holds more, leaves it unset.
	LimitMemory bool
}

// A Writer writes one part of the site (pages, the JSON API, the search
// index) from the catalog. Its share of a build (pass.Work) is work per
// skill and catalog-wide files, which need that work done: a build runs
// every writer's work per skill in one pass over the skills, each skill's
// content read once for all of them, then the writers' catalog-wide files
// one writer after another, from the summaries. A writer never parses
// sources itself, and reads back only files it wrote.
type Writer interface {
	// Name is the stage name shown in progress ("pages", "search", "api").
	Name() string
	// Begin prepares the writer's share of a build. m holds what the
	// writer worked out in the previous build of the same Cache, for it
	// to reuse (a skill's work, keyed by the skill's catalog.Skill.Key);
	// nil in a one-off build.
	Begin(ctx context.Context, c *catalog.Catalog, out *output.Writer, site *siteinfo.Info, m *memo.Memo) (pass.Work, error)
}

// writers are the parts of a site, in the order they are written. Each
// part of the site adds its writer here.
// Search comes first: its catalog-wide work starts from the bleve segments
// the pass built, which are let go sooner.
var writers = []Writer{index.Writer{}, site.Writer{}, api.Writer{}}

// Result describes a finished build.
type Result struct {
	// Catalog is the catalog written: the skills' summaries, their
	// content read by Catalog.Content.
	Catalog *catalog.Catalog
	// Site is the site settings the build used, "auto" ones decided.
	Site     *siteinfo.Info
	Files    int
	Duration time.Duration
	// Written and Kept count the files this build wrote and those it left
	// as the previous build wrote them (incremental builds).
	Written, Kept int
	// Manifest describes the site written, for the next build's Previous.
	Manifest *output.Manifest
	// Notices say what the site settings left out of the site or made
	// relative, for the user to hear of once (not findings about the
	// inputs).
	Notices []Notice
}

// A Notice is a consequence of a site setting that the user should know
// of, and the setting that would change it.
type Notice struct {
	// Setting is the key of skilldex.yaml that changes it (SettingBaseURL).
	Setting string
	// Message says what the site lacks, in a sentence without a period.
	Message string
}

// SettingBaseURL is the setting of the site's base URL.
const SettingBaseURL = "base_url"

// notices returns what the site settings leave out of the site.
func notices(site *siteinfo.Info) []Notice {
	if site.Absolute() {
		return nil
	}
	what := "no base URL is set"
	served := "; links start at the host's root (/assets/, /skills/), so the site works only served at the root of a host, not under a path such as a GitHub project site's /REPO/"
	if site.Base.Path != "/" {
		what = "the base URL " + site.Base.Path + " has no host"
		served = ""
	}
	return []Notice{{
		Setting: SettingBaseURL,
		Message: what + ": sitemap.xml and canonical links are left out, and the feed, llms.txt and the JSON API link relative to the site" + served,
	}}
}

// write runs the writers: Begin for each, at once; then one pass over the
// published skills, in parallel, each skill going through every writer in
// turn; then each writer's catalog-wide files, one writer after another,
// so that the memory each holds while it works (the search index's, most)
// does not add up. The writers share only their inputs, which they read,
// and the output, which takes files from any goroutine; each reads back
// only files it wrote itself (api: the Markdown twins into llms-full.txt,
// the digests of the skills' files for the discovery index; pages: the
// HTML pages for the sitemap, which no other writer makes,
// TestOnlyPagesWriteHTMLPages).
func write(ctx context.Context, ws []Writer, c *catalog.Catalog, out *output.Writer, site *siteinfo.Info, m *memo.Memo, progress *Progress) error {
	// The labels tell the writers apart in a CPU profile
	// (go tool pprof -tagfocus writer=api), goroutines they start
	// included.
	labelled := make([]context.Context, len(ws))
	for i, w := range ws {
		labelled[i] = pprof.WithLabels(ctx, pprof.Labels("writer", w.Name()))
	}
	works := make([]pass.Work, len(ws))
	errs := make([]error, len(ws))
	wrap := func(i int, err error) error {
		if err != nil {
			return fmt.Errorf("writing %s: %w", ws[i].Name(), err)
		}
		return nil
	}
	// The writers begin at once: each prepares its own state.
	parallel.For(ctx, len(ws), len(ws), func(i int) {
		inLabels(ctx, labelled[i], func() { works[i], errs[i] = ws[i].Begin(ctx, c, out, site, m) })
		errs[i] = wrap(i, errs[i])
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	progress.start(StageSkills, len(c.Skills))
	if err := skillPass(ctx, ws, works, labelled, c, progress); err != nil {
		return err
	}
	c.Complete()
	if m != nil {
		return catalogTogether(ctx, ws, works, labelled, progress)
	}
	for i, w := range ws {
		if err := ctx.Err(); err != nil {
			return err
		}
		if works[i].Catalog == nil {
			continue
		}
		progress.start(w.Name(), 0)
		var err error
		inLabels(ctx, labelled[i], func() { err = works[i].Catalog() })
		if err := wrap(i, err); err != nil {
			return err
		}
		// What the writer held for its files (the search index's
		// records, the pages' cards) goes before the next writer's.
		works[i] = pass.Work{}
	}
	return nil
}

// catalogTogether writes the writers' catalog-wide files at once, as one
// stage named after them all. A build with a memo (serve's) keeps what
// the writers hold in the memo anyway, so taking turns would save little
// memory, while the person waiting for the page would wait for every
// writer in turn instead of the slowest.
func catalogTogether(ctx context.Context, ws []Writer, works []pass.Work, labelled []context.Context, progress *Progress) error {
	var names []string
	for i, w := range ws {
		if works[i].Catalog != nil {
			names = append(names, w.Name())
		}
	}
	if len(names) == 0 {
		return nil
	}
	progress.start(strings.Join(names, ", "), 0)
	errs := make([]error, len(ws))
	parallel.For(ctx, len(ws), len(ws), func(i int) {
		if works[i].Catalog == nil {
			return
		}
		inLabels(ctx, labelled[i], func() { errs[i] = works[i].Catalog() })
		if errs[i] != nil {
			errs[i] = fmt.Errorf("writing %s: %w", ws[i].Name(), errs[i])
		}
		works[i] = pass.Work{}
	})
	if err := ctx.Err(); err != nil {
		return err
	}
	return errors.Join(errs...)
}

// inLabels runs f with the goroutine labelled as labelled is, then as
// ctx is (the labels a caller of Build may have set).
func inLabels(ctx, labelled context.Context, f func()) {
	pprof.SetGoroutineLabels(labelled)
	defer pprof.SetGoroutineLabels(ctx)
	f()
}

// skillPass runs every writer's work for each published skill, skills in
// parallel. A skill whose document is still to be derived has its content
// read first, which completes its summary; otherwise the content is read
// when a writer first asks for it. A skill is counted done in progress
// after its last writer. It stops at the first error and returns the error
// of the first skill in catalog order that failed.
func skillPass(ctx context.Context, ws []Writer, works []pass.Work, labelled []context.Context, c *catalog.Catalog, progress *Progress) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(c.Skills))
	parallel.For(ctx, len(c.Skills), 0, func(i int) {
		s := pass.Of(c, i)
		if s.DocPending() {
			if _, err := s.Content(); err != nil {
				errs[i] = err
				cancel()
				return
			}
		}
		for k, work := range works {
			if work.Skill == nil {
				continue
			}
			var err error
			inLabels(ctx, labelled[k], func() { err = work.Skill(i, s) })
			if err != nil {
				errs[i] = fmt.Errorf("writing %s: skill %s: %w", ws[k].Name(), s.Name, err)
				cancel()
				return
			}
		}
		progress.add()
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}

// sizeOf measures c for the "auto" settings.
func sizeOf(c *catalog.Catalog) siteinfo.CatalogSize {
	size := siteinfo.CatalogSize{Skills: len(c.Skills)}
	for _, s := range c.Skills {
		switch {
		case s.DocPending():
			size.Pending++
		case s.Doc != nil:
			size.Docs++
			size.Paths += s.Doc.Paths
		}
	}
	return size
}

// summarizeDocs reads the content of every skill whose document is still
// to be derived, and lets it go: their summaries are complete.
func summarizeDocs(ctx context.Context, c *catalog.Catalog, workers int) error {
	errs := make([]error, len(c.Skills))
	parallel.For(ctx, len(c.Skills), workers, func(i int) {
		if s := c.Skills[i]; s.DocPending() {
			_, errs[i] = c.Content(s)
		}
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	c.Complete()
	return ctx.Err()
}

// ErrStrict is returned when Strict is set and the inputs have findings.
var ErrStrict = errors.New("the inputs have errors or warnings and --strict is set; nothing was written")

// Build loads the sources and writes the site to opt.Output. The previous
// site there is replaced only when everything succeeded.
func Build(ctx context.Context, opt Options) (*Result, error) {
	start := time.Now()
	if opt.Output == "" {
		opt.Output = "public"
	}
	if opt.Site == nil {
		info, err := siteinfo.New("", "")
		if err != nil {
			return nil, err
		}
		opt.Site = info
	}
	// The site is never read back as sources: it holds a copy of every
	// skill (a folder skilldex built is skipped by its marker too, but the
	// output may not be built yet).
	opt.Source.Exclude = append(slices.Clip(opt.Source.Exclude), opt.Output)
	if opt.Repository == "" {
		opt.Repository = opt.Site.Repository
	}
	c, err := Load(ctx, opt.LoadOptions)
	if err != nil {
		return nil, err
	}
	if opt.LimitMemory {
		defer limitMemory(len(c.All))()
	}
	if opt.Strict {
		if s := c.Summarize(); s.Errors > 0 || s.Warnings > 0 {
			return &Result{Catalog: c, Duration: time.Since(start)}, ErrStrict
		}
	}
	if !c.CanonicalTypes() {
		// The Types taxonomy's terms depend on every type: the writers
		// begin with every document summarised.
		if err := summarizeDocs(ctx, c, opt.Workers); err != nil {
			return nil, err
		}
	}
	// "auto" settings depend on the catalog's size, known only now; a
	// copy, so that serve's next build decides afresh.
	site := opt.Site.ForCatalog(sizeOf(c))
	out, err := output.Open(opt.Output, output.Options{Minify: !opt.NoMinify, Previous: opt.Previous})
	if err != nil {
		return nil, err
	}
	if err := write(ctx, writers, c, out, site, opt.Cache.writers(), opt.Progress); err != nil {
		out.Abort()
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		out.Abort()
		return nil, err
	}
	files := out.Len()
	if err := out.Commit(); err != nil {
		return nil, err
	}
	opt.Cache.writers().Sweep()
	written, kept := out.Stats()
	return &Result{Catalog: c, Site: site, Files: files, Duration: time.Since(start), Written: written, Kept: kept,
		Manifest: out.Manifest(), Notices: notices(site)}, nil
}
