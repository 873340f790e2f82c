package testutil

import (
	"runtime"
	"testing"
)

// BenchCollections measures full garbage collections with what the
// benchmark set up alive (keep), reporting ms/GC: what each collection of a
// build pays for that data on top of the rest.
func BenchCollections(b *testing.B, keep any) {
	runtime.GC()
	b.ResetTimer()
	for b.Loop() {
		runtime.GC()
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/1000, "ms/GC")
	runtime.KeepAlive(keep)
}
