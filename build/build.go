package build

import (
	"context"
	"errors"
	"fmt"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/skilldex/skilldex/build/api"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/memo"
	"github.com/skilldex/skilldex/build/output"
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
	// Progress, when set, is told about each stage as it starts.
	Progress func(stage string)
	// Previous is the manifest of the site now at Output, from the Result
	// of the build that wrote it. With it (and a LoadOptions.Cache), the
	// build is incremental: only what changed is rendered and written, and
	// the output is the same as a full build's.
	Previous *output.Manifest
}

// A Writer writes one part of the site (pages, the JSON API, the search
// index) from the catalog. A full build runs the writers one after
// another, a rebuild all at once (see write); each is free to parallelise
// its own work. A writer never parses sources again, and reads back only
// files it wrote itself.
type Writer interface {
	// Name is the stage name shown in progress ("pages", "api", "search").
	Name() string
	// m holds what the writer worked out in the previous build of the
	// same Cache, for it to reuse; nil in a one-off build.
	Write(ctx context.Context, c *catalog.Catalog, out *output.Writer, site *siteinfo.Info, m *memo.Memo) error
}

// writers are the parts of a site, in the order they are written. Each
// part of the site adds its writer here.
var writers = []Writer{site.Writer{}, index.Writer{}, api.Writer{}}

// Result describes a finished build.
type Result struct {
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
}

// write runs the writers. They share only their inputs, which they read,
// and the output, which takes files from any goroutine; each reads back
// only files it wrote itself (api: the Markdown twins into
// llms-full.txt, the digests of the skills' files for the discovery
// index; pages: the HTML pages for the sitemap, which no other writer
// makes, TestOnlyPagesWriteHTMLPages). A full build runs them in turn, so that the memory each holds
// while it works (the search index's segments, most) does not add up; a
// rebuild after an edit (an output that updates a previous site) has
// little per-skill work left, and its writers run at once, so that each one's catalog-wide files overlap the others'.
func write(ctx context.Context, c *catalog.Catalog, out *output.Writer, site *siteinfo.Info, m *memo.Memo, overlap bool, progress func(string)) error {
	run := func(w Writer) (err error) {
		// The label tells the writers apart in a CPU profile
		// (go tool pprof -tagfocus writer=api), goroutines they start
		// included.
		pprof.Do(ctx, pprof.Labels("writer", w.Name()), func(ctx context.Context) {
			err = w.Write(ctx, c, out, site, m)
		})
		if err != nil {
			return fmt.Errorf("writing %s: %w", w.Name(), err)
		}
		return nil
	}
	if !overlap {
		for _, w := range writers {
			if err := ctx.Err(); err != nil {
				return err
			}
			progress(w.Name())
			if err := run(w); err != nil {
				return err
			}
		}
		return nil
	}
	names := make([]string, len(writers))
	for i, w := range writers {
		names[i] = w.Name()
	}
	progress(strings.Join(names, ", "))
	errs := make([]error, len(writers))
	parallel.For(ctx, len(writers), len(writers), func(i int) { errs[i] = run(writers[i]) })
	if err := errors.Join(errs...); err != nil {
		return err
	}
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
	progress := opt.Progress
	if progress == nil {
		progress = func(string) {}
	}
	progress("load")
	c, err := Load(ctx, opt.LoadOptions)
	if err != nil {
		return nil, err
	}
	// The checks are done: the writers need no YAML syntax tree.
	for _, s := range c.All {
		s.ReleaseSyntax()
	}
	if opt.Strict {
		if s := c.Summarize(); s.Errors > 0 || s.Warnings > 0 {
			return &Result{Catalog: c, Duration: time.Since(start)}, ErrStrict
		}
	}
	// "auto" settings depend on the catalog's size, known only now; a
	// copy, so that serve's next build decides afresh.
	site := opt.Site.ForCatalog(len(c.Skills))
	out, err := output.Open(opt.Output, output.Options{Minify: !opt.NoMinify, Previous: opt.Previous})
	if err != nil {
		return nil, err
	}
	if err := write(ctx, c, out, site, opt.Cache.writers(), out.Incremental(), progress); err != nil {
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
	return &Result{Catalog: c, Site: site, Files: files, Duration: time.Since(start), Written: written, Kept: kept, Manifest: out.Manifest()}, nil
}
