//go:build !unix

package markdown

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return -1 }
