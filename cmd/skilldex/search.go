package main

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/skilldex/skilldex/index"
)

func newSearchCmd() *cobra.Command {
	var (
		indexPath string
		asJSON    bool
		limit     int
		explain   bool
	)
	cmd := &cobra.Command{
		Use:   "search [--index DIR|FILE] [--json] [--limit N] [--explain] TERMS...",
		Short: "Search a built site's skills from the command line",
		Long: `search queries the bleve index that skilldex build writes into the site
(search/bleve, and the same index as one file, search/bleve.zip), and
ranks as the site's search page does. The last word matches as a prefix,
so "kube" finds kubernetes (a common word such as "to" or "for" only when
it is the whole query); a misspelt word is matched to its nearest
spelling. Matches are highlighted.

Query syntax, as on the search page:
  "a phrase"      its words, each required, matched as typed
  +word  -word    a word required; a word no result may have
  type:cli  tag:x  source:x  plugin:x  category:x  capability:x
  license:x  status:x  format:x
                  only skills with that value (quote values with spaces:
                  source:"my skills"); -tag:x leaves them out. Filters
                  and exclusions alone list their skills by name.

A word to exclude starts with -, as a flag does: put the terms after --
(skilldex search -- deploy -pdf).

--explain prints how each hit's score is made: each word's term, idf,
factor and weight, the weight split by field, and the share of words
matched.

--index takes the index folder, a site folder, or the archive file (which
is opened as is: download search/bleve.zip from any skilldex site and
search it). Without --index, public/search/bleve is used, else
public/search/bleve.zip.

Exit status: 0 when something matched; 1 when nothing did; 2 on usage or
I/O failure.`,
		Example: `  skilldex search kubernetes deploy
  skilldex search --json --limit 3 review pull request
  skilldex search --explain -- '"code review"' -python type:knowledge
  skilldex search --index skills-site/search/bleve.zip pdf`,
		Args: argsBetween(1, -1, "words to search for"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if limit < 1 {
				return failure(fmt.Errorf("--limit must be at least 1, not %d", limit))
			}
			p, err := defaultIndex(indexPath)
			if err != nil {
				return failure(err)
			}
			ix, err := openIndex(p, indexPath != "")
			if err != nil {
				return failure(err)
			}
			defer ix.Close()
			res, err := ix.SearchWith(strings.Join(args, " "), index.SearchOptions{Limit: limit, Explain: explain, Facets: asJSON})
			if err != nil {
				return failure(err)
			}
			for _, note := range index.Notes(res.Mistyped, res.EmptyFilters) {
				fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", note)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if err := enc.Encode(res); err != nil {
					return failure(err)
				}
			} else {
				printHits(out, res, isTerminal(out))
			}
			if len(res.Hits) == 0 {
				if !asJSON {
					fmt.Fprintf(cmd.ErrOrStderr(), "no skill matches %q\n", strings.Join(args, " "))
				}
				return &exitError{code: exitFindings}
			}
			return nil
		},
	}
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		ferr := flagError(c, err)
		var notExist *pflag.NotExistError
		if errors.As(err, &notExist) {
			return fmt.Errorf("%w; a word to exclude starts with - as a flag does: put the terms after -- (skilldex search -- deploy -pdf)", ferr)
		}
		return ferr
	})
	cmd.Flags().StringVar(&indexPath, "index", "", "the bleve index: folder, site folder or .zip archive (default public/search/bleve)")
	cmd.Flags().BoolVar(&asJSON, "json", false, `print {"hits": [{"name", "score", ...}], "total", "facets"} in rank order (with --explain, each hit's "explanation")`)
	cmd.Flags().IntVar(&limit, "limit", 10, "most results to show")
	cmd.Flags().BoolVar(&explain, "explain", false, "show how each hit's score is made, by term and field")
	return cmd
}

// defaultIndex resolves --index: as given, else the default site's index
// folder, else its archive.
// openIndex opens the index at p, and says what to give when p is not
// one (given: it came from --index).
func openIndex(p string, given bool) (*index.Bleve, error) {
	const want = "give a site folder skilldex build wrote, its search/bleve folder, or its search/bleve.zip"
	if _, err := os.Stat(p); err != nil && given {
		return nil, fmt.Errorf("--index %s; %s", pathProblem(err), want)
	}
	ix, err := index.Open(p)
	if errors.Is(err, zip.ErrFormat) {
		return nil, fmt.Errorf("--index %s is neither a folder nor a ZIP archive of a search index; %s", p, want)
	}
	return ix, err
}

func defaultIndex(p string) (string, error) {
	if p != "" {
		return p, nil
	}
	for _, c := range []string{filepath.Join("public", filepath.FromSlash(index.BleveDir)), filepath.Join("public", filepath.FromSlash(index.BleveArchive))} {
		if _, err := os.Stat(c); err == nil {
			return c, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	return "", fmt.Errorf("no index at public/%s or public/%s: run skilldex build first (with publish.bleve on, the default), or pass --index", index.BleveDir, index.BleveArchive)
}

// printHits writes the results for people: name, labels, the description
// (or the best highlighted fragment) and the page URL. Matches are shown
// in reverse video on a terminal and as **word** elsewhere.
func printHits(w io.Writer, res *index.Result, color bool) {
	on, off := "**", "**"
	if color {
		on, off = "\x1b[1;7m", "\x1b[0m"
	}
	mark := func(s string) string {
		s = strings.ReplaceAll(s, "<mark>", "\x00")
		s = strings.ReplaceAll(s, "</mark>", "\x01")
		s = html.UnescapeString(s)
		s = strings.ReplaceAll(s, "\x00", on)
		return strings.ReplaceAll(s, "\x01", off)
	}
	for i, h := range res.Hits {
		name := h.Name
		if f := h.Highlights["name"]; len(f) > 0 {
			name = mark(f[0])
		}
		var labels []string
		for _, l := range []string{h.Source, h.Type, h.Status} {
			if l != "" {
				labels = append(labels, l)
			}
		}
		fmt.Fprintf(w, "%2d. %s", i+1, name)
		if len(labels) > 0 {
			fmt.Fprintf(w, "  [%s]", strings.Join(labels, ", "))
		}
		fmt.Fprintf(w, "  %.2f\n", h.Score)
		text := h.Description
		if f := h.Highlights["description"]; len(f) > 0 {
			text = mark(f[0])
		}
		fmt.Fprintf(w, "    %s\n", strings.Join(strings.Fields(text), " "))
		for _, f := range []string{"tags", "capabilities", "keywords", "intents"} {
			if frags := h.Highlights[f]; len(frags) > 0 {
				fmt.Fprintf(w, "    %s: %s\n", f, mark(strings.Join(frags, ", ")))
			}
		}
		if h.URL != "" {
			fmt.Fprintf(w, "    %s\n", h.URL)
		}
		if h.Explanation != nil {
			printExplanation(w, h)
		}
	}
	if len(res.Hits) > 0 && res.Total > uint64(len(res.Hits)) {
		fmt.Fprintf(w, "(%d of %d matching skills; --limit shows more)\n", len(res.Hits), res.Total)
	}
}

// printExplanation writes how a hit's score is made.
func printExplanation(w io.Writer, h index.Hit) {
	ex := h.Explanation
	fmt.Fprintf(w, "    score %.4g = sum %.4g × %d/%d words matched\n", h.Score, ex.Sum, ex.Matched, ex.Counted)
	for _, ws := range ex.Words {
		word := ws.Word
		if ws.Conversational {
			word += " (conversational)"
		}
		if ws.Term == "" {
			fmt.Fprintf(w, "      %s: no match\n", word)
			continue
		}
		fmt.Fprintf(w, "      %s → %s (%s): idf %.3f × factor %.3g × weight %.3f = %.4g\n", word, ws.Term, ws.Match, ws.IDF, ws.Factor, ws.Weight, ws.Score)
		var parts []string
		for _, f := range ws.Fields {
			parts = append(parts, fmt.Sprintf("%s %d in %d: %.3f", f.Field, f.Count, f.Length, f.Weight))
		}
		if len(parts) == 0 {
			// bleve's fields keep some words whole that the model splits.
			parts = append(parts, "by field: inside words the fields keep whole (snake_case, v1.2)")
		}
		fmt.Fprintf(w, "        %s\n", strings.Join(parts, "; "))
	}
}
