package uasp

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/skilldex/skilldex/build/yamltree"
)

// commandKeyLike matches entries that name a command as commands keys do
// (open, record.start, set-viewport), as opposed to conditions written in
// prose ("navigation (open, back)", "--session flag", "implicit default").
// Only such entries are checked.
var commandKeyLike = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$`)

// urlLike matches references that point at documentation directly rather
// than at a sources id.
var urlLike = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*://`)

// Consistency checks the internal references of uasp.md section 7.1.5 and
// returns one problem per dangling reference:
//
//   - state.entities[].created_by names commands: each entry that looks
//     like a command key must be a commands key, a prefix of one (get for
//     get.text), or an alias of one; an entry with blanks whose words
//     joined by dots make a command key (state save) is accepted too.
//     Other entries are conditions and are not checked. consumed_by is not
//     checked, as section 7.1.5 does not ask it: the spec's own example
//     (8.3) lists there a command its commands do not define (drag).
//   - commands.*.requires, creates and invalidates name state entities: each
//     entry that looks like a key must be a state.entities name (requires
//     may also name a command, since the schema allows prior commands).
//   - decisions[].ref names a sources[].id (or a source's url or path); a
//     ref that is itself a URL is documentation, not an id, and is accepted.
func Consistency(root *yamltree.Map) []Problem {
	var out []Problem
	commands, _ := getMap(root, "commands")
	entities := map[string]bool{}
	state, _ := getMap(root, "state")
	ents, _ := getList(state, "entities")
	for _, e := range ents {
		if m, ok := e.(*yamltree.Map); ok {
			if n, ok := getString(m, "name"); ok {
				entities[n] = true
			}
		}
	}
	isCommand := func(name string) bool {
		if commands.Has(name) {
			return true
		}
		for k, v := range commands.All() {
			if strings.HasPrefix(k, name+".") {
				return true
			}
			if cm, ok := v.(*yamltree.Map); ok {
				aliases, _ := getList(cm, "aliases")
				for _, a := range aliases {
					if a == name {
						return true
					}
				}
			}
		}
		return false
	}

	for i, e := range ents {
		m, ok := e.(*yamltree.Map)
		if !ok {
			continue
		}
		ename, _ := getString(m, "name")
		list, _ := getList(m, "created_by")
		for j, item := range list {
			s, ok := item.(string)
			if !ok {
				continue
			}
			s = strings.TrimSpace(s)
			if strings.Contains(s, " ") {
				if dotted := strings.Join(strings.Fields(s), "."); commandKeyLike.MatchString(dotted) && isCommand(dotted) {
					continue
				}
			}
			if !commandKeyLike.MatchString(s) || isCommand(s) {
				continue
			}
			path := []string{"state", "entities", strconv.Itoa(i), "created_by", strconv.Itoa(j)}
			out = append(out, Problem{Path: path, Message: fmt.Sprintf(
				"%s: state entity %q names the command %q, which is not in commands; add commands.%s or correct the name",
				Where(path), ename, s, s)})
		}
	}

	for name, v := range commands.All() {
		cm, ok := v.(*yamltree.Map)
		if !ok {
			continue
		}
		for _, field := range []string{"requires", "creates", "invalidates"} {
			list, _ := getList(cm, field)
			for j, item := range list {
				s, ok := item.(string)
				if !ok || !commandKeyLike.MatchString(s) || entities[s] {
					continue
				}
				if field == "requires" && isCommand(s) {
					continue
				}
				path := []string{"commands", name, field, strconv.Itoa(j)}
				out = append(out, Problem{Path: path, Message: fmt.Sprintf(
					"%s: %q is not a state entity; add an entry named %q to state.entities or correct the name",
					Where(path), s, s)})
			}
		}
	}

	sources, _ := getList(root, "sources")
	known := map[string]bool{}
	for _, src := range sources {
		if m, ok := src.(*yamltree.Map); ok {
			for _, f := range []string{"id", "url", "path"} {
				if s, ok := getString(m, f); ok {
					known[s] = true
				}
			}
		}
	}
	decisions, _ := getList(root, "decisions")
	for i, d := range decisions {
		m, ok := d.(*yamltree.Map)
		if !ok {
			continue
		}
		ref, ok := getString(m, "ref")
		if !ok || known[ref] || urlLike.MatchString(ref) {
			continue
		}
		path := []string{"decisions", strconv.Itoa(i), "ref"}
		out = append(out, Problem{Path: path, Message: fmt.Sprintf(
			"%s: %q is not the id of a source; add a sources entry with id: %s or correct the ref",
			Where(path), ref, ref)})
	}
	return out
}

func getMap(m *yamltree.Map, key string) (*yamltree.Map, bool) {
	v, _ := m.Get(key)
	x, ok := v.(*yamltree.Map)
	return x, ok
}

func getList(m *yamltree.Map, key string) ([]any, bool) {
	v, _ := m.Get(key)
	x, ok := v.([]any)
	return x, ok
}

func getString(m *yamltree.Map, key string) (string, bool) {
	v, _ := m.Get(key)
	x, ok := v.(string)
	return x, ok
}
