package main

import (
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skilldex/skilldex/build/source"
)

// catalogSources is what validate, query, build and serve read, once the
// config file and the arguments are merged: all four read skilldex.yaml
// the same way, so that a bare `skilldex validate` in a catalog repository
// checks what `skilldex build` publishes.
type catalogSources struct {
	cfg *config // the zero config when there is no file
	// sources are the arguments, else the config's sources, else the
	// config's own folder; none when there is neither argument nor config
	// file (the command's default applies).
	sources []string
	// root is the catalog root, absolute: published paths are relative
	// to it (see display).
	root string
}

// configFlag registers --config.
func configFlag(cmd *cobra.Command, file *string) {
	cmd.Flags().StringVar(file, "config", "", "config file (default: "+ConfigFile+" in the current folder, if there is one)")
}

// readSources reads the config file (configFile, or skilldex.yaml in the
// current folder if there is one) and merges it with args.
func readSources(configFile string, args []string) (*catalogSources, error) {
	cfg, err := loadConfig(configFile)
	if err != nil {
		return nil, err
	}
	cs := &catalogSources{cfg: cfg, sources: args}
	if cfg == nil {
		cs.cfg = &config{}
		if cs.root, err = os.Getwd(); err != nil {
			return nil, err
		}
	} else if cs.root, err = filepath.Abs(cfg.dir); err != nil {
		return nil, err
	}
	if len(cs.sources) == 0 {
		cs.sources = cs.cfg.Sources
	}
	if len(cs.sources) == 0 && cfg != nil {
		cs.sources = []string{cfg.dir}
	}
	return cs, nil
}

// output is the folder the build writes, which discovery never searches:
// the --output flag when given, else the config's output, else the flag's
// default.
func (cs *catalogSources) output(flag string, given bool) string {
	if !given && cs.cfg.Output != "" {
		return cs.cfg.Output
	}
	return flag
}

// rel returns p relative to the catalog root, slash-separated; it starts
// with ".." when p is outside the root. ok is false when no relative path
// exists (another volume).
func (cs *catalogSources) rel(p string) (rel string, ok bool) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", false
	}
	r, err := filepath.Rel(cs.root, abs)
	if err != nil {
		return "", false
	}
	rel = filepath.ToSlash(r)
	if outside(rel) {
		// The root may be reached through a symbolic link (a temporary
		// folder, a home folder mounted elsewhere).
		realRoot, err1 := filepath.EvalSymlinks(cs.root)
		realP, err2 := filepath.EvalSymlinks(abs)
		if err1 == nil && err2 == nil {
			if r, err := filepath.Rel(realRoot, realP); err == nil && !outside(filepath.ToSlash(r)) {
				rel = filepath.ToSlash(r)
			}
		}
	}
	return rel, true
}

// outside reports whether a slash-separated relative path climbs out of
// its folder.
func outside(rel string) bool { return rel == ".." || strings.HasPrefix(rel, "../") }

// display shows each source relative to the catalog root; a source
// outside it from its own folder, named as it is (its parent is the root
// then): "skills/brainstorming/SKILL.md", never a path of the build
// machine. It is what a build publishes (source.Options.Display).
func (cs *catalogSources) display(sources []string) map[string]string {
	m := make(map[string]string, len(sources))
	for _, src := range sources {
		if rel, ok := cs.rel(src); ok && !outside(rel) {
			m[src] = filepath.FromSlash(rel)
			continue
		}
		abs, err := filepath.Abs(src)
		if err != nil {
			continue
		}
		// A SKILL.md stands for its folder (source.Discover), whose
		// name must stay.
		if strings.EqualFold(filepath.Base(abs), "SKILL.md") {
			m[src] = filepath.Join(filepath.Base(filepath.Dir(abs)), filepath.Base(abs))
			continue
		}
		m[src] = filepath.Base(abs)
	}
	return m
}

// repoDirs places each source inside the repository of the config's
// repository setting: its path relative to the catalog root, under
// repository.path (so ../skills is in the repository when skilldex.yaml is
// in a sub-folder of it). A source outside the repository has no place,
// and its skills no links to the forge (source.Options.RepoDir).
func (cs *catalogSources) repoDirs(sources []string) map[string]string {
	if cs.cfg.Repository.URL == "" {
		return nil
	}
	m := map[string]string{}
	for _, src := range sources {
		rel, ok := cs.rel(src)
		if dir := path.Join(cs.cfg.Repository.Path, rel); ok && !outside(dir) {
			m[src] = dir
		}
	}
	return m
}

// repoDisplay shows each source as its path in the repository where it has
// one, else as display does: what GitHub annotations and SARIF want.
func (cs *catalogSources) repoDisplay(sources []string) map[string]string {
	m := cs.display(sources)
	for src, dir := range cs.repoDirs(sources) {
		m[src] = filepath.FromSlash(dir)
	}
	return m
}

// printSkipped tells what discovery did not search, and why (--verbose).
func printSkipped(w io.Writer) func([]source.Skip) {
	return func(skipped []source.Skip) {
		for _, s := range skipped {
			fmt.Fprintf(w, "skipped %s/: %s\n", filepath.ToSlash(s.Path), s.Reason)
		}
	}
}
