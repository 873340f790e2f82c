// Command searcheval measures search quality on the judged query sets:
// it builds the corpus site once, ranks every judged query with bleve
// (what `skilldex search` does), the browser's JSON index (Node runs
// static/search-core.js) and a plain BM25 floor, and prints success@1,
// success@3 and MRR@10 per set and engine, how often bleve and the JSON
// index agree, and the task queries missed at rank 1.
//
//	go run ./internal/searcheval/cmd/searcheval   (make eval-search)
//
// Paths are relative to the module root, wherever it is run from. The
// held-out task split's misses are listed only with -heldout-misses: no
// tuning may read them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/internal/searcheval"
)

func main() {
	corpus := flag.String("corpus", "testdata/corpus/skills", "the skills to build the site of")
	judged := flag.String("judged", "index/testdata/judged", "the folder of judged query files (*.tsv)")
	site := flag.String("site", "", "a site already built from -corpus, used instead of building one")
	core := flag.String("core", "static/search-core.js", "the browser's search core, run by Node")
	heldOut := flag.Bool("heldout-misses", false, "also list the held-out task queries missed at rank 1 (for a change's closing report, never while tuning)")
	flag.Parse()
	if flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: searcheval [-corpus DIR] [-judged DIR] [-site DIR] [-core FILE] [-heldout-misses]")
		os.Exit(2)
	}
	if err := run(*corpus, *judged, *site, *core, *heldOut); err != nil {
		fmt.Fprintln(os.Stderr, "searcheval:", err)
		os.Exit(1)
	}
}

func run(corpus, judged, site, core string, heldOut bool) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(root, p)
	}
	qs, err := searcheval.ReadDir(abs(judged))
	if err != nil {
		return err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return errors.New("node is not installed: the JSON index is measured through static/search-core.js, which needs Node 20 or later")
	}
	if site == "" {
		tmp, err := os.MkdirTemp("", "skilldex-searcheval-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		site = filepath.Join(tmp, "site")
		fmt.Fprintf(os.Stderr, "building the site of %s ...\n", corpus)
		if _, err := build.Build(context.Background(), build.Options{LoadOptions: build.LoadOptions{Sources: []string{abs(corpus)}}, Output: site}); err != nil {
			return err
		}
	}
	docs, err := searcheval.SiteDocs(site)
	if err != nil {
		return err
	}
	bl, err := searcheval.OpenBleve(site)
	if err != nil {
		return err
	}
	defer bl.Close()
	engines := []searcheval.Engine{bl, &searcheval.JSONIndex{Node: node, Core: abs(core), Site: site}, searcheval.NewBM25(docs)}
	res, err := searcheval.Run(engines, qs)
	if err != nil {
		return err
	}
	title := fmt.Sprintf("Search quality: %d judged queries (%s) over the %d skills of %s", len(qs), filepath.ToSlash(judged), len(docs), filepath.ToSlash(corpus))
	return res.WriteReport(os.Stdout, searcheval.ReportOptions{Title: title, HeldOutMisses: heldOut})
}

// moduleRoot is the folder of go.mod at or above the working directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod at or above the working directory: run searcheval inside the skilldex module")
		}
		dir = parent
	}
}
