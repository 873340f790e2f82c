package main

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Errors a user can cause say what was wrong and what to do, in the
// user's words: the helpers below turn what cobra, pflag and the file
// system say into that.

// pathProblem says what went wrong with a file or folder, naming it, in
// words rather than the system call's ("/x does not exist", not
// "stat /x: no such file or directory"). Errors that are not about a path
// are returned as they are.
func pathProblem(err error) string {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return err.Error()
	}
	switch {
	case errors.Is(pe.Err, fs.ErrNotExist):
		return pe.Path + " does not exist"
	case errors.Is(pe.Err, fs.ErrPermission):
		return pe.Path + " cannot be accessed: permission denied"
	case errors.Is(pe.Err, syscall.ENOTDIR):
		return pe.Path + " is not in a folder: a part of its path is a file"
	case errors.Is(pe.Err, syscall.EISDIR):
		return pe.Path + " is a folder, not a file"
	case errors.Is(pe.Err, syscall.EROFS):
		return pe.Path + " is on a read-only file system"
	case errors.Is(pe.Err, syscall.ENOSPC):
		return "no space left on the device of " + pe.Path
	}
	return pe.Path + ": " + pe.Err.Error()
}

// userMessage is err's message with the file system's words for a path
// replaced by pathProblem's: "source /x: /x cannot be accessed:
// permission denied", not "source /x: open /x: permission denied".
func userMessage(err error) string {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = strings.Replace(msg, pe.Error(), pathProblem(pe), 1)
	}
	return msg
}

// createProblem says why a file the user named (flag, such as
// "--cpuprofile") could not be created, and what to do.
func createProblem(flag, path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && errors.Is(pe.Err, fs.ErrNotExist) {
		return fmt.Errorf("cannot write %s %s: the folder %s does not exist; create it or choose another path", flag, path, filepath.Dir(path))
	}
	return fmt.Errorf("cannot write %s %s: %s; choose another path", flag, path, pathProblem(err))
}

// flagError rewrites pflag's errors: each names the flag, says what was
// wrong with it, and where the flags are listed.
func flagError(cmd *cobra.Command, err error) error {
	help := fmt.Sprintf("%s --help lists the flags", cmd.CommandPath())
	var (
		notExist *pflag.NotExistError
		required *pflag.ValueRequiredError
		invalid  *pflag.InvalidValueError
	)
	switch {
	case errors.As(err, &notExist):
		name := notExist.GetSpecifiedName()
		if notExist.GetSpecifiedShortnames() != "" {
			name = name[:1]
			if name == "v" && cmd.Flags().Lookup("verbose") == nil {
				return fmt.Errorf("unknown flag -v: %s has no --verbose (skilldex --version prints the version); %s", cmd.CommandPath(), help)
			}
			return fmt.Errorf("unknown flag -%s; %s", name, help)
		}
		return fmt.Errorf("unknown flag --%s; %s", name, help)
	case errors.As(err, &required):
		return fmt.Errorf("--%s needs a value; %s", required.GetFlag().Name, help)
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		return fmt.Errorf("--%s %q is not %s; %s", f.Name, invalid.GetValue(), flagType(f.Value.Type()), help)
	}
	return fmt.Errorf("%v; %s", err, help)
}

// flagType names what a flag of a pflag type takes.
func flagType(t string) string {
	switch {
	case strings.HasPrefix(t, "int"), strings.HasPrefix(t, "uint"):
		return "a whole number"
	case t == "bool":
		return "true or false"
	case t == "duration":
		return "a duration such as 300ms or 2s"
	}
	return "a valid " + t
}

// argsBetween accepts from min to max arguments (max < 0: any number from
// min), and otherwise says what the command takes (what, such as "one
// skill folder") and how it is used.
func argsBetween(min, max int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		n := len(args)
		if n >= min && (max < 0 || n <= max) {
			return nil
		}
		usage := "usage: " + strings.TrimSuffix(cmd.UseLine(), " [flags]")
		if n < min {
			return fmt.Errorf("%s needs %s; %s", cmd.CommandPath(), what, usage)
		}
		return fmt.Errorf("%s takes %s, not %s (%s); %s", cmd.CommandPath(), what, plural(n, "argument", "arguments"), strings.Join(args, " "), usage)
	}
}

// noArgs accepts no argument.
var noArgs = argsBetween(0, 0, "no arguments")
