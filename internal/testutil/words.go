package testutil

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// RandomWords returns n strings, each of up to maxPieces pieces drawn at
// random (seeded): inputs for tests that check a fast path against the
// plain code it replaces.
func RandomWords(seed uint64, n, maxPieces int, pieces []string) []string {
	rnd := rand.New(rand.NewPCG(seed, seed+1))
	out := make([]string, n)
	for i := range out {
		var b strings.Builder
		for range rnd.IntN(maxPieces + 1) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		out[i] = b.String()
	}
	return out
}

// Rounds returns n, or a tenth of it under -short: the number of random
// inputs a test that checks a fast path against the plain code it
// replaces tries. `make test` runs the race detector over the -short
// suite and every test in full without it, so the full count still runs.
func Rounds(n int) int {
	if testing.Short() {
		return max(n/10, 1)
	}
	return n
}
