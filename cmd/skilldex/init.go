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

// marketFS holds the files skilldex init --marketplace adds: a Claude Code
// marketplace whose one plugin is the repository, and that plugin's
// manifest (see marketplaceFiles).
//
//go:embed initmarket
var marketFS embed.FS

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
	// marketplace, when set, names the plugin marketplace the repository
	// is made as, and its one plugin (--marketplace).
	marketplace string
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
		text := fill.Replace(string(data))
		if rel == ConfigFile && opt.marketplace != "" {
			// The marketplace's files are at the repository's root.
			text = strings.Replace(text, "\nsources:\n  - skills\n", "\nsources:\n  - .\n", 1)
		}
		files = append(files, initFile{path: rel, data: []byte(text)})
		return nil
	})
	if err == nil && opt.marketplace != "" {
		files = append(files, marketplaceFiles(opt.marketplace)...)
	}
	// The config first: it says what the rest is.
	slices.SortStableFunc(files, func(a, b initFile) int {
		return cmp.Compare(order(a.path), order(b.path))
	})
	return files, err
}

// marketplaceFiles are the files that make a catalog a Claude Code plugin
// marketplace named name, with one plugin of the same name: the
// repository itself (source "./"), whose skills are those of skills/.
func marketplaceFiles(name string) []initFile {
	fill := strings.NewReplacer("MARKETPLACE_NAME", name, "PLUGIN_NAME", name)
	var files []initFile
	for _, f := range []string{"marketplace.json", "plugin.json"} {
		data, _ := marketFS.ReadFile("initmarket/" + f) // embedded: always there
		files = append(files, initFile{path: ".claude-plugin/" + f, data: []byte(fill.Replace(string(data)))})
	}
	return files
}

// marketplaceName is the name of the marketplace made in dir: its folder's
// name in kebab-case, as clients want plugin and marketplace names.
func marketplaceName(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		abs = dir
	}
	var b strings.Builder
	hyphen := false
	for _, r := range strings.ToLower(filepath.Base(abs)) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			hyphen = false
			b.WriteRune(r)
			continue
		}
		hyphen = true
	}
	if b.Len() == 0 {
		return "skills"
	}
	return b.String()
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
// says on w what it wrote and what it kept, and returns the paths of the
// files it wrote.
func writeCatalog(w io.Writer, dir string, files []initFile) (wrote []string, err error) {
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
		wrote = append(wrote, f.path)
	}
	return wrote, nil
}

// unpinnedNote warns, when init wrote the Pages workflow, that the
// workflow installs whatever skilldex is latest because this binary does
// not know its own version; "" otherwise.
func unpinnedNote(v buildVersion, wrote []string) string {
	if v.Installable() != "latest" || !slices.Contains(wrote, ".github/workflows/pages.yml") {
		return ""
	}
	return "note: this skilldex does not know its version (it was built without version control information, as go build -buildvcs=false does), " +
		"so the workflow installs the latest release; set SKILLDEX_VERSION in .github/workflows/pages.yml to the version you tested with\n"
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
	var marketplace bool
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

With --marketplace, the repository is a Claude Code plugin marketplace
too, named after the folder, whose one plugin is the repository:

  .claude-plugin/marketplace.json  the marketplace, listing the plugin
  .claude-plugin/plugin.json       the plugin, whose skills are skills/

and the config's source is the whole repository, so that the site has
the plugin's page and its install commands.

It never overwrites a file: one that exists is kept, and said so.
skilldex build then writes the site, skilldex serve shows it as you
write; pushed to GitHub, with Settings > Pages > Source set to GitHub
Actions, it is published.`,
		Example: `  skilldex init my-skills && cd my-skills && skilldex serve
  skilldex init                 # in the repository's folder
  skilldex init --marketplace my-plugins`,
		Args: argsBetween(0, 1, "at most one folder"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			if st, err := os.Stat(dir); err == nil && !st.IsDir() {
				return failure(fmt.Errorf("%s is a file; give the folder to make the catalog in", dir))
			}
			opt := initOptions{version: thisVersion()}
			if marketplace {
				opt.marketplace = marketplaceName(dir)
			}
			files, err := catalogFiles(opt)
			if err != nil {
				return failure(err)
			}
			out := cmd.OutOrStdout()
			wrote, err := writeCatalog(out, dir, files)
			if err != nil {
				return failure(err)
			}
			if len(wrote) == 0 {
				fmt.Fprintln(out, "nothing written: every file is there already")
				return nil
			}
			fmt.Fprint(cmd.ErrOrStderr(), unpinnedNote(opt.version, wrote))
			in := ""
			if dir != "." {
				in = "cd " + shellWord(dir) + " && "
			}
			fmt.Fprintf(out, "\nnext: %sskilldex serve   (the site, as you write skills under %s)\n", in, path.Join(filepath.ToSlash(dir), "skills"))
			fmt.Fprintln(out, "      push to GitHub, and set Settings > Pages > Source to GitHub Actions, to publish it")
			if marketplace {
				fmt.Fprintf(out, "      in Claude Code: /plugin marketplace add OWNER/REPO, then /plugin install %s@%[1]s\n", opt.marketplace)
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&marketplace, "marketplace", false, "make the repository a Claude Code plugin marketplace too, of one plugin: the repository")
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

// shellWord quotes s for a POSIX shell when it holds more than letters,
// digits and . _ - / + , : @ %, so that the command it is part of can be
// pasted.
func shellWord(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-/+,:@%", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
