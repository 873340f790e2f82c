//go:build !unix

package testutil

import "time"

// ProcessCPU is not known here.
func ProcessCPU() (time.Duration, bool) { return 0, false }
