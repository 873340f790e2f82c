package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/lint"
	"github.com/skilldex/skilldex/build/pack"
	"github.com/skilldex/skilldex/build/report"
	"github.com/skilldex/skilldex/build/source"
)

func newPackCmd() *cobra.Command {
	var sf sourceFlags
	var output string
	cmd := &cobra.Command{
		Use:   "pack DIR [-o NAME.skill]",
		Short: "Package a skill folder as a .skill archive (USK)",
		Long: `pack checks the skill in DIR and writes it as a .skill archive: a ZIP
holding every file of the skill under one folder named after the skill, as
USK (usk.md section 1) describes it. The files are those a build publishes:
hidden files included, .git, node_modules and nested skills left out.

The archive depends only on the files: entries are sorted, every date is
1980-01-01 and modes are fixed (0755 for files starting with #!, else
0644), so packing the same folder twice gives the same bytes. The archive
reads back (skilldex validate NAME.skill) as the same skill.

The default output is NAME.skill in the current folder; -o names the file,
or a folder to write NAME.skill into. pack never writes inside the folder
it packs: a catalog build would find the archive in the skill and publish
it instead of the folder. So within the skill folder, give -o (or run pack
from outside it). Skill archives found in the folder (.skill files, and
.zip files holding a SKILL.md) are left out, with a note: packed, an old
archive would go into the new one.

Exit status: 0 when written; 1 when the skill has errors (or warnings, with
--strict), exceeds the archive limits, leaves files of the folder out (too
large, too many, named so that no archive can hold them, or symbolic links
pointing out of the folder), or the archive would be inside the folder or
replace the archive being packed, and nothing is written; 2 on usage or
I/O failure.`,
		Example: `  skilldex pack skills/pdf-tools
  skilldex pack skills/pdf-tools -o dist/`,
		Args: argsBetween(1, 1, "one skill folder"),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := args[0]
			opt := sf.loadOptions([]string{dir})
			opt.NoDerive = true // packing needs no UASP document
			c, err := build.Load(cmd.Context(), opt)
			if err != nil {
				return failure(err)
			}
			s, err := pickSkill(c, dir)
			if err != nil {
				return err
			}
			dest := output
			if dest == "" {
				dest = s.Name + ".skill"
			} else if st, err := os.Stat(dest); (err == nil && st.IsDir()) || os.IsPathSeparator(dest[len(dest)-1]) {
				dest = filepath.Join(dest, s.Name+".skill")
			}
			if err := outsideSkill(dest, s.Input); err != nil {
				return &exitError{code: exitFindings, err: err}
			}
			if s.Packaging == source.Archive && sameFile(dest, filepath.Join(s.Root, filepath.FromSlash(s.RelPath))) {
				return &exitError{code: exitFindings, err: fmt.Errorf("%s is the archive being packed, and would be replaced by the new one; nothing was written: give -o another file", dest)}
			}
			stderr := cmd.ErrOrStderr()
			in, archives := pack.WithoutArchives(s.Input)
			limits := pack.CheckLimits(in, s.Name, opt.Source.Archive)
			color := useColor(stderr)
			warned := false
			for _, d := range s.Diagnostics {
				// The limits the skill exceeds are said once, below,
				// with the limits of this run. Another skill of the
				// folder with the same name shadows this one in a
				// catalog, not in its archive.
				if (limits != nil && archiveLimitCodes[d.Code]) || d.Code == "name-shadowed" {
					continue
				}
				if d.Severity == diag.Error || d.Severity == diag.Warning {
					fmt.Fprintln(stderr, report.Line(d, color))
					warned = true
				}
			}
			for _, p := range archives {
				fmt.Fprintf(stderr, "%s: note: left out of the archive: it is the archive of a skill (an old pack, most likely), which a skill never holds; move it out of the folder\n", s.DisplayPath(p))
			}
			switch {
			case s.Status == lint.Rejected || s.Name == "":
				return &exitError{code: exitFindings, err: fmt.Errorf("%s has errors (above); fix them, then pack again", s.File())}
			case sf.strict && warned:
				return &exitError{code: exitFindings, err: fmt.Errorf("%s has warnings and --strict is set; nothing was written", s.File())}
			case s.Packaging == source.Document:
				return &exitError{code: exitFindings, err: fmt.Errorf("%s is a UASP document without a SKILL.md; a .skill archive needs a SKILL.md (skilldex convert --to markdown helps write one)", s.File())}
			}
			if limits != nil {
				return &exitError{code: exitFindings, err: fmt.Errorf("%s: %v", s.Path, limits)}
			}
			if leftOutFiles(s.Diagnostics) {
				return &exitError{code: exitFindings, err: fmt.Errorf("%s: files of the folder are left out of the skill (above), and an archive without them would not be the skill; nothing was written", s.Path)}
			}
			var buf bytes.Buffer
			if err := pack.Skill(&buf, in, s.Name); err != nil {
				return failure(err)
			}
			if err := writeFileAtomic(dest, buf.Bytes()); err != nil {
				return failure(err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "packed %s (%s, %s) into %s\n", s.Name, plural(len(in.Files), "file", "files"), plural(buf.Len(), "byte", "bytes"), dest)
			return nil
		},
	}
	sf.register(cmd)
	// One skill: nothing to do in parallel.
	cmd.Flags().MarkHidden("workers")
	cmd.Flags().StringVarP(&output, "output", "o", "", "the archive to write (default NAME.skill), or a folder to write it into")
	return cmd
}

// archiveLimitCodes are the findings of the checks pack.CheckLimits makes
// with the limits of the run (lint makes them with the default limits).
var archiveLimitCodes = map[string]bool{
	"usk-package-too-many-files": true,
	"usk-package-too-large":      true,
	"usk-file-name-too-long":     true,
}

// leftOutCodes are the findings of files the folder holds but the skill
// leaves out: over the size or file count limits of reading, named so
// that no archive can hold them, or links out of the folder (which an
// archive holding what they point to would publish).
var leftOutCodes = map[string]bool{
	"file-too-large":        true,
	"skill-too-many-files":  true,
	"file-name-unstorable":  true,
	"symlink-outside-skill": true,
}

// leftOutFiles reports whether a finding of ds says files were left out.
func leftOutFiles(ds []diag.Diagnostic) bool {
	return slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return leftOutCodes[d.Code] })
}

// outsideSkill returns why dest, the archive of the skill in, cannot be
// written, when it would be inside the skill's folder, or nil. dest's
// folder, which may not exist yet, is resolved as far as it exists (a
// link into the skill is inside it), then compared as the file system
// sees folders (inFolder).
func outsideSkill(dest string, in *source.Input) error {
	if in.Packaging != source.Folder {
		return nil
	}
	dir, err := filepath.Abs(filepath.Join(in.Root, filepath.FromSlash(in.RelPath)))
	if err != nil {
		return nil
	}
	// A destination no file can be written to (a part of its path is a
	// file) fails when written, with that reason.
	if st, err := os.Stat(filepath.Dir(dest)); (err == nil && !st.IsDir()) || (err != nil && !errors.Is(err, fs.ErrNotExist)) {
		return nil
	}
	destDir, err := resolve(filepath.Dir(dest))
	if err != nil || !inFolder(destDir, dir) {
		return nil
	}
	// The example is beside the folder, relative to the current folder
	// when that is short (../NAME.skill from inside the skill), else
	// absolute.
	beside := filepath.Join(filepath.Dir(dir), filepath.Base(dest))
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, beside); err == nil && strings.Count(rel, "..") <= 2 {
			beside = rel
		}
	}
	folder := in.Path
	if filepath.Clean(folder) == "." {
		folder = "the current folder"
	}
	return fmt.Errorf("cannot write %s inside %s, the skill folder being packed: a catalog build would find the archive in the skill and publish it instead of the folder. Nothing was written; write it outside the folder with -o, for example -o %s (and out of the folders a catalog is built from, where it would be published too)", dest, folder, beside)
}

// sameFile reports whether a and b are one existing file.
func sameFile(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// resolve returns the absolute path of p with links resolved as far as
// it exists; the rest is joined as it is.
func resolve(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for q := abs; ; q = filepath.Dir(q) {
		if real, err := filepath.EvalSymlinks(q); err == nil {
			return filepath.Join(real, rest), nil
		}
		if filepath.Dir(q) == q {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(q), rest)
	}
}

// inFolder reports whether the folder p (absolute, links resolved) is dir
// or inside it, as the file system sees them: p or one of its parents
// that exist is dir. Comparing paths would miss, on a file system that
// ignores case (macOS, Windows), that Skills/Tricky is skills/tricky.
func inFolder(p, dir string) bool {
	want, err := os.Stat(dir)
	if err != nil {
		return false
	}
	for {
		if st, err := os.Stat(p); err == nil && os.SameFile(st, want) {
			return true
		}
		up := filepath.Dir(p)
		if up == p {
			return false
		}
		p = up
	}
}

// writeFileAtomic writes data to a temporary file beside dest and renames
// it, so that an interrupted pack never leaves half an archive at dest.
func writeFileAtomic(dest string, data []byte) error {
	dir := filepath.Dir(dest)
	cannot := func(err error) error {
		return fmt.Errorf("cannot write %s: %s; choose another -o", dest, pathProblem(err))
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return cannot(err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(dest)+".*")
	if err != nil {
		// The temporary file's name means nothing to the user: the
		// problem is the folder's.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			pe.Path = dir
		}
		return cannot(err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, dest)
	}
	if err != nil {
		os.Remove(tmp)
		return cannot(err)
	}
	return nil
}
