package build

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestLimitMemory: a build sets the limit its catalog's size calls for
// and undoes it, and leaves alone a limit the program has.
func TestLimitMemory(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)

	debug.SetMemoryLimit(math.MaxInt64)
	restore := limitMemory(10_000)
	if got, want := debug.SetMemoryLimit(-1), memoryLimit(10_000); got != want {
		t.Errorf("limit during the build = %d, want %d", got, want)
	}
	restore()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit after the build = %d, want none", got)
	}

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
