package main

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/lint"
	"github.com/skilldex/skilldex/build/siteread"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/index"
)

func newQueryCmd() *cobra.Command {
	var sf sourceFlags
	var site, configFile string
	var verbose bool
	cmd := &cobra.Command{
		Use:   "query [SOURCE... | --site DIR|URL] 'NAME:PATH[?KEY=GLOB&...]'",
		Short: "Answer a UASP query about a skill of the sources",
		Long: `query reads the sources (as build and validate read them: the arguments,
else the config file's sources, else the current folder), finds the skill
NAME, and prints the answer to PATH in its UASP document: the author's
NAME.uasp.yaml, or the document derived from its SKILL.md.

PATH is dot-separated (commands.click); keys that hold dots are found as
keys (commands.record.start, reference.sequence.parallel); list entries are
found by name or id (state.entities.refs, sources.stripe:go-live) or by
index (constraints.never.0). Filters keep the entries of a list whose KEY
matches GLOB, case-insensitively (* ? [...]): decisions?when=*charges*.

The answer is JSON: {"skill", "path", "found", "value"}, or, when the query
fails, {"skill", "path", "found": false, "error": {"code", "message"}} with
the codes SKILL_NOT_FOUND, PATH_NOT_FOUND, VALIDATION_FAILED (a skill
whose errors keep it from being published; warnings never stop an
answer) or INVALID_QUERY. Quote the query: the shell reads ? [ ] * &
itself.

With --site DIR or URL, query reads a site skilldex build wrote, from its
folder or over HTTP(S), instead of the sources, fetching only what the
answer needs: the static answer file api/v1/skills/NAME/PATH.json when
there is one; else the file of the longest prefix of PATH that
api/v1/skills/NAME/paths.json lists, or else the whole document
(api/v1/skills/NAME.json), in which the rest of PATH is looked up; filters
are applied to the value. The output is the same either way.

Exit status: 0 when found; 1 when not (SKILL_NOT_FOUND, PATH_NOT_FOUND,
VALIDATION_FAILED); 2 when the query is invalid (INVALID_QUERY: it cannot
be read, a filter's pattern has an unclosed '[', or it filters something
that is not a list), and on usage or I/O failure.`,
		Example: `  skilldex query skills/ 'agent-browser:commands.click'
  skilldex query 'stripe-best-practices:decisions?when=*Charges*'
  skilldex query skills/ 'mermaid-diagrams:reference.sequence.parallel'
  skilldex query --site public 'agent-browser:commands.click'
  skilldex query --site https://acme.github.io/skills/ 'pdf-tools:meta.description'`,
		Args: argsBetween(1, -1, "a query such as 'agent-browser:commands.click'"),
		RunE: func(cmd *cobra.Command, args []string) error {
			raw := args[len(args)-1]
			q, err := uasp.ParseQuery(raw)
			if err != nil {
				return printAnswer(cmd, uasp.MarshalAnswer(uasp.Refused(raw, err)))
			}
			if site != "" {
				if len(args) > 1 {
					return failure(errors.New("give either SOURCE folders or --site DIR, not both"))
				}
				return querySite(cmd, site, q)
			}
			opt, _, err := sf.catalogOptions(cmd, configFile, args[:len(args)-1], verbose)
			if err != nil {
				return failure(err)
			}
			c, err := build.Load(cmd.Context(), opt)
			if err != nil {
				return failure(err)
			}
			var k *catalog.Content
			if s := c.Lookup(q.Skill); s != nil {
				if k, err = c.Content(s); err != nil {
					return failure(err)
				}
			}
			var a uasp.Answer
			if k != nil && k.Doc != nil {
				a = k.Doc.Query(q.Path, q.Filters)
			} else {
				a = uasp.SkillNotFound(q.Skill, q.Path)
				if near := nearNames(q.Skill, c.Skills); len(near) > 0 {
					a.Error.Message = fmt.Sprintf("Skill '%s' is not loaded; did you mean %s? (skilldex validate --format json lists the skills of the sources)", q.Skill, strings.Join(near, " or "))
				}
				for _, s := range c.All {
					// A skill whose name cannot be read goes by its folder's.
					named := s.Name == q.Skill || (s.Name == "" && s.Input != nil && s.Input.DirName == q.Skill)
					if named && !s.Published() {
						a = unpublished(s, q)
					}
				}
			}
			return printAnswer(cmd, uasp.MarshalAnswer(a))
		},
	}
	sf.register(cmd)
	cmd.Flags().StringVar(&site, "site", "", "answer from the built site in `DIR`, or published at a URL (its api/v1 files), instead of the sources")
	configFlag(cmd, &configFile)
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "also print the folders of the sources not searched, and why")
	return cmd
}

// nearNames returns, quoted, the names of skills at most two edits from
// name (the nearest first, at most three), or those it starts or ends.
func nearNames(name string, skills []*catalog.Skill) []string {
	type near struct {
		name string
		d    int
	}
	var found []near
	want := []rune(name)
	for _, s := range skills {
		d := index.EditDistance(want, []rune(s.Name), 2)
		if d > 2 {
			if len(name) < 3 || !strings.HasPrefix(s.Name, name) && !strings.HasSuffix(s.Name, name) {
				continue
			}
			d = 3
		}
		found = append(found, near{s.Name, d})
	}
	slices.SortFunc(found, func(a, b near) int { return cmp.Or(cmp.Compare(a.d, b.d), cmp.Compare(a.name, b.name)) })
	var out []string
	for _, n := range found[:min(len(found), 3)] {
		out = append(out, "'"+n.name+"'")
	}
	return out
}

// unpublished answers q for a skill of the sources that is not published:
// VALIDATION_FAILED with its errors when it has any (only errors make a
// skill unanswerable; warnings never do), else SKILL_NOT_FOUND saying why.
func unpublished(s *catalog.Skill, q uasp.Query) uasp.Answer {
	var errs []string
	for _, d := range s.Diagnostics {
		if d.Severity == diag.Error {
			errs = append(errs, d.String())
		}
	}
	if s.Status == lint.Rejected && len(errs) > 0 {
		a := uasp.Failure(q.Skill, q.Path, uasp.ErrValidationFailed, fmt.Sprintf(
			"Skill '%s' has errors, so it is not published; fix the errors listed in details (skilldex validate %s shows every finding)", q.Skill, s.Path))
		a.Error.Details = errs
		return a
	}
	a := uasp.SkillNotFound(q.Skill, q.Path)
	a.Error.Message = fmt.Sprintf("Skill '%s' is not loaded: %s is not published (run skilldex validate %s to see why)", q.Skill, s.File(), s.Path)
	return a
}

// querySite answers q from a built site, a folder or a URL.
func querySite(cmd *cobra.Command, location string, q uasp.Query) error {
	s, err := siteread.Open(cmd.Context(), location)
	if err != nil {
		return failure(err)
	}
	b, _, err := s.Query(cmd.Context(), q)
	if err != nil {
		return failure(err)
	}
	return printAnswer(cmd, b)
}

// printAnswer prints a query's answer (uasp.MarshalAnswer's JSON) and
// returns the exit status it stands for: 0 when found; 2 when the query
// is invalid (INVALID_QUERY: a usage error); 1 otherwise.
func printAnswer(cmd *cobra.Command, answer []byte) error {
	if _, err := cmd.OutOrStdout().Write(answer); err != nil {
		return failure(err)
	}
	var a struct {
		Found bool
		Error *struct{ Code string }
	}
	if err := json.Unmarshal(answer, &a); err != nil {
		return failure(fmt.Errorf("reading the answer: %v", err))
	}
	switch {
	case a.Found:
		return nil
	case a.Error != nil && a.Error.Code == uasp.ErrInvalidQuery:
		return &exitError{code: exitFailure}
	}
	return &exitError{code: exitFindings}
}
