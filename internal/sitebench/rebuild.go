package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"time"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/serve"
)

// rebuild is what serve's incremental build costs after one skill changed.
type rebuild struct {
	n             int
	first, median time.Duration
	written, kept int
}

// edits is how many rebuilds measureRebuild times.
const edits = 5

// measureRebuild builds src in this process with a build cache, as serve
// does, then edits one skill's SKILL.md (a line appended, then the file as
// it was) and times the rebuild after each edit. The catalog is left as it
// was found.
func measureRebuild(src, site string) (rebuild, error) {
	var rb rebuild
	entries, err := os.ReadDir(src)
	if err != nil {
		return rb, err
	}
	var file string
	for _, e := range entries[len(entries)/2:] {
		if p := filepath.Join(src, e.Name(), "SKILL.md"); e.IsDir() {
			if _, err := os.Stat(p); err == nil {
				file = p
				break
			}
		}
	}
	if file == "" {
		return rb, fmt.Errorf("no SKILL.md to edit in %s", src)
	}
	original, err := os.ReadFile(file)
	if err != nil {
		return rb, err
	}
	defer os.WriteFile(file, original, 0o644)
	opt := build.Options{LoadOptions: build.LoadOptions{Sources: []string{src}, Cache: build.NewCache()}, Output: site}
	settle()
	start := time.Now()
	res, err := build.Build(context.Background(), opt)
	if err != nil {
		return rb, err
	}
	rb.first = time.Since(start)
	serve.TuneGC() // after the first build, as serve does
	var times []time.Duration
	for i := range edits {
		edited := fmt.Appendf(append([]byte{}, original...), "\nNever deploy on day %d without a rollback plan.\n", i)
		if i%2 == 1 {
			edited = original
		}
		if err := os.WriteFile(file, edited, 0o644); err != nil {
			return rb, err
		}
		opt.Previous = res.Manifest
		// Serve collects after each build, while it waits for an edit
		// (serve.CollectIdle); here, before the clock starts.
		runtime.GC()
		start := time.Now()
		if res, err = build.Build(context.Background(), opt); err != nil {
			return rb, err
		}
		times = append(times, time.Since(start))
		rb.written, rb.kept = res.Written, res.Kept
	}
	slices.Sort(times)
	rb.median = times[len(times)/2]
	return rb, nil
}
