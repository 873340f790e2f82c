package build

import (
	"math"
	"os"
	"runtime/debug"
	"testing"
)

// programSettings gives the test the settings of a program that sets
// none (no GOGC, no memory limit, GC percent 100), and restores the
// process's when it ends.
func programSettings(t *testing.T) {
	t.Helper()
	t.Setenv("GOGC", "") // restored when the test ends; unset meanwhile
	os.Unsetenv("GOGC")
	limit := debug.SetMemoryLimit(math.MaxInt64)
	percent := debug.SetGCPercent(100)
	t.Cleanup(func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(percent)
	})
}

// checkSettings fails the test unless the memory limit and the GC
// percent are limit and percent, which it leaves as they are.
func checkSettings(t *testing.T, when string, limit int64, percent int) {
	t.Helper()
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("memory limit %s = %d, want %d", when, got, limit)
	}
	if got := debug.SetGCPercent(percent); got != percent {
		t.Errorf("GC percent %s = %d, want %d", when, got, percent)
	}
}

// TestLimitMemory: a build sets the limit its catalog's size calls for,
// with the collector's percent off unless GOGC is set, and undoes both;
// it leaves alone a limit the program has.
func TestLimitMemory(t *testing.T) {
	programSettings(t)
	restore := limitMemory(10_000)
	checkSettings(t, "during the build", memoryLimit(10_000), -1)
	restore()
	checkSettings(t, "after the build", math.MaxInt64, 100)

	t.Setenv("GOGC", "200")
	restore = limitMemory(10_000)
	checkSettings(t, "during the build with GOGC set", memoryLimit(10_000), 100)
	restore()
	checkSettings(t, "after the build with GOGC set", math.MaxInt64, 100)
	os.Unsetenv("GOGC")

	debug.SetMemoryLimit(1 << 30)
	restore = limitMemory(10_000)
	checkSettings(t, "during the build under the program's limit", 1<<30, 100)
	restore()
	checkSettings(t, "after the build under the program's limit", 1<<30, 100)

	if memoryLimit(100_000) <= memoryLimit(10_000) {
		t.Errorf("the limit does not grow with the catalog")
	}
}

// TestLimitMemoryOverlapping: builds that overlap share the first's
// settings, and the last to end restores the program's, in any order.
func TestLimitMemoryOverlapping(t *testing.T) {
	programSettings(t)
	first := limitMemory(10_000)
	second := limitMemory(20_000)
	first()
	first() // twice: no effect
	checkSettings(t, "while the second build runs", memoryLimit(10_000), -1)
	second()
	checkSettings(t, "after both", math.MaxInt64, 100)
}
