package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/uasp"
)

func newQueryCmd() *cobra.Command {
	var sf sourceFlags
	cmd := &cobra.Command{
		Use:   "query [SOURCE...] 'NAME:PATH[?KEY=GLOB&...]'",
		Short: "Answer a UASP query about a skill of the sources",
		Long: `query reads the sources (default: the current folder), finds the skill
NAME, and prints the answer to PATH in its UASP document: the author's
NAME.uasp.yaml, or the document derived from its SKILL.md.

PATH is dot-separated (commands.click); keys that hold dots are found as
keys (commands.record.start, reference.sequence.parallel); list entries are
found by name or id (state.entities.refs, sources.stripe:go-live) or by
index (constraints.never.0). Filters keep the entries of a list whose KEY
matches GLOB, case-insensitively (* ? [...]): decisions?when=*charges*.

The answer is JSON: {"skill", "path", "found", "value"}, or, when the query
fails, {"skill", "path", "found": false, "error": {"code", "message"}} with
the codes SKILL_NOT_FOUND, PATH_NOT_FOUND, VALIDATION_FAILED or
INVALID_QUERY. Quote the query: the shell reads ? [ ] * & itself.

Exit status: 0 when found; 1 when not; 2 on usage or I/O failure.`,
		Example: `  skilldex query skills/ 'agent-browser:commands.click'
  skilldex query 'stripe-best-practices:decisions?when=*Charges*'
  skilldex query skills/ 'mermaid-diagrams:reference.sequence.parallel'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			raw := args[len(args)-1]
			sources := args[:len(args)-1]
			if len(sources) == 0 {
				sources = []string{"."}
			}
			q, err := uasp.ParseQuery(raw)
			if err != nil {
				return failure(fmt.Errorf("query %q: %v", raw, err))
			}
			c, err := build.Load(cmd.Context(), sf.loadOptions(sources))
			if err != nil {
				return failure(err)
			}
			var a uasp.Answer
			if s := c.Lookup(q.Skill); s != nil && s.Doc != nil {
				a = s.Doc.Query(q.Path, q.Filters)
			} else {
				a = uasp.SkillNotFound(q.Skill, q.Path)
				for _, s := range c.All {
					if s.Name == q.Skill && !s.Published() {
						a.Error.Message = fmt.Sprintf("Skill '%s' is not loaded: %s is not published (run skilldex validate %s to see why)", q.Skill, s.File(), s.Path)
					}
				}
			}
			if _, err := cmd.OutOrStdout().Write(uasp.MarshalAnswer(a)); err != nil {
				return failure(err)
			}
			if !a.Found {
				return &exitError{code: exitFindings}
			}
			return nil
		},
	}
	sf.register(cmd)
	return cmd
}
