//go:build unix

package index_test

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used, user and system, all
// threads: what a benchmark costs on a machine other work shares, where
// its wall time says more about the neighbours.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
