package main

import (
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
)

// version, when set at link time (-ldflags "-X main.version=v1.2.3"),
// stands for the module version of the build info: for builds that do not
// go through the go command's module mode, such as a distribution's
// package.
var version string

// buildVersion is what the binary knows of the code it was built from.
type buildVersion struct {
	// Module is the module version: a release (v1.2.3), a pseudo-version
	// (v0.0.0-20260301120000-0123456789ab, which names its commit), with
	// "+dirty" when built from a checkout with local changes; or "devel"
	// when the go command recorded none (go run, go test, a build with
	// -buildvcs=false or in a git worktree).
	Module string
	// Revision is the commit, 12 hex digits, when known: from the version
	// control information of a go build in a checkout, else from a
	// pseudo-version. A release built by go install ...@v1.2.3 has none:
	// its tag names it.
	Revision string
	// Modified is set when the checkout had local changes.
	Modified bool
	// Go is the Go version that built it (go1.26.8).
	Go string
}

// thisVersion is the version of the running binary.
func thisVersion() buildVersion {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(bi, version)
}

// pseudoRevision finds the commit in a pseudo-version
// (vX.Y.Z-[pre.]0.yyyymmddhhmmss-abcdef123456[+meta]).
var pseudoRevision = regexp.MustCompile(`[.-]\d{14}-([0-9a-f]{12})(?:\+.*)?$`)

// versionOf reads a build info; override, when set, is the module
// version.
func versionOf(bi *debug.BuildInfo, override string) buildVersion {
	v := buildVersion{Module: "devel", Go: runtime.Version()}
	if bi == nil {
		if override != "" {
			v.Module = override
		}
		return v
	}
	if bi.GoVersion != "" {
		v.Go = bi.GoVersion
	}
	if m := bi.Main.Version; m != "" && m != "(devel)" {
		v.Module = m
	}
	if override != "" {
		v.Module = override
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Revision = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	if v.Revision == "" {
		if m := pseudoRevision.FindStringSubmatch(v.Module); m != nil {
			v.Revision = m[1]
		}
	}
	if len(v.Revision) > 12 {
		v.Revision = v.Revision[:12]
	}
	return v
}

// String is the one line that says which skilldex this is: what
// skilldex version prints, --verbose builds start with and the site's
// generator meta tag holds, such as
// "skilldex v0.0.0-20260301120000-0123456789ab (revision 0123456789ab, go1.26.8)".
func (v buildVersion) String() string {
	var in []string
	if v.Revision != "" {
		in = append(in, "revision "+v.Revision)
	}
	if v.Modified {
		in = append(in, "modified")
	}
	in = append(in, v.Go)
	return fmt.Sprintf("skilldex %s (%s)", v.Module, strings.Join(in, ", "))
}

// Installable is the version go install takes to install this skilldex
// again (go install github.com/skilldex/skilldex/cmd/skilldex@VERSION):
// the module version without "+dirty" (a modified checkout's closest
// version is its commit), else the commit, else "latest" when the binary
// knows neither.
func (v buildVersion) Installable() string {
	if v.Module != "devel" {
		m, _, _ := strings.Cut(v.Module, "+")
		return m
	}
	if v.Revision != "" {
		return v.Revision
	}
	return "latest"
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print skilldex's version, commit and Go version",
		Long: `version prints the module version of this skilldex, the commit it was
built from when that is known, and the Go version that built it: the line
skilldex build --verbose starts with, and the generator of every page.

A binary built by go install ...@v1.2.3 names its release; one built by
go install ...@COMMIT, or by go build in a git checkout, names its commit
too.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(cmd.OutOrStdout(), thisVersion())
			return nil
		},
	}
}
