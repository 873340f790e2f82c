package main

import "syscall"

// peakRSS is the largest resident set of a finished process and the
// children it waited for, in bytes.
func peakRSS(usage any) int64 {
	if ru, ok := usage.(*syscall.Rusage); ok {
		return int64(ru.Maxrss) << 10 // kilobytes on Linux
	}
	return 0
}
