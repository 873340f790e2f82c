// Command skilldex builds static sites and search indexes for agent skill
// catalogs: it reads skills (SKILL.md folders, USK .skill archives, UASP
// documents, SkillBag workspaces), validates every one, and writes a folder
// that is the whole site, for people, search and agents.
//
// Run `skilldex help` for the commands.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
)

// Exit codes of the CLI contract.
const (
	exitOK       = 0
	exitFindings = 1 // the inputs have errors (or warnings, with --strict)
	exitFailure  = 2 // usage or I/O failure
)

// exitError carries an exit code through cobra.
type exitError struct {
	code int
	err  error // nil when the output already said everything
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit %d", e.code)
	}
	return e.err.Error()
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run executes the CLI with args and returns the exit code.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetIn(stdin)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "skilldex:", userMessage(ee.err))
		}
		return ee.code
	}
	// Errors cobra raises itself are usage errors.
	msg := err.Error()
	if strings.HasPrefix(msg, `unknown command `) && strings.Contains(msg, ` for "skilldex"`) {
		msg = strings.TrimRight(msg, "\n") + "\nskilldex help lists the commands"
	}
	fmt.Fprintln(stderr, "skilldex:", msg)
	return exitFailure
}

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "skilldex",
		Short: "Static site generator and search index for agent skill catalogs",
		Long: `skilldex reads a catalog of agent skills (SKILL.md folders, USK .skill
archives, UASP documents, SkillBag workspaces), validates every skill, and
writes a folder that is the whole site: pages for people, a prebuilt search
index, and static JSON endpoints for agents. No server is needed.`,
		Version:       thisVersion().String(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	// --version has no -v: -v is --verbose in every command that has it,
	// as in go, git and cargo; skilldex version says the same.
	root.Flags().Bool("version", false, "print the version (as skilldex version does)")
	root.SetVersionTemplate("{{.Version}}\n")
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(newBuildCmd(), newServeCmd(), newValidateCmd(), newQueryCmd(), newConvertCmd(), newSearchCmd(), newPackCmd(), newMCPCmd(),
		newInitCmd(), newConfigCmd(), newVersionCmd())
	return root
}

// failure wraps an error as a usage or I/O failure (exit 2).
func failure(err error) error { return &exitError{code: exitFailure, err: err} }
