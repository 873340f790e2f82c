package parallel

import (
	"context"
	"sync/atomic"
	"testing"
)

func TestForRunsEachIndexOnce(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{{0, 0}, {1, 0}, {100, 0}, {100, 3}, {5, 50}} {
		seen := make([]atomic.Int32, tc.n)
		For(context.Background(), tc.n, tc.workers, func(i int) { seen[i].Add(1) })
		for i := range seen {
			if got := seen[i].Load(); got != 1 {
				t.Errorf("n=%d workers=%d: index %d ran %d times", tc.n, tc.workers, i, got)
			}
		}
	}
}

func TestForStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var ran atomic.Int32
	For(ctx, 10000, 1, func(i int) {
		if ran.Add(1) == 10 {
			cancel()
		}
	})
	if n := ran.Load(); n >= 10000 || n < 10 {
		t.Errorf("%d calls ran after cancelling at the 10th", n)
	}
}
