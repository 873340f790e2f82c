//go:build unix

package testutil

import (
	"syscall"
	"time"
)

// ProcessCPU is the CPU time the process has used, user and system, all
// threads, garbage collection included: what a benchmark costs on a
// machine other work shares, where its wall time says more about the
// neighbours. false where it cannot be read.
func ProcessCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
