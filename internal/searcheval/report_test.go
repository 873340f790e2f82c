package searcheval

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/report.golden")

// fixed is an Engine with set rankings.
type fixed struct {
	name   string
	ranked map[string][]string
}

func (f fixed) Name() string { return f.name }

func (f fixed) Rank(qs []string) ([][]string, error) {
	out := make([][]string, len(qs))
	for i, q := range qs {
		out[i] = f.ranked[q]
	}
	return out, nil
}

// TestWriteReport checks the report's tables against
// testdata/report.golden (go test -update rewrites it), and that held-out
// misses show only when asked for.
func TestWriteReport(t *testing.T) {
	qs := []Query{
		{Text: "make my slow api respond faster", Right: []string{"api-perf"}, Set: TaskTrain},
		{Text: "my pods keep restarting", Right: []string{"k8s", "helm"}, Set: TaskTrain},
		{Text: "the agent keeps committing secrets", Right: []string{"secrets"}, Set: TaskHeldOut},
		{Text: "kube", Right: []string{"k8s"}, Set: Keyword},
	}
	engines := []Engine{
		fixed{"bleve", map[string][]string{
			"make my slow api respond faster":    {"api-perf", "k8s", "helm"},
			"my pods keep restarting":            {"secrets", "helm", "k8s"},
			"the agent keeps committing secrets": {"k8s"},
			"kube":                               {"k8s", "helm"},
		}},
		fixed{"json", map[string][]string{
			"make my slow api respond faster": {"api-perf", "helm", "k8s"},
			"my pods keep restarting":         {"k8s"},
			"kube":                            {"k8s", "helm"},
		}},
	}
	res, err := Run(engines, qs)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := res.WriteReport(&b, ReportOptions{Title: "Search quality (test)"}); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "report.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("report differs from %s (go test -update rewrites it):\n%s", golden, b.String())
	}
	if strings.Contains(b.String(), "the agent keeps committing secrets") {
		t.Error("a held-out query is listed without HeldOutMisses")
	}
	b.Reset()
	if err := res.WriteReport(&b, ReportOptions{HeldOutMisses: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "the agent keeps committing secrets  k8s (-)  (nothing)") {
		t.Errorf("held-out misses not listed with HeldOutMisses:\n%s", b.String())
	}
}
