package main

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/report"
	"github.com/skilldex/skilldex/build/uasp"
)

func newConvertCmd() *cobra.Command {
	var sf sourceFlags
	var to string
	cmd := &cobra.Command{
		Use:   "convert --to uasp|markdown SKILL.md|DIR|NAME.uasp.yaml",
		Short: "Print a skill as a UASP document or as Markdown",
		Long: `convert reads one skill and prints it in another form.

--to uasp prints the skill's UASP document as YAML: the author's
NAME.uasp.yaml when there is one, else the document derived from SKILL.md
(deterministically, without an LLM), with meta first, the sections in the
schema's order and meta.version set to the content hash.

--to markdown prints the UASP document as Markdown (uasp.md 7.2).

Findings about the document (schema, version, references) go to stderr.
Exit status: 0 on success; 1 when the skill cannot be converted (no usable
name); 2 on usage or I/O failure.`,
		Example: `  skilldex convert --to uasp skills/pdf/SKILL.md > pdf.uasp.yaml
  skilldex convert --to markdown agent-browser.uasp.yaml`,
		Args: argsBetween(1, 1, "one skill: its folder, its SKILL.md or a NAME.uasp.yaml"),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch to {
			case "uasp", "markdown":
			case "":
				return failure(errors.New("say what to convert to: --to uasp (a UASP document, as YAML) or --to markdown"))
			default:
				return failure(fmt.Errorf("--to must be uasp or markdown, not %q", to))
			}
			c, err := build.Load(cmd.Context(), sf.loadOptions(args))
			if err != nil {
				return failure(err)
			}
			s, err := pickSkill(c, args[0])
			if err != nil {
				return err
			}
			k, err := c.Content(s)
			if err != nil {
				return failure(err)
			}
			stderr := cmd.ErrOrStderr()
			color := useColor(stderr)
			for _, d := range s.Diagnostics {
				if d.Severity == diag.Error || strings.HasPrefix(d.Code, "uasp-") {
					fmt.Fprintln(stderr, report.Line(d, color))
				}
			}
			if k.Doc == nil {
				return &exitError{code: exitFindings, err: fmt.Errorf("%s has no UASP document: the errors above keep it from being read as a skill; fix them", s.File())}
			}
			var out []byte
			if to == "uasp" {
				if out, err = uasp.MarshalYAML(k.Doc); err != nil {
					return failure(err)
				}
				if k.Doc.Derived {
					// A YAML comment: the document stays valid, and whoever
					// saves it as NAME.uasp.yaml sees it is unreviewed.
					out = append([]byte("# Derived from "+s.File()+" by skilldex, without review (uasp.md 7.1).\n"), out...)
				}
			} else {
				out = uasp.ToMarkdown(k.Doc)
			}
			if _, err := cmd.OutOrStdout().Write(out); err != nil {
				return failure(err)
			}
			return nil
		},
	}
	sf.register(cmd)
	// One skill: nothing to do in parallel.
	cmd.Flags().MarkHidden("workers")
	cmd.Flags().StringVar(&to, "to", "", "output form: uasp (YAML) or markdown")
	return cmd
}

// pickSkill returns the one skill the argument names: the only skill
// found, or the one whose folder or file the argument is.
func pickSkill(c *catalog.Catalog, arg string) (*catalog.Skill, error) {
	switch len(c.All) {
	case 0:
		return nil, failure(fmt.Errorf("no skill found in %s", arg))
	case 1:
		return c.All[0], nil
	}
	want := filepath.Clean(arg)
	var names []string
	for _, s := range c.All {
		if filepath.Clean(s.Path) == want || filepath.Clean(s.File()) == want {
			return s, nil
		}
		names = append(names, s.Path)
	}
	return nil, failure(fmt.Errorf("%s holds %d skills (%s); give the folder or SKILL.md of one", arg, len(names), strings.Join(names, ", ")))
}
