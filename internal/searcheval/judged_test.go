package searcheval_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/index"
	"github.com/skilldex/skilldex/internal/searcheval"
	"github.com/skilldex/skilldex/internal/testutil"
)

// distinctiveDF bounds how many skills of the corpus may use a word of a
// skill's name (in their names or descriptions) for the word to be
// distinctive of the skill: "stripe", "helm" or "worktree" are; "python",
// "patterns" or "debugging" are not. A task query holds no distinctive
// name word of a skill it is judged right for.
const distinctiveDF = 10

// corpusSkill is what the checks need of a corpus skill.
type corpusSkill struct {
	name, repo string
	terms      []string // of name and description
}

// loadCorpus reads the corpus' published skills, without building a site.
func loadCorpus(t *testing.T) map[string]corpusSkill {
	t.Helper()
	root := testutil.Testdata(t, "corpus", "skills")
	cat, err := build.Load(context.Background(), build.LoadOptions{Sources: []string{root}, NoDerive: true})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]corpusSkill{}
	for _, s := range cat.Skills {
		rel, err := filepath.Rel(root, s.Path)
		if err != nil {
			t.Fatal(err)
		}
		repo, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
		out[s.Name] = corpusSkill{name: s.Name, repo: repo, terms: judgedTerms(s.Name + "\n" + s.Description)}
	}
	return out
}

// distinctiveWords returns, for each skill, the terms of its name that are
// distinctive of it (see distinctiveDF).
func distinctiveWords(skills map[string]corpusSkill) map[string][]string {
	df := map[string]int{}
	for _, s := range skills {
		seen := map[string]bool{}
		for _, t := range s.terms {
			if !seen[t] {
				seen[t] = true
				df[t]++
			}
		}
	}
	out := map[string][]string{}
	for name := range skills {
		for _, t := range judgedTerms(name) {
			if df[t] <= distinctiveDF && !slices.Contains(out[name], t) {
				out[name] = append(out[name], t)
			}
		}
	}
	return out
}

// judgedFiles maps each judged file of index/testdata/judged to the sets
// its queries may belong to.
var judgedFiles = map[string][]string{
	"task.tsv":    {searcheval.TaskTrain, searcheval.TaskHeldOut},
	"keyword.tsv": {searcheval.Keyword},
	"typo.tsv":    {searcheval.Typo},
}

// TestJudgedSetsWellFormed checks the judged query files: each is one of
// the known files and parses; every skill named exists in the corpus; no
// query is judged twice; every task query is in the split the seeded rule
// gives it; no task query holds the name of a skill it is right for, or a
// distinctive word of that name; the task queries are at least 100, and
// the skills they were written for come from every repository of the
// corpus.
func TestJudgedSetsWellFormed(t *testing.T) {
	dir := filepath.Join(testutil.ProjectRoot(t), "index", "testdata", "judged")
	files, err := filepath.Glob(filepath.Join(dir, "*.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	for name := range judgedFiles {
		if !slices.Contains(files, filepath.Join(dir, name)) {
			t.Errorf("%s is missing", filepath.Join(dir, name))
		}
	}
	skills := loadCorpus(t)
	distinctive := distinctiveWords(skills)
	seen := map[string]string{}
	written := map[string]int{} // task queries written for a skill of each repository
	tasks, heldOut := 0, 0
	for _, f := range files {
		sets, ok := judgedFiles[filepath.Base(f)]
		if !ok {
			t.Errorf("%s: unknown judged file; the known ones are task.tsv, keyword.tsv and typo.tsv", f)
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		qs, err := searcheval.Parse(f, strings.NewReader(string(data)))
		if err != nil {
			t.Error(err)
			continue
		}
		for _, q := range qs {
			checkQuery(t, q, sets, skills, distinctive)
			key := strings.Join(index.Words(index.Fold(q.Text)), " ")
			if prev, dup := seen[key]; dup {
				t.Errorf("%s:%d: %q is judged already at %s", q.File, q.Line, q.Text, prev)
			}
			seen[key] = q.File + ":" + strconv.Itoa(q.Line)
			if q.Set == searcheval.TaskTrain || q.Set == searcheval.TaskHeldOut {
				tasks++
				if q.Set == searcheval.TaskHeldOut {
					heldOut++
				}
				if s, ok := skills[q.Right[0]]; ok {
					written[s.repo]++
				}
			}
		}
	}
	if tasks < 100 {
		t.Errorf("%d task queries, want at least 100", tasks)
	}
	repos := map[string]bool{}
	for _, s := range skills {
		repos[s.repo] = true
	}
	for r := range repos {
		if written[r] == 0 {
			t.Errorf("no task query is written for a skill of %s", r)
		}
	}
	t.Logf("%d task queries, %d held out; written for skills of %v", tasks, heldOut, written)
}

// checkQuery checks one judged query of a file whose queries belong to
// sets.
func checkQuery(t *testing.T, q searcheval.Query, sets []string, skills map[string]corpusSkill, distinctive map[string][]string) {
	t.Helper()
	at := q.File + ":" + strconv.Itoa(q.Line)
	if !slices.Contains(sets, q.Set) {
		t.Errorf("%s: set %q does not belong in this file (want %s)", at, q.Set, strings.Join(sets, " or "))
	}
	for _, r := range q.Right {
		if _, ok := skills[r]; !ok {
			t.Errorf("%s: %q is judged right for %q, but the corpus has no skill of that name", at, r, q.Text)
		}
	}
	if q.Set != searcheval.TaskTrain && q.Set != searcheval.TaskHeldOut {
		return
	}
	if want := searcheval.TaskSet(q.Text); q.Set != want {
		t.Errorf("%s: %q is in %s, but the split rule (HeldOut) puts it in %s", at, q.Text, q.Set, want)
	}
	terms := judgedTerms(q.Text)
	for _, r := range q.Right {
		name := judgedTerms(r)
		if len(name) > 0 && containsRun(terms, name) {
			t.Errorf("%s: %q holds the name of %s, which it is right for", at, q.Text, r)
		}
		for _, w := range distinctive[r] {
			if slices.Contains(terms, w) {
				t.Errorf("%s: %q holds %q, a distinctive word of the name of %s, which it is right for", at, q.Text, w, r)
			}
		}
	}
}

// containsRun reports whether run occurs in terms, consecutively.
func containsRun(terms, run []string) bool {
	for i := 0; i+len(run) <= len(terms); i++ {
		if slices.Equal(terms[i:i+len(run)], run) {
			return true
		}
	}
	return false
}
