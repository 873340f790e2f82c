package build

import (
	"math"
	"os"
	"runtime/debug"
	"sync"
)

// A one-off build's heap holds what grows with the catalog (the skills'
// summaries and findings, the output's file list, the search index's
// terms) and the pass's work in flight; Go's collector lets it grow to
// twice what it found live before collecting again, and the process
// keeps what the heap grew to. A soft memory limit a little above what a
// build of the catalog's size holds live makes the collector run sooner
// when the heap nears it, rather than double, and return the memory it
// freed; it stays soft, so a catalog that needs more gets more (the
// collector then runs more often).
const (
	// memoryBase is the live heap of a build but for what grows with
	// the catalog, doubled: the pass's work in flight (pages being
	// rendered, bleve segments being built and merged), the templates,
	// the analyzers' caches.
	memoryBase = 192 << 20
	// memoryPerSkill is what a skill adds to the live heap, with room
	// for the collector (at 9 KiB it ran back to back at 100,000
	// skills). With memoryBase, a catalog of 10,000 skills gets a
	// little more than at 160 MiB and 13 KiB a skill, the limit before
	// the JSON index inverted its terms a range at a time.
	memoryPerSkill = 11 << 10
)

// memoryLimit is the soft memory limit of a build of n skills.
func memoryLimit(n int) int64 {
	return memoryBase + int64(n)*memoryPerSkill
}

// limitMemory sets the soft memory limit of a build of n skills, unless
// one is set (GOMEMLIMIT, or the program's own), and returns what undoes
// it. Under the limit, the collector runs only when the heap nears it,
// unless GOGC says otherwise: the live heap grows through the pass, and
// while it is under half the limit, collecting each time the heap
// doubled would run the collector more often for nothing. A live heap
// over the limit makes it run back to back with or without GOGC, as the
// limit is the lower goal then.
//
// The settings are the process's: builds that overlap share those of
// the first, and the last to end undoes them.
func limitMemory(n int) (restore func()) {
	memoryLimits.Lock()
	defer memoryLimits.Unlock()
	if memoryLimits.builds == 0 {
		memoryLimits.undo = setMemoryLimit(n)
	}
	memoryLimits.builds++
	var once sync.Once
	return func() {
		once.Do(func() {
			memoryLimits.Lock()
			defer memoryLimits.Unlock()
			if memoryLimits.builds--; memoryLimits.builds == 0 {
				memoryLimits.undo()
			}
		})
	}
}

// memoryLimits counts the builds under the limit set by the first.
var memoryLimits struct {
	sync.Mutex
	builds int
	undo   func()
}

// setMemoryLimit sets what limitMemory says and returns what undoes it.
func setMemoryLimit(n int) (undo func()) {
	old := debug.SetMemoryLimit(-1)
	if old != math.MaxInt64 {
		return func() {}
	}
	debug.SetMemoryLimit(memoryLimit(n))
	if _, set := os.LookupEnv("GOGC"); set {
		return func() { debug.SetMemoryLimit(old) }
	}
	oldPercent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(old)
	}
}
