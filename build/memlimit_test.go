package build

import (
	"math"
	"os"
	"runtime/debug"
	"testing"
)

// TestLimitMemory: a build sets the limit its catalog's size calls for
// and undoes it, and leaves alone a limit the program has.
func TestLimitMemory(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)

	t.Setenv("GOGC", "") // set, then unset: the percent is the program's
	os.Unsetenv("GOGC")
	percent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(percent)

	debug.SetMemoryLimit(math.MaxInt64)
	restore := limitMemory(10_000)
	if got, want := debug.SetMemoryLimit(-1), memoryLimit(10_000); got != want {
		t.Errorf("limit during the build = %d, want %d", got, want)
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GC percent during the build = %d, want -1: the limit alone starts a collection", got)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit after the build = %d, want none", got)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent after the build = %d, want 100", got)
	}

	// GOGC set: the build keeps its percent.
	t.Setenv("GOGC", "200")
	restore = limitMemory(10_000)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent during the build with GOGC set = %d, want the program's 100", got)
	}
	restore()
	os.Unsetenv("GOGC")

	debug.SetMemoryLimit(1 << 30)
	restore = limitMemory(10_000)
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Errorf("limit during the build = %d, want the program's 1 GiB", got)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != 1<<30 {
		t.Errorf("limit after the build = %d, want the program's 1 GiB", got)
	}
	if memoryLimit(100_000) <= memoryLimit(10_000) {
		t.Errorf("the limit does not grow with the catalog")
	}
}

// TestLimitMemoryOverlapping: builds that overlap share the first's
// settings, and the last to end restores the program's, in any order.
func TestLimitMemoryOverlapping(t *testing.T) {
	t.Setenv("GOGC", "")
	os.Unsetenv("GOGC")
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	defer debug.SetMemoryLimit(oldLimit)
	percent := debug.SetGCPercent(100)
	defer debug.SetGCPercent(percent)

	first := limitMemory(10_000)
	second := limitMemory(20_000)
	first()
	first() // twice: no effect
	if got, want := debug.SetMemoryLimit(-1), memoryLimit(10_000); got != want {
		t.Errorf("limit while the second build runs = %d, want the first's %d", got, want)
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GC percent while the second build runs = %d, want -1", got)
	}
	second()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit after both = %d, want none", got)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent after both = %d, want 100", got)
	}
}
