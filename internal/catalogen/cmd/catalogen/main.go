// Command catalogen writes a generated skill catalog for benchmarks:
//
//	go run ./internal/catalogen/cmd/catalogen -n 10000 -seed 1 DIR
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/skilldex/skilldex/internal/catalogen"
)

func main() {
	n := flag.Int("n", 1000, "number of skills")
	seed := flag.Int64("seed", 1, "seed; the same n and seed give the same catalog")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: catalogen [-n N] [-seed S] DIR")
		os.Exit(2)
	}
	if err := catalogen.Generate(flag.Arg(0), *n, *seed); err != nil {
		fmt.Fprintln(os.Stderr, "catalogen:", err)
		os.Exit(1)
	}
}
