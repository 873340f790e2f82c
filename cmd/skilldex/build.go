package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/report"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/content"
)

// siteFlags are the flags build and serve share.
type siteFlags struct {
	sources    sourceFlags
	output     string
	baseURL    string
	title      string
	configFile string
	noMinify   bool
	quiet      bool
	verbose    bool
	cpuProfile string
	memProfile string
}

// buildOutput is the folder build writes the site to unless told
// otherwise, and which validate and query then never read as sources.
const buildOutput = "public"

func (f *siteFlags) register(cmd *cobra.Command, defaultOutput string) {
	f.sources.register(cmd)
	cmd.Flags().StringVarP(&f.output, "output", "o", defaultOutput, "the site folder to write; skilldex replaces it only if it made it")
	cmd.Flags().StringVar(&f.baseURL, "base-url", "", "URL the site is served from, such as https://acme.github.io/skills/ (a GitHub project site lives under /<repo>/)")
	cmd.Flags().StringVar(&f.title, "title", "", "the site's title (default \"Agent skills\")")
	configFlag(cmd, &f.configFile)
	cmd.Flags().BoolVar(&f.noMinify, "no-minify", false, "write HTML, CSS and JavaScript as generated")
	cmd.Flags().BoolVarP(&f.quiet, "quiet", "q", false, "print only problems: errors (and warnings, with --strict); no progress, summary or notes")
	cmd.Flags().BoolVarP(&f.verbose, "verbose", "v", false, "also print skilldex's version, the folders of the sources not searched and why, and (off a terminal) each stage's duration")
	cmd.Flags().StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the build to this file (go tool pprof reads it)")
	cmd.Flags().StringVar(&f.memProfile, "memprofile", "", "write a heap profile to this file when the build ends: alloc_space is what the whole build allocated, inuse_space what it still held")
}

// profile starts a CPU profile when asked; the returned func stops it and
// writes the heap profile, when asked.
func (f *siteFlags) profile() (stop func(), err error) {
	stopCPU := func() {}
	if f.cpuProfile != "" {
		file, err := os.Create(f.cpuProfile)
		if err != nil {
			return nil, createProblem("--cpuprofile", f.cpuProfile, err)
		}
		if err := pprof.StartCPUProfile(file); err != nil {
			file.Close()
			return nil, err
		}
		stopCPU = func() { pprof.StopCPUProfile(); file.Close() }
	}
	return func() {
		stopCPU()
		if f.memProfile == "" {
			return
		}
		file, err := os.Create(f.memProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "skilldex:", createProblem("--memprofile", f.memProfile, err))
			return
		}
		defer file.Close()
		// A collection first, so that inuse_space is up to date.
		runtime.GC()
		if err := pprof.WriteHeapProfile(file); err != nil {
			fmt.Fprintln(os.Stderr, "skilldex: memprofile:", err)
		}
	}, nil
}

// buildPlan is what a build reads and writes, once the config file, the
// flags and the defaults are merged.
type buildPlan struct {
	opt     build.Options
	cleanup func() // removes the unpacked demo catalog, if any
	demo    bool
}

// plan merges the config file, the flags (which win) and the defaults. With
// no source and no config file, it unpacks the embedded demo catalog.
func (f *siteFlags) plan(cmd *cobra.Command, args []string) (*buildPlan, error) {
	cs, err := readSources(f.configFile, args)
	if err != nil {
		return nil, err
	}
	cfg := cs.cfg
	p := &buildPlan{cleanup: func() {}}
	sources := cs.sources
	changed := cmd.Flags().Changed
	if changed("output") && strings.TrimSpace(f.output) == "" {
		return nil, errors.New("-o is empty; give the folder to write the site to, such as -o public")
	}
	lo := f.sources.loadOptions(sources)
	lo.SourceNames = cfg.sourceNames
	if !changed("strict") && cfg.Strict {
		lo.Strict = true
	}
	// What the site says of the sources names no folder of this machine.
	lo.Source.Display = cs.display(sources)
	lo.Source.RepoDir = cs.repoDirs(sources)
	if f.verbose {
		lo.Skipped = printSkipped(cmd.ErrOrStderr())
	}
	if len(sources) == 0 {
		dir, err := os.MkdirTemp("", "skilldex-demo-")
		if err != nil {
			return nil, err
		}
		root := filepath.Join(dir, "content")
		if err := os.Mkdir(root, 0o755); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		if err := content.Extract(root); err != nil {
			os.RemoveAll(dir)
			return nil, fmt.Errorf("unpacking the demo catalog: %w", err)
		}
		lo.Sources = []string{root}
		lo.Source.Display = map[string]string{root: "content"}
		p.cleanup = func() { os.RemoveAll(dir) }
		p.demo = true
	}
	output := cs.output(f.output, changed("output"))
	base := cfg.BaseURL
	if changed("base-url") {
		base = f.baseURL
	}
	title := cfg.Title
	if changed("title") {
		title = f.title
	}
	if title == "" {
		title = "Agent skills"
		if p.demo {
			title = "skilldex demo catalog"
		}
	}
	info, err := siteinfo.New(title, base)
	if err != nil {
		p.cleanup()
		return nil, fmt.Errorf("%v; give a URL such as https://acme.github.io/skills/ or a path such as /skills/", err)
	}
	info.Description = cfg.Description
	info.Generator = thisVersion().String()
	info.Repository, info.RepositoryBranch = cfg.Repository.URL, cfg.Repository.Branch
	info.QueryPaths = cfg.API.Paths
	info.LegacyDiscovery = cfg.Discovery.Legacy
	info.Parts = cfg.parts()
	p.opt = build.Options{LoadOptions: lo, Output: output, Site: info, NoMinify: f.noMinify}
	return p, nil
}

func newBuildCmd() *cobra.Command {
	var f siteFlags
	cmd := &cobra.Command{
		Use:   "build [SOURCE...]",
		Short: "Build the catalog site: pages, search index and the agent API",
		Long: `build reads the sources (folders searched recursively, .skill and .zip
archives, NAME.uasp.yaml documents, SkillBag workspaces), validates every
skill, and writes the whole site to the output folder: HTML pages, the
search index, and the static JSON endpoints agents read.

Sources come from the arguments, else from the config file (skilldex.yaml
in the current folder, or --config): its sources, else its own folder.
With neither, build reads the embedded demo catalog. Flags override the
config file. Folders are searched recursively, hidden ones included, but
never a site skilldex built (a folder holding .skilldex-site), the output
folder, version control data (.git, ...) or installed dependencies
(node_modules, a Python virtualenv, ...); --verbose lists them. What an
operating system or an editor leaves beside a skill's files (.DS_Store,
Thumbs.db, Vim's swap files, NAME~ backups, Emacs' lock files) is no
part of the skill.

Pages, the report and the JSON files name each skill's source relative to
the catalog root: the folder of the config file, else the current folder
when the source is inside it, else the source's parent folder.

The site is written to a temporary folder and swapped in at the end, so a
failed or interrupted build leaves the previous site as it was. skilldex
refuses to replace a non-empty folder it did not make.

A skill that cannot be published is reported and left out; the others are
published. With --strict, any error or warning fails the build and nothing
is written.

Exit status: 0 when the site was written and nothing had an error; 1 when
something had an error, such as a rejected skill or a broken marketplace
file (the site is still written, without what could not be published),
or, with --strict, when anything warns (nothing is written); 2 on usage
or I/O failure.`,
		Example: `  skilldex build                          # the embedded demo catalog, into public/
  skilldex build skills/ -o public
  skilldex build --base-url https://acme.github.io/skills/ skills/
  skilldex build --config site/skilldex.yaml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := f.plan(cmd, args)
			if err != nil {
				return failure(err)
			}
			defer p.cleanup()
			stderr := cmd.ErrOrStderr()
			stopProfile, err := f.profile()
			if err != nil {
				return failure(err)
			}
			defer stopProfile()
			// A one-off build: the process holds nothing but the build.
			p.opt.LimitMemory = true
			res, err := f.build(cmd, p.opt)
			if errors.Is(err, build.ErrStrict) {
				return &exitError{code: exitFindings, err: err}
			}
			if err != nil {
				return failure(err)
			}
			if !f.quiet {
				printSummary(stderr, res, p.opt.Output, p.opt.Site)
				printNotices(stderr, res.Notices)
			}
			return codeErr(findingsCode(res.Catalog, p.opt.Strict))
		},
	}
	f.register(cmd, buildOutput)
	return cmd
}

// build runs a build, showing its progress unless quiet, and prints its
// findings.
func (f *siteFlags) build(cmd *cobra.Command, opt build.Options) (*build.Result, error) {
	stderr := cmd.ErrOrStderr()
	if f.verbose {
		fmt.Fprintln(stderr, thisVersion())
	}
	var view *progressView
	if !f.quiet {
		opt.Progress = &build.Progress{}
		view = newProgressView(stderr, opt.Progress, true, f.verbose)
		view.run()
	}
	res, err := build.Build(cmd.Context(), opt)
	if view != nil {
		view.finish()
	}
	if res != nil && res.Catalog != nil {
		printFindings(stderr, res.Catalog, f.quiet, opt.Strict)
	}
	return res, err
}

func codeErr(code int) error {
	if code == exitOK {
		return nil
	}
	return &exitError{code: code}
}

// printFindings prints the errors of the build and, unless quiet, how many
// warnings there are: a large catalog has hundreds, and the site's report
// page lists them all. With strict, warnings fail the build, so each is
// printed.
func printFindings(w io.Writer, c *catalog.Catalog, quiet, strict bool) {
	p := findingsPrinter{w: w, color: useColor(w), warnings: strict}
	p.print(c.Diagnostics)
	for _, s := range c.All {
		p.print(s.Diagnostics)
	}
	if p.hidden > 0 && !quiet {
		fmt.Fprintf(w, "%s: see report/ in the site, or run skilldex validate\n", plural(p.hidden, "warning", "warnings"))
	}
}

// A findingsPrinter prints findings one a line, with file:line:col as
// validate prints them: errors, and warnings when told to. It counts the
// warnings it leaves out.
type findingsPrinter struct {
	w               io.Writer
	color, warnings bool
	hidden          int
}

func (p *findingsPrinter) print(ds []diag.Diagnostic) {
	for _, d := range ds {
		switch {
		case d.Severity == diag.Error, d.Severity == diag.Warning && p.warnings:
			fmt.Fprintln(p.w, report.Line(d, p.color))
		case d.Severity == diag.Warning:
			p.hidden++
		}
	}
}

func printSummary(w io.Writer, res *build.Result, output string, requested *siteinfo.Info) {
	fmt.Fprintf(w, "%s\npublished %s to %s: %s in %s\n", report.SummaryLine(res.Catalog.Summarize()),
		plural(len(res.Catalog.Skills), "skill", "skills"), output, plural(res.Files, "file", "files"), duration(res.Duration))
	if note := largeCatalogNote(requested, res); note != "" {
		fmt.Fprintln(w, note)
	}
}

// settingHow says how to set each setting a build.Notice names.
var settingHow = map[string]string{
	build.SettingBaseURL: "set base_url in " + ConfigFile + " or pass --base-url with the address the site is served at (such as https://acme.github.io/skills/)",
}

// printNotices prints what the settings left out of the site, one line
// each, and how to change it. serve does not: its local preview has no
// base URL on purpose.
func printNotices(w io.Writer, notices []build.Notice) {
	for _, n := range notices {
		line := "note: " + n.Message
		if how := settingHow[n.Setting]; how != "" {
			line += "; " + how
		}
		fmt.Fprintln(w, line)
	}
}

// largeCatalogNote says what the "auto" settings chose for the site and
// why (api.paths, whatever the catalog's size), and which optional files
// they left out of a large catalog and how to have them, so that nobody
// wonders where they went.
func largeCatalogNote(requested *siteinfo.Info, res *build.Result) string {
	if res.Site == nil || requested == nil {
		return ""
	}
	var lines []string
	if res.Site.QueryPathsChoice != "" {
		lines = append(lines, res.Site.QueryPathsChoice)
	}
	if len(res.Catalog.Skills) > siteinfo.LargeCatalog && !res.Site.PublishesLegacyDiscovery() && requested.LegacyDiscovery != "false" {
		lines = append(lines, fmt.Sprintf("over %d skills: left out the v0.1 discovery copies (set discovery.legacy: true in %s to publish them)",
			siteinfo.LargeCatalog, ConfigFile))
	}
	return strings.Join(lines, "\n")
}
