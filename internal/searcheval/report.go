package searcheval

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

// Result holds every engine's rankings of the judged queries.
type Result struct {
	Queries []Query
	// Engines are the engines' names; Ranked[e][q] is engine e's ranking
	// of query q.
	Engines []string
	Ranked  [][][]string
}

// Run ranks every query with every engine.
func Run(engines []Engine, qs []Query) (*Result, error) {
	texts := make([]string, len(qs))
	for i, q := range qs {
		texts[i] = q.Text
	}
	r := &Result{Queries: qs}
	for _, e := range engines {
		ranked, err := e.Rank(texts)
		if err != nil {
			return nil, err
		}
		r.Engines = append(r.Engines, e.Name())
		r.Ranked = append(r.Ranked, ranked)
	}
	return r, nil
}

// Score returns engine e's score on the queries of set.
func (r *Result) Score(e int, set string) Score {
	var s Score
	for i, q := range r.Queries {
		if q.Set == set {
			s.Add(FirstRight(r.Ranked[e][i], q.Right))
		}
	}
	return s
}

// Agreement counts, over the queries of set, those on which engines a and
// b rank the same skills first, and the same skills (in any order) among
// the first three.
func (r *Result) Agreement(a, b int, set string) (n, top1, top3 int) {
	for i, q := range r.Queries {
		if q.Set != set {
			continue
		}
		n++
		if SameTop(r.Ranked[a][i], r.Ranked[b][i], 1) {
			top1++
		}
		if SameTop(r.Ranked[a][i], r.Ranked[b][i], 3) {
			top3++
		}
	}
	return n, top1, top3
}

// ReportOptions choose what a report shows.
type ReportOptions struct {
	// Title is the report's first line.
	Title string
	// HeldOutMisses lists the held-out queries missed at rank 1 too. Off
	// by default: whoever tunes a ranking must not read them.
	HeldOutMisses bool
}

// WriteReport writes r as aligned text tables: every engine's success@1,
// success@3 and MRR@10 on every set; how often bleve and the JSON index
// agree; the task queries some engine misses at rank 1, with what each
// engine ranked first.
func (r *Result) WriteReport(w io.Writer, opt ReportOptions) error {
	var b strings.Builder
	if opt.Title != "" {
		b.WriteString(opt.Title + "\n\n")
	}
	sets := r.sets()

	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "set\tqueries\tengine\tsuccess@1\tsuccess@3\tMRR@10")
	for _, set := range sets {
		for e, name := range r.Engines {
			s := r.Score(e, set)
			label, count := set, fmt.Sprint(s.Queries)
			if e > 0 {
				label, count = "", ""
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.3f\n", label, count, name, ratio(s.At1, s.Queries), ratio(s.At3, s.Queries), s.MRR())
		}
	}
	tw.Flush()

	a, j := slices.Index(r.Engines, "bleve"), slices.Index(r.Engines, "json")
	if a >= 0 && j >= 0 {
		b.WriteString("\nbleve and the JSON index agree (top 1: the same skill first; top 3: the same\nskills among the first three, in any order):\n\n")
		tw = tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "set\tqueries\ttop 1\ttop 3")
		for _, set := range sets {
			n, t1, t3 := r.Agreement(a, j, set)
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", set, n, ratio(t1, n), ratio(t3, n))
		}
		tw.Flush()
	}

	for _, set := range []string{TaskTrain, TaskHeldOut} {
		if !slices.Contains(sets, set) {
			continue
		}
		if set == TaskHeldOut && !opt.HeldOutMisses {
			b.WriteString("\nMisses at rank 1 on task-heldout: not shown, so that no tuning reads them\n(-heldout-misses shows them, for the closing report of a change).\n")
			continue
		}
		r.writeMisses(&b, set)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeMisses lists the queries of set that some engine misses at rank 1.
func (r *Result) writeMisses(b *strings.Builder, set string) {
	fmt.Fprintf(b, "\nMisses at rank 1 on %s: each engine's first skill, \"ok\" when it is right,\nelse the rank of the first right skill in parentheses (\"-\": not in the first %d).\n\n", set, Depth)
	tw := tabwriter.NewWriter(b, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "query\t%s\tright\n", strings.Join(r.Engines, "\t"))
	missed := 0
	for i, q := range r.Queries {
		if q.Set != set {
			continue
		}
		cells := make([]string, len(r.Engines))
		miss := false
		for e := range r.Engines {
			ranked := r.Ranked[e][i]
			rank := FirstRight(ranked, q.Right)
			switch {
			case rank == 1:
				cells[e] = "ok"
			case len(ranked) == 0:
				cells[e] = "(nothing)"
				miss = true
			case rank == 0:
				cells[e] = ranked[0] + " (-)"
				miss = true
			default:
				cells[e] = fmt.Sprintf("%s (%d)", ranked[0], rank)
				miss = true
			}
		}
		if miss {
			missed++
			fmt.Fprintf(tw, "%s\t%s\t%s\n", q.Text, strings.Join(cells, "\t"), strings.Join(q.Right, ","))
		}
	}
	if missed == 0 {
		fmt.Fprintln(tw, "(none)")
	}
	tw.Flush()
}

// sets returns the sets that have queries, in report order.
func (r *Result) sets() []string {
	var out []string
	for _, s := range Sets {
		if slices.ContainsFunc(r.Queries, func(q Query) bool { return q.Set == s }) {
			out = append(out, s)
		}
	}
	return out
}

func ratio(k, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%d/%d (%.0f%%)", k, n, 100*float64(k)/float64(n))
}
