package searcheval

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	good := "# a comment\n\nkube\tk8s-manifest-generator,helm-chart-scaffolding\tkeyword\r\nmy pods restart\tk8s-manifest-generator\ttask-train\n"
	qs, err := Parse("good.tsv", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	want := []Query{
		{Text: "kube", Right: []string{"k8s-manifest-generator", "helm-chart-scaffolding"}, Set: Keyword, File: "good.tsv", Line: 3},
		{Text: "my pods restart", Right: []string{"k8s-manifest-generator"}, Set: TaskTrain, File: "good.tsv", Line: 4},
	}
	if fmt.Sprint(qs) != fmt.Sprint(want) {
		t.Errorf("Parse:\n got %v\nwant %v", qs, want)
	}

	for _, tc := range []struct {
		line, err string
	}{
		{"kube\tk8s-manifest-generator", "b.tsv:2: 2 tab-separated fields, want 3"},
		{"kube\tk8s-manifest-generator\tkeyword\textra", "b.tsv:2: 4 tab-separated fields"},
		{" \tk8s-manifest-generator\tkeyword", "b.tsv:2: the query is empty"},
		{"kube \tk8s-manifest-generator\tkeyword", `b.tsv:2: the query "kube " starts or ends with a space`},
		{"kube\tk8s-manifest-generator\tkeywords", `b.tsv:2: unknown set "keywords"`},
		{"kube\t\tkeyword", `b.tsv:2: skill list ""`},
		{"kube\ta,,b\tkeyword", `b.tsv:2: skill list "a,,b"`},
		{"kube\ta, b\tkeyword", `b.tsv:2: skill list "a, b"`},
		{"kube\ta,b,a\tkeyword", `b.tsv:2: skill "a" is listed twice`},
	} {
		_, err := Parse("b.tsv", strings.NewReader("# header\n"+tc.line+"\n"))
		if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
			t.Errorf("Parse(%q) = %v, want an error starting %q", tc.line, err, tc.err)
		}
	}
}

func FuzzParseJudged(f *testing.F) {
	f.Add("kube\tk8s-manifest-generator,helm-chart-scaffolding\tkeyword\n# c\n\nq\ta\ttask-train\n")
	f.Add("a\tb\tc\td\n")
	f.Add("\t\t\n")
	f.Fuzz(func(t *testing.T, data string) {
		qs, err := Parse("f.tsv", strings.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.tsv:") {
				t.Fatalf("error without its place: %v", err)
			}
			return
		}
		for _, q := range qs {
			if q.Text == "" || strings.TrimSpace(q.Text) != q.Text || strings.ContainsAny(q.Text, "\t\n") {
				t.Fatalf("query %q accepted", q.Text)
			}
			if len(q.Right) == 0 || !slices.Contains(Sets, q.Set) || q.Line < 1 {
				t.Fatalf("query %+v accepted", q)
			}
			// What was read writes back to a line that reads the same.
			line := q.Text + "\t" + strings.Join(q.Right, ",") + "\t" + q.Set
			again, err := Parse("f.tsv", strings.NewReader(line))
			if err != nil || len(again) != 1 || !slices.Equal(again[0].Right, q.Right) || again[0].Text != q.Text {
				t.Fatalf("%q reads back as %v, %v", line, again, err)
			}
		}
	})
}

// TestHeldOut pins the split rule (a change would move judged queries
// between the splits) and checks it holds out about 30%.
func TestHeldOut(t *testing.T) {
	for q, want := range map[string]bool{"a": true, "kubernetes": false, "my pods keep restarting": false} {
		if got := HeldOut(q); got != want {
			t.Errorf("HeldOut(%q) = %v, want %v", q, got, want)
		}
	}
	n, held := 10000, 0
	for i := range n {
		if HeldOut(fmt.Sprintf("query %d", i)) {
			held++
		}
	}
	if f := float64(held) / float64(n); f < 0.28 || f > 0.32 {
		t.Errorf("HeldOut holds out %.3f of queries, want about 0.30", f)
	}
	if TaskSet("a") != TaskHeldOut || TaskSet("kubernetes") != TaskTrain {
		t.Error("TaskSet disagrees with HeldOut")
	}
}
