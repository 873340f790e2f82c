// Package parallel runs per-item work of the build on every core: the
// pipeline's stages (load, pages, API, search) each do one independent
// job per skill.
package parallel

import (
	"context"
	"runtime"
	"sync"
)

// For runs fn(i) for i in [0, n) on up to workers goroutines (one per CPU
// when workers <= 0), handing out indexes in order and stopping early when
// ctx is done. It returns when every started call has returned. What fn
// writes must not depend on the order the calls run in.
func For(ctx context.Context, n, workers int, fn func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n && ctx.Err() == nil; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
