//go:build unix

package markdown

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used so far,
// on every thread: garbage collection included.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
