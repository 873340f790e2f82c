package testutil

import (
	"math/rand/v2"
	"strings"
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
