//go:build !unix

package build

import (
	"testing"
	"time"
)

// processCPU is 0 where getrusage is missing: the benchmarks report no CPU time.
func processCPU(*testing.B) time.Duration { return 0 }
