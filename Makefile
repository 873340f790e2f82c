# skilldex — make targets. `make test` is what CI runs (see .ci/run).
GO ?= go
PKGS := ./...

.PHONY: all build test vet fuzz bench demo clean

all: build

build:
	$(GO) build -o bin/skilldex ./cmd/skilldex

vet:
	$(GO) vet $(PKGS)
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

# The tests run every fuzz target over its seed corpus too.
test: vet
	$(GO) test -race -count=1 $(PKGS)

# Longer fuzzing, one target at a time: make fuzz FUZZTIME=10m
FUZZTIME ?= 1m
fuzz:
	@for t in $$($(GO) test -list 'Fuzz.*' $(PKGS) | grep '^Fuzz'); do \
	  pkg=$$(grep -rl "func $$t(" --include='*_test.go' . | xargs -n1 dirname | head -1); \
	  echo "== $$t ($$pkg)"; $(GO) test -run XXX -fuzz "^$$t$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	done

bench:
	$(GO) test -run XXX -bench . -benchtime 1x $(PKGS)

demo:
	$(GO) run ./cmd/skilldex validate content

clean:
	rm -rf bin public
