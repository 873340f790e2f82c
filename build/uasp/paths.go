package uasp

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/yamltree"
)

// keyedSections are the map sections whose every key is a path: commands,
// workflows, reference entries and templates, dotted keys included
// (commands.record.start, reference.sequence.parallel).
var keyedSections = []string{"triggers", "constraints", "commands", "workflows", "reference", "templates"}

// listSections are the list sections whose entries are addressed by name
// or id (sources.stripe:go-live, environment.HTTP_PROXY).
var listSections = []string{"global_flags", "environment", "sources"}

// Paths returns every query path that gets a static answer file, sorted:
//
//   - each top-level section (meta, triggers, constraints, decisions, ...);
//   - each key of triggers, constraints, commands, workflows, reference and
//     templates (triggers.keywords, constraints.never, commands.get.text);
//   - state.entities and each entity by name (state.entities.refs);
//   - each entry of global_flags, environment and sources by name or id.
//
// A path is listed only when querying it gives back exactly that item:
// keys that cannot be written as a path (empty, with an empty segment, or
// holding '?', which starts filters) and names shared by several entries
// are left out. Decisions have no name and are reached by filters.
// Paths are listed whether or not the document is valid: a document with
// schema problems is answered all the same.
func (d *Document) Paths() []string {
	var out []string
	add := func(path string, want any) {
		if strings.Contains(path, "?") || checkPath(path) != nil {
			return
		}
		r := resolver{budget: stepBudget}
		got, ok := r.resolve(d.Root, strings.Split(path, "."))
		if ok && same(got, want) {
			out = append(out, path)
		}
	}
	for k, v := range d.Root.All() {
		add(k, v)
	}
	for _, sec := range keyedSections {
		m, _ := getMap(d.Root, sec)
		for k, v := range m.All() {
			add(sec+"."+k, v)
		}
	}
	if state, ok := getMap(d.Root, "state"); ok {
		for k, v := range state.All() {
			add("state."+k, v)
		}
		ents, _ := getList(state, "entities")
		addEntries(add, "state.entities", ents)
	}
	for _, sec := range listSections {
		list, _ := getList(d.Root, sec)
		addEntries(add, sec, list)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func addEntries(add func(string, any), prefix string, list []any) {
	for _, item := range list {
		m, ok := item.(*yamltree.Map)
		if !ok {
			continue
		}
		for _, f := range []string{"name", "id"} {
			if s, ok := getString(m, f); ok {
				add(prefix+"."+s, m)
			}
		}
	}
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
	switch b.(type) {
	case *yamltree.Map, []any:
		return false
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
