# skilldex — make targets. `make test` is what CI runs (see .ci/run).
GO ?= go
PKGS := ./...

.PHONY: all build test vet fuzz fuzz-short bench bench-100k bench-go bench-serve eval-search demo clean

all: build

build:
	$(GO) build -o bin/skilldex ./cmd/skilldex

vet:
	$(GO) vet $(PKGS)
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# The race detector runs over the -short suite, where the tests that
# build the corpus's site skip and the longest random comparisons of a
# fast path with the plain code shrink: they would take it most of CI's
# time, and what runs concurrently (the build's pass, the output and
# index writers, serve under load) is raced by the short tests too. Then
# every test runs in full without it.
#
# The tests run every fuzz target over its seed corpus too, then each
# fuzz target tries 3,000 new inputs (CI's short run; make fuzz is the
# long one). A count, not a time: a 5 s run failed once with the fuzz
# engine's own "context deadline exceeded" when the time ran out while a
# worker was busy, which says nothing about our code. The browser tests
# run when Chromium is installed (required when CI is set).
test: vet
	$(GO) test -race -short -count=1 -timeout 20m $(PKGS)
	$(GO) test -count=1 -timeout 20m $(PKGS)
	$(MAKE) fuzz FUZZTIME=$(CI_FUZZTIME)

CI_FUZZTIME ?= 3000x

# Longer fuzzing, one target at a time: make fuzz FUZZTIME=10m
FUZZTIME ?= 1m
fuzz:
	@for t in $$($(GO) test -list 'Fuzz.*' $(PKGS) | grep '^Fuzz'); do \
	  pkg=$$(grep -rl "func $$t(" --include='*_test.go' . | xargs -n1 dirname | head -1); \
	  echo "== $$t ($$pkg)"; $(GO) test -run XXX -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	done

# Short fuzzing: every target for about 10 s each.
fuzz-short:
	$(MAKE) fuzz FUZZTIME=10s

# Full builds of generated catalogs (1,000 and 10,000 skills) side by side
# with Hugo + Pagefind, then skilldex's rebuild after one edit
# (internal/sitebench; installs pinned releases of Hugo and Pagefind into
# ~/.cache/skilldex-bench once: Hugo's takes about 7 minutes). About 7
# minutes once they are installed. bench-100k measures skilldex alone at
# 100,000 skills; bench-go runs the Go benchmarks (load, derivation,
# rendering, search queries: bytes and times per query of the JSON index
# come from static/search-core.js under Node).
bench:
	$(GO) run ./internal/sitebench -n 1000,10000

bench-100k:
	$(GO) run ./internal/sitebench -n 100000 -skip-others -runs 1 -rebuild=false

bench-go:
	$(GO) test -run XXX -bench . -benchtime 1x $(PKGS)

# skilldex serve over 10,000 generated skills, watching and polling, the
# two taking turns: idle CPU, save to served page, a skill folder added
# and removed (internal/servebench). About 6 minutes.
bench-serve: build
	$(GO) run ./internal/servebench -n 10000 -serve watch=bin/skilldex -serve 'poll=bin/skilldex --poll 300ms'

# Search quality on the judged query sets (index/testdata/judged): builds
# the corpus site once, then prints success@1, success@3 and MRR@10 of
# bleve, the browser's JSON index (under Node) and a plain BM25 floor on
# every set, their agreement and the task queries missed at rank 1
# (internal/searcheval). Needs Node; a run takes well under a minute.
eval-search:
	$(GO) run ./internal/searcheval/cmd/searcheval $(EVALFLAGS)

demo:
	$(GO) run ./cmd/skilldex validate content

clean:
	rm -rf bin public
