package uasp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/skilldex/skilldex/build/yamltree"
)

// listSections are the list sections whose entries are addressed by name
// or id (sources.stripe:go-live, environment.HTTP_PROXY), as is
// state.entities.
var listSections = []string{"global_flags", "environment", "sources"}

// Paths returns every filter-free query path that gets a static answer
// file, sorted: every path made of mapping keys from the document's root
// down to the leaves (meta.description, commands.open.args,
// reference.sequence.parallel.syntax), a key holding dots being one
// segment (commands.record.start), and each entry of global_flags,
// environment, sources and state.entities by its name or id, with the
// keys of that entry down to the leaves (environment.HTTP_PROXY.purpose).
// A list is a leaf: it is answered whole, and its items are reached with
// filters (decisions?when=*x*), which only the query engine applies.
//
// A path is listed only when `skilldex query NAME:PATH` gives back exactly
// that part of the document, and its file is its own on every file
// system: keys that cannot be written in a path (empty, with an empty
// segment, holding '?', which starts filters, or a control character, or
// blanks at the path's end), paths a longer dotted key shadows (with keys
// "a.b" and a: {b}, a.b answers the former), names shared by several
// entries, and paths whose files differ only in case or Unicode
// normalization (FileKey) are left out. Paths are listed whether or not
// the document is valid: a document with schema problems is answered all
// the same.
func (d *Document) Paths() []string {
	var out []string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		if answersWith(d.Root, path, v) {
			out = append(out, path)
		}
		if m, ok := v.(*yamltree.Map); ok {
			for k, c := range m.All() {
				walk(path+"."+k, c)
			}
		}
	}
	for k, v := range d.Root.All() {
		walk(k, v)
	}
	entries := func(prefix string, list []any) {
		for _, item := range list {
			m, ok := item.(*yamltree.Map)
			if !ok {
				continue
			}
			for _, f := range []string{"name", "id"} {
				if s, ok := yamltree.GetAs[string](m, f); ok {
					walk(prefix+"."+s, m)
				}
			}
		}
	}
	if state, ok := yamltree.GetAs[*yamltree.Map](d.Root, "state"); ok {
		ents, _ := yamltree.GetAs[[]any](state, "entities")
		entries("state.entities", ents)
	}
	for _, sec := range listSections {
		list, _ := yamltree.GetAs[[]any](d.Root, sec)
		entries(sec, list)
	}
	slices.Sort(out)
	out = slices.Compact(out)
	// Paths whose files would be one on a file system that ignores case
	// (environment.HTTP_PROXY and environment.http_proxy) get none: each
	// is answered from a prefix, never from the other's file.
	keys := make([]string, len(out))
	files := make(map[string]int, len(out))
	for i, p := range out {
		keys[i] = FileKey(PathFile(p))
		files[keys[i]]++
	}
	kept := out[:0]
	for i, p := range out {
		if files[keys[i]] == 1 {
			kept = append(kept, p)
		}
	}
	return kept
}

// FileKey returns what a file system that ignores case and Unicode
// normalization (macOS's and Windows' by default) makes of the file name:
// two names with the same key are one file there.
func FileKey(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] >= utf8.RuneSelf {
			return cases.Fold().String(norm.NFC.String(name))
		}
	}
	return strings.ToLower(name)
}

// answersWith reports whether the query of path, as an agent writes it
// after NAME:, finds want in root.
func answersWith(root *yamltree.Map, path string, want any) bool {
	q, err := ParseQuery("x:" + path)
	if err != nil || q.Path != path || len(q.Filters) > 0 {
		return false
	}
	r := resolver{budget: stepBudget}
	got, ok := r.resolve(root, strings.Split(path, "."))
	return ok && same(got, want)
}

// same reports whether a and b are the same part of a document.
func same(a, b any) bool {
	switch x := a.(type) {
	case *yamltree.Map:
		y, ok := b.(*yamltree.Map)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		return ok && len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
	}
	switch y := b.(type) {
	case *yamltree.Map, []any:
		return false
	case float64:
		// NaN, which equals nothing, answers null like any other NaN.
		if x, ok := a.(float64); ok && math.IsNaN(x) && math.IsNaN(y) {
			return true
		}
	}
	return a == b
}

// maxFileName bounds PathFile's result, well under the 255 bytes file
// systems allow.
const maxFileName = 200

// PathFile returns the file name of a path's static answer:
// the path, with every byte that is not safe in a file name written as %XX,
// then ".json". Escaped are: '/', '\\', '%' itself, '~' (which marks
// shortened names), ASCII and Unicode
// control and format characters (bidi overrides, zero-width marks), and
// bytes of invalid UTF-8. Everything else stays as written, colons and
// non-ASCII letters included, so that api/v1/skills/NAME/PATH.json is the
// path an agent writes (commands.get.text.json, sources.stripe:go-live.json,
// sources.stripe:migration%2Fcharges.json). The result has no '/', is never
// "." or "..", and is injective. A name longer than 200 bytes is cut and
// given a hash of the path, which keeps it unique.
func PathFile(path string) string {
	var b strings.Builder
	for i := 0; i < len(path); {
		r, size := utf8.DecodeRuneInString(path[i:])
		unsafe := (r == utf8.RuneError && size == 1) || r == '/' || r == '\\' || r == '%' || r == '~' ||
			unicode.IsControl(r) || unicode.Is(unicode.Cf, r)
		if unsafe {
			for _, c := range []byte(path[i : i+size]) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		} else {
			b.WriteString(path[i : i+size])
		}
		i += size
	}
	name := b.String()
	switch name {
	case "":
		name = "%" // a lone '%' is no escape, so no other path gives it
	case ".", "..":
		name = strings.ReplaceAll(name, ".", "%2E")
	}
	if len(name)+len(".json") > maxFileName {
		sum := sha256.Sum256([]byte(path))
		cut := maxFileName - len(".json") - 17
		for cut > 0 && !utf8.RuneStart(name[cut]) {
			cut--
		}
		// Never cut inside a %XX escape.
		if j := strings.LastIndexByte(name[:cut], '%'); j >= 0 && cut-j < 3 {
			cut = j
		}
		name = name[:cut] + "~" + hex.EncodeToString(sum[:8])
	}
	return name + ".json"
}
