package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/report"
	"github.com/skilldex/skilldex/build/source"
)

// sourceFlags are the flags every command that reads sources shares.
type sourceFlags struct {
	strict       bool
	archiveFiles int
	archiveBytes int64
	archiveName  int
	workers      int
}

func (f *sourceFlags) register(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&f.strict, "strict", false, "judge SKILL.md skills exactly as the Agent Skills reference validator (skills-ref) does, and treat warnings as failures")
	cmd.Flags().IntVar(&f.archiveFiles, "archive-max-files", source.DefaultArchiveLimits.MaxFiles, "most entries a .skill or .zip archive may hold")
	cmd.Flags().Int64Var(&f.archiveBytes, "archive-max-bytes", source.DefaultArchiveLimits.MaxTotalBytes, "most bytes an archive may inflate to")
	cmd.Flags().IntVar(&f.archiveName, "archive-max-name", source.DefaultArchiveLimits.MaxNameLength, "longest archive entry name, in characters")
	cmd.Flags().IntVar(&f.workers, "workers", 0, "skills processed in parallel (0: one per CPU)")
}

func (f *sourceFlags) loadOptions(sources []string) build.LoadOptions {
	opt := build.LoadOptions{Sources: sources, Strict: f.strict, Workers: f.workers}
	opt.Source = source.DefaultOptions
	opt.Source.Archive = source.ArchiveLimits{MaxFiles: f.archiveFiles, MaxTotalBytes: f.archiveBytes, MaxFileBytes: f.archiveBytes, MaxNameLength: f.archiveName}
	return opt
}

func newValidateCmd() *cobra.Command {
	var sf sourceFlags
	var format, configFile string
	var verbose bool
	cmd := &cobra.Command{
		Use:   "validate [SOURCE...]",
		Short: "Check every skill of the sources and report what to fix",
		Long: `validate reads the sources (folders searched recursively, .skill and .zip
archives, NAME.uasp.yaml documents, SkillBag workspaces) and reports every
problem with its file, line and column.

Sources come from the arguments, else from the config file (skilldex.yaml
in the current folder, or --config) as build reads it, else the current
folder: a bare skilldex validate in a catalog repository checks what
skilldex build publishes. Paths are shown as given, but for --format github
and sarif, which name files relative to the repository: there, they are
relative to the catalog root (the config file's folder, else the current
folder), under repository.path when the config sets it.

By default it is lenient, as real clients are: a skill is rejected only when
it cannot be read or has no usable name or description; other spec
violations are warnings. With --strict, a SKILL.md skill is invalid exactly
when the Agent Skills reference validator says so, and warnings fail too.

Exit status: 0 when nothing has an error (and, with --strict, nothing
warns): no skill rejected, no broken marketplace or workspace file; 1
otherwise; 2 on usage or I/O failure.`,
		Example: `  skilldex validate skills/
  skilldex validate --strict --format json skills/ > report.json
  skilldex validate --format github .      # annotations in GitHub Actions
  skilldex validate --format sarif . > skilldex.sarif`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !contains(report.Formats, format) {
				return failure(fmt.Errorf("unknown --format %q (want %s)", format, strings.Join(report.Formats, ", ")))
			}
			opt, cs, err := sf.catalogOptions(cmd, configFile, args, verbose)
			if err != nil {
				return failure(err)
			}
			if format == "github" || format == "sarif" {
				opt.Source.Display = cs.repoDisplay(opt.Sources)
			}
			opt.NoDerive = true // checking needs no derived document
			opt.Progress = &build.Progress{}
			view := newProgressView(cmd.ErrOrStderr(), opt.Progress, false, verbose)
			view.run()
			c, err := build.Load(cmd.Context(), opt)
			view.finish()
			if err != nil {
				return failure(err)
			}
			out := cmd.OutOrStdout()
			ropt := report.Options{Verbose: verbose, Version: thisVersion().Module, Color: format == "text" && useColor(out)}
			if err := report.Write(out, format, c, ropt); err != nil {
				return failure(err)
			}
			if code := findingsCode(c, opt.Strict); code != exitOK {
				return &exitError{code: code}
			}
			return nil
		},
	}
	sf.register(cmd)
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json, github or sarif")
	configFlag(cmd, &configFile)
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "also print info diagnostics (text format), and the folders of the sources not searched, and why")
	return cmd
}

// catalogOptions are the load options of validate and query: the sources
// and settings of the config file, as build reads them, with the current
// folder for sources when there is neither argument nor config file.
// verbose prints the folders not searched on stderr.
func (f *sourceFlags) catalogOptions(cmd *cobra.Command, configFile string, args []string, verbose bool) (build.LoadOptions, *catalogSources, error) {
	cs, err := readSources(configFile, args)
	if err != nil {
		return build.LoadOptions{}, nil, err
	}
	sources := cs.sources
	if len(sources) == 0 {
		sources = []string{"."}
	}
	opt := f.loadOptions(sources)
	if !cmd.Flags().Changed("strict") && cs.cfg.Strict {
		opt.Strict = true
	}
	opt.Source.Exclude = []string{cs.output(buildOutput, false)}
	if verbose {
		opt.Skipped = printSkipped(cmd.ErrOrStderr())
	}
	return opt, cs, nil
}

// findingsCode is 1 when a skill is rejected or, with strict, anything
// warns; else 0.
func findingsCode(c *catalog.Catalog, strict bool) int {
	s := c.Summarize()
	if s.Errors > 0 || (strict && s.Warnings > 0) {
		return exitFindings
	}
	return exitOK
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
