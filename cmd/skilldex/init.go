package main

import (
	"cmp"
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// initFS holds the files skilldex init writes, as templates: see
// catalogFiles.
//
//go:embed initfs
var initFS embed.FS

// configSchema is the JSON Schema of skilldex.yaml, which skilldex config
// schema prints and the repository serves to editors (schemaURL).
//
//go:embed skilldex.schema.json
var configSchema []byte

// schemaPath is where configSchema lives in the repository.
const schemaPath = "cmd/skilldex/skilldex.schema.json"

// release matches a release's version (v1.2.3, v1.2.3-rc.1), which the
// repository has a tag of; pseudo-versions are told apart by
// pseudoRevision.
var release = regexp.MustCompile(`^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)

// schemaURL is where editors fetch the config's schema: from the tag of
// this release, so that it describes the keys this skilldex reads, else
// from the main branch.
func schemaURL(v buildVersion) string {
	ref := "main"
	if release.MatchString(v.Module) && !pseudoRevision.MatchString(v.Module) {
		ref = v.Module
	}
	return "https://raw.githubusercontent.com/skilldex/skilldex/" + ref + "/" + schemaPath
}

// initOptions say what skilldex init makes.
type initOptions struct {
	// version is the skilldex the catalog's workflow installs and whose
	// schema its config names.
	version buildVersion
	// A later --marketplace (issue 21) adds its files in catalogFiles
	// from a field here.
}

// An initFile is one file skilldex init writes.
type initFile struct {
	path string // slash-separated, relative to the catalog's folder
	data []byte
}

// catalogFiles are the files of a new catalog: a commented config with
// its schema for editors, an example skill that validates with no
// finding, the Pages workflow of the README, and a .gitignore for the
// site.
func catalogFiles(opt initOptions) ([]initFile, error) {
	fill := strings.NewReplacer(
		"SCHEMA_URL", schemaURL(opt.version),
		"SKILLDEX_VERSION_VALUE", opt.version.Installable(),
	)
	from := map[string]string{ // the embedded file -> where it goes
		"skilldex.yaml": ConfigFile,
		"pages.yml":     ".github/workflows/pages.yml",
		"gitignore":     ".gitignore",
	}
	var files []initFile
	err := fs.WalkDir(initFS, "initfs", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := initFS.ReadFile(p)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(p, "initfs/")
		if to, ok := from[rel]; ok {
			rel = to
		}
		files = append(files, initFile{path: rel, data: []byte(fill.Replace(string(data)))})
		return nil
	})
	// The config first: it says what the rest is.
	slices.SortStableFunc(files, func(a, b initFile) int {
		return cmp.Compare(order(a.path), order(b.path))
	})
	return files, err
}

// order places the config first, then the skills, then the rest.
func order(p string) int {
	switch {
	case p == ConfigFile:
		return 0
	case strings.HasPrefix(p, "skills/"):
		return 1
	}
	return 2
}

// writeCatalog writes files into dir, never over a file that is there,
// and says on w what it wrote and what it kept.
func writeCatalog(w io.Writer, dir string, files []initFile) (wrote int, err error) {
	for _, f := range files {
		dest := filepath.Join(dir, filepath.FromSlash(f.path))
		shown := filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(f.path)))
		if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
			return wrote, fmt.Errorf("cannot make the folder of %s: %s", shown, pathProblem(err))
		}
		// O_EXCL: a file made meanwhile is not overwritten either.
		out, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			fmt.Fprintf(w, "kept  %s (it exists: skilldex init never overwrites a file)%s\n", shown, keptHint(dest, f.path))
			continue
		}
		if err != nil {
			return wrote, fmt.Errorf("cannot write %s: %s", shown, pathProblem(err))
		}
		_, err = out.Write(f.data)
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return wrote, fmt.Errorf("cannot write %s: %s", shown, pathProblem(err))
		}
		fmt.Fprintf(w, "wrote %s\n", shown)
		wrote++
	}
	return wrote, nil
}

// keptHint says what a kept file may lack.
func keptHint(dest, rel string) string {
	if rel != ".gitignore" {
		return ""
	}
	data, err := os.ReadFile(dest)
	if err == nil && !strings.Contains(string(data), "public") {
		return "; add /public/ to it, so that the site is not committed"
	}
	return ""
}

func newInitCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "init [DIR]",
		Short: "Start a catalog repository that builds and publishes as it stands",
		Long: `init writes a new catalog into DIR (default: the current folder), made if
it does not exist:

  skilldex.yaml                  the config, commented, with the schema
                                 line editors complete and check it with
  skills/write-a-skill/SKILL.md  an example skill, which validates with no
                                 finding
  .github/workflows/pages.yml    the workflow that checks pull requests and
                                 publishes the site on GitHub Pages, with
                                 this skilldex's version pinned
  .gitignore                     leaves the site (public/) out of git

It never overwrites a file: one that exists is kept, and said so.
skilldex build then writes the site, skilldex serve shows it as you
write; pushed to GitHub, with Settings > Pages > Source set to GitHub
Actions, it is published.`,
		Example: `  skilldex init my-skills && cd my-skills && skilldex serve
  skilldex init                 # in the repository's folder`,
		Args: argsBetween(0, 1, "at most one folder"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if st, err := os.Stat(dir); err == nil && !st.IsDir() {
				return failure(fmt.Errorf("%s is a file; give the folder to make the catalog in", dir))
			}
			files, err := catalogFiles(initOptions{version: thisVersion()})
			if err != nil {
				return failure(err)
			}
			out := cmd.OutOrStdout()
			wrote, err := writeCatalog(out, dir, files)
			if err != nil {
				return failure(err)
			}
			if wrote == 0 {
				fmt.Fprintln(out, "nothing written: every file is there already")
				return nil
			}
			in := ""
			if dir != "." {
				in = "cd " + dir + " && "
			}
			fmt.Fprintf(out, "\nnext: %sskilldex serve   (the site, as you write skills under %s)\n", in, path.Join(filepath.ToSlash(dir), "skills"))
			fmt.Fprintln(out, "      push to GitHub, and set Settings > Pages > Source to GitHub Actions, to publish it")
			return nil
		},
	}
	return cmd
}

func newConfigCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Describe the config file, skilldex.yaml",
		Args:  noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return cmd.Help()
		},
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of skilldex.yaml, for editors and checks",
		Long: `schema prints the JSON Schema (draft 2020-12) of skilldex.yaml: every key
the config file takes, with what it does and the values it accepts. Editors
with the YAML language server read it from the line skilldex init writes at
the top of skilldex.yaml:

  # yaml-language-server: $schema=` + schemaURL(buildVersion{Module: "devel"}),
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := cmd.OutOrStdout().Write(configSchema)
			return err
		},
	})
	return cmd
}
