package uasp

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/yamltree"
)

// Error codes of query answers: the first three are uasp.md section 9.6's;
// INVALID_QUERY is skilldex's, for a query that cannot be read or a filter
// on something that is not a list. VALIDATION_FAILED answers for a skill
// whose errors keep it from being published (skilldex query on the
// sources says so); a document with warnings, schema problems included,
// is answered.
const (
	ErrSkillNotFound    = "SKILL_NOT_FOUND"
	ErrPathNotFound     = "PATH_NOT_FOUND"
	ErrValidationFailed = "VALIDATION_FAILED"
	ErrInvalidQuery     = "INVALID_QUERY"
)

// Filter keeps the list entries whose Key matches the glob Pattern.
type Filter struct {
	Key, Pattern string
}

// Query is a parsed NAME:PATH?KEY=GLOB&... query (uasp.md 6.1).
type Query struct {
	Skill   string
	Path    string
	Filters []Filter
}

// MaxQueryLength bounds a query, and maxSegments its path.
const (
	MaxQueryLength = 4096
	maxSegments    = 128
)

// ParseQuery reads a query: NAME ":" PATH ["?" KEY "=" GLOB ("&" KEY "=" GLOB)*].
// The name ends at the first colon (names hold none), so paths may hold
// colons (sources.stripe:go-live); the path ends at the first "?". The
// session manifest's form skill:NAME:PATH (uasp.md 9.5) is accepted too.
// Path segments are separated by dots and may not be empty; keys that
// themselves hold dots are found by Document.Query.
func ParseQuery(s string) (Query, error) {
	var q Query
	s = strings.TrimSpace(s)
	switch {
	case s == "":
		return q, errors.New("empty query; write NAME:PATH, e.g. agent-browser:commands.click")
	case len(s) > MaxQueryLength:
		return q, fmt.Errorf("the query is %d bytes long, more than %d", len(s), MaxQueryLength)
	case !utf8.ValidString(s):
		return q, errors.New("the query is not valid UTF-8")
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return q, fmt.Errorf("the query holds the control character %U; remove it", r)
		}
	}
	if rest, ok := strings.CutPrefix(s, "skill:"); ok {
		head, _, _ := strings.Cut(rest, "?")
		if strings.Contains(head, ":") {
			s = rest
		}
	}
	name, rest, ok := strings.Cut(s, ":")
	if !ok {
		return q, fmt.Errorf("%q has no ':' between the skill name and the path; write NAME:PATH, e.g. %s:commands", s, s)
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return q, errors.New("the query has no skill name before ':'; write NAME:PATH")
	}
	if strings.ContainsAny(name, " \t?&=") {
		return q, fmt.Errorf("skill name %q holds a blank or one of ?&=; names are lowercase letters, digits and hyphens", name)
	}
	path, filters, hasFilters := strings.Cut(rest, "?")
	if err := checkPath(path); err != nil {
		return q, err
	}
	q.Skill, q.Path = name, path
	if hasFilters {
		if filters == "" {
			return q, errors.New("nothing follows '?'; add KEY=GLOB filters or remove the '?'")
		}
		for part := range strings.SplitSeq(filters, "&") {
			key, pat, ok := strings.Cut(part, "=")
			switch {
			case part == "":
				return q, errors.New("empty filter between '&'s; write KEY=GLOB&KEY=GLOB")
			case !ok:
				return q, fmt.Errorf("filter %q has no '='; write KEY=GLOB, e.g. when=*charges*", part)
			case key == "":
				return q, fmt.Errorf("filter %q has no key before '='; write KEY=GLOB", part)
			}
			if err := checkGlob(key, pat); err != nil {
				return q, err
			}
			q.Filters = append(q.Filters, Filter{Key: key, Pattern: pat})
		}
	}
	return q, nil
}

func checkPath(path string) error {
	if path == "" {
		return errors.New("the query has no path after ':'; write NAME:PATH, e.g. NAME:constraints.never")
	}
	segs := strings.Split(path, ".")
	if len(segs) > maxSegments {
		return fmt.Errorf("the path has %d segments, more than %d", len(segs), maxSegments)
	}
	for _, seg := range segs {
		if seg == "" {
			return fmt.Errorf("path %q has an empty segment (a leading, trailing or doubled '.'); remove it", path)
		}
	}
	return nil
}

// String writes the query back in the form ParseQuery reads.
func (q Query) String() string {
	var b strings.Builder
	b.WriteString(q.Skill + ":" + q.Path)
	for i, f := range q.Filters {
		if i == 0 {
			b.WriteByte('?')
		} else {
			b.WriteByte('&')
		}
		b.WriteString(f.Key + "=" + f.Pattern)
	}
	return b.String()
}

// Answer is the answer to a query, in the shape of uasp.md 6.3; failures
// carry an Error instead of a Value.
type Answer struct {
	Skill string
	Path  string
	Found bool
	// Value is part of the document (do not modify it), or a new list when
	// filters applied.
	Value any
	Error *Error
}

// Error is a failed query's code (one of the Err constants) and message.
type Error struct {
	Code    string
	Message string
	// Details list the errors of VALIDATION_FAILED.
	Details []string
}

// Failure returns an answer that failed with code; messages follow
// uasp.md 9.6 and say what to do.
func Failure(skill, path, code, message string) Answer {
	return Answer{Skill: skill, Path: path, Error: &Error{Code: code, Message: message}}
}

// SkillNotFound is the answer for a skill the catalog does not hold.
func SkillNotFound(skill, path string) Answer {
	return Failure(skill, path, ErrSkillNotFound, fmt.Sprintf("Skill '%s' is not loaded; check the name (skilldex validate --format json lists the skills of the sources)", skill))
}

// stepBudget bounds the backtracking of key resolution, so that a document
// with keys a, a.a, a.a.a... cannot make one query take forever.
const stepBudget = 100_000

// Query answers path (without the skill name) with filters applied, as
// uasp.md 6.4 describes, with these refinements:
//
//   - At a mapping, the longest run of the remaining segments joined with
//     dots that is a key is taken first (commands.record.start finds the key
//     "record.start"), and shorter runs are tried when the rest of the path
//     is not found below it.
//   - At a list, an entry whose name or id equals the run is taken (ids may
//     hold dots, colons and slashes: sources.stripe:migration/charges); when
//     several match, the list of them; when none matches, a plain index
//     (constraints.never.0) selects by position.
//   - Filters keep the entries of a list whose key matches the glob
//     (Match: case-insensitive fnmatch); a missing key reads as "", a value
//     that is a list or mapping never matches. Several filters must all
//     match. Filters on anything but a list are an INVALID_QUERY answer.
//
// A document that breaks the schema is answered all the same: its
// problems are warnings (skilldex validate lists them), and only errors,
// which keep a skill from being published at all, make it unanswerable.
func (d *Document) Query(path string, filters []Filter) Answer {
	if err := checkPath(path); err != nil {
		return Failure(d.skill, path, ErrInvalidQuery, err.Error())
	}
	r := resolver{budget: stepBudget}
	v, ok := r.resolve(d.Root, strings.Split(path, "."))
	if !ok {
		msg := fmt.Sprintf("Path '%s' not found in skill '%s'", path, d.skill)
		if hint := r.hint(); hint != "" {
			msg += "; " + hint
		}
		return Failure(d.skill, path, ErrPathNotFound, msg)
	}
	return filtered(d.skill, path, v, filters)
}

// QueryBelow answers the query skill:path from value, the answer to a
// prefix of path, by resolving rest (the segments of path after that
// prefix; "" for path itself) in value as Query does, then applying the
// filters. It is how a client answers a path that has no static answer
// file from the file of a shorter path. The answer is Query's for every
// path Query finds in the same place; a path not found below value is
// answered PATH_NOT_FOUND without Query's hint, and the client should then
// ask the whole document, which may find it elsewhere (a key holding the
// prefix's last dot) and says where the path stopped.
func QueryBelow(skill, path string, value any, rest string, filters []Filter) Answer {
	if err := checkPath(path); err != nil {
		return Failure(skill, path, ErrInvalidQuery, err.Error())
	}
	v := value
	if rest != "" {
		if err := checkPath(rest); err != nil {
			return Failure(skill, path, ErrInvalidQuery, err.Error())
		}
		r := resolver{budget: stepBudget}
		var ok bool
		if v, ok = r.resolve(value, strings.Split(rest, ".")); !ok {
			return Failure(skill, path, ErrPathNotFound, fmt.Sprintf("Path '%s' not found in skill '%s'", path, skill))
		}
	}
	return filtered(skill, path, v, filters)
}

// filtered is the answer v, the value at path, with the filters applied.
func filtered(skill, path string, v any, filters []Filter) Answer {
	a := Answer{Skill: skill, Path: path}
	if len(filters) > 0 {
		list, isList := v.([]any)
		if !isList {
			return Failure(skill, path, ErrInvalidQuery, fmt.Sprintf("'%s' is %s, and filters apply to lists only; remove the ?filters or query a list such as decisions", path, describe(v)))
		}
		kept := []any{}
		for _, item := range list {
			if matchesAll(item, filters) {
				kept = append(kept, item)
			}
		}
		v = kept
	}
	a.Found, a.Value = true, v
	return a
}

func describe(v any) string {
	switch v.(type) {
	case *yamltree.Map:
		return "a mapping"
	case []any:
		return "a list"
	case string:
		return "text"
	case nil:
		return "empty"
	}
	return "a single value"
}

func matchesAll(item any, filters []Filter) bool {
	m, ok := item.(*yamltree.Map)
	if !ok {
		return false
	}
	for _, f := range filters {
		v, present := m.Get(f.Key)
		text := ""
		if present {
			switch x := v.(type) {
			case *yamltree.Map, []any:
				return false
			case nil:
				text = ""
			case string:
				text = x
			default:
				text = yamltree.Text(x)
			}
		}
		if !Match(f.Pattern, text) {
			return false
		}
	}
	return true
}

// resolver walks a document for one path, remembering the deepest mapping
// or list it reached for the not-found hint.
type resolver struct {
	budget    int
	path      string
	ends      []int // ends[i]: end of segment i in path
	deepest   any   // *yamltree.Map or []any
	deepestAt int
	deepPath  []string
}

func (r *resolver) resolve(v any, segs []string) (any, bool) {
	// Runs of segments joined by dots are slices of the path, made once.
	r.path = strings.Join(segs, ".")
	r.ends = make([]int, len(segs))
	end := -1
	for i, s := range segs {
		end += 1 + len(s)
		r.ends[i] = end
	}
	return r.walk(v, segs, 0, nil)
}

// run returns segs[:n] joined by dots, where segs is a suffix of the path.
func (r *resolver) run(segs []string, n int) string {
	first := len(r.ends) - len(segs)
	start := 0
	if first > 0 {
		start = r.ends[first-1] + 1
	}
	return r.path[start:r.ends[first+n-1]]
}

func (r *resolver) walk(v any, segs []string, depth int, trail []string) (any, bool) {
	if len(segs) == 0 {
		return v, true
	}
	r.budget--
	if r.budget < 0 {
		return nil, false
	}
	switch x := v.(type) {
	case *yamltree.Map:
		if r.deepest == nil || depth >= r.deepestAt {
			r.deepest, r.deepestAt, r.deepPath = x, depth, slices.Clone(trail)
		}
		for n := len(segs); n >= 1; n-- {
			key := r.run(segs, n)
			if c, ok := x.Get(key); ok {
				if got, ok := r.walk(c, segs[n:], depth+1, append(trail, key)); ok {
					return got, true
				}
			}
		}
	case []any:
		if r.deepest == nil || depth >= r.deepestAt {
			r.deepest, r.deepestAt, r.deepPath = x, depth, slices.Clone(trail)
		}
		for n := len(segs); n >= 1; n-- {
			key := r.run(segs, n)
			var matches []any
			for _, item := range x {
				if m, ok := item.(*yamltree.Map); ok && (isString(m, "name", key) || isString(m, "id", key)) {
					matches = append(matches, item)
				}
			}
			var next any
			switch len(matches) {
			case 0:
				continue
			case 1:
				next = matches[0]
			default:
				next = matches
			}
			if got, ok := r.walk(next, segs[n:], depth+1, append(trail, key)); ok {
				return got, true
			}
		}
		if i, err := strconv.Atoi(segs[0]); err == nil && strconv.Itoa(i) == segs[0] && i >= 0 && i < len(x) {
			return r.walk(x[i], segs[1:], depth+1, append(trail, segs[0]))
		}
	}
	return nil, false
}

func isString(m *yamltree.Map, key, want string) bool {
	s, ok := yamltree.GetAs[string](m, key)
	return ok && s == want
}

// hint says what the path could have named where it stopped: the keys of
// a mapping, the indexes and names of a list's entries, so that the
// reader can correct it.
func (r *resolver) hint() string {
	where := "the document"
	if len(r.deepPath) > 0 {
		where = strings.Join(r.deepPath, ".")
	}
	switch x := r.deepest.(type) {
	case *yamltree.Map:
		if x.Len() == 0 {
			return ""
		}
		return fmt.Sprintf("%s has %s", where, listed(x.Keys()))
	case []any:
		switch len(x) {
		case 0:
			return where + " is an empty list"
		case 1:
			return where + " is a list of 1 entry, index 0"
		}
		hint := fmt.Sprintf("%s is a list of %d entries, index 0 to %d", where, len(x), len(x)-1)
		var names []string
		seen := make(map[string]bool)
		for _, item := range x {
			if m, ok := item.(*yamltree.Map); ok {
				for _, key := range []string{"name", "id"} {
					if s, ok := yamltree.GetAs[string](m, key); ok {
						if !seen[s] {
							seen[s] = true
							names = append(names, s)
						}
						break
					}
				}
			}
		}
		if len(names) > 0 {
			hint += ", or by name or id: " + listed(names)
		}
		return hint
	}
	return ""
}

// listed joins names for a hint, the first 30 of them.
func listed(names []string) string {
	const show = 30
	if len(names) > show {
		return fmt.Sprintf("%s and %d more", strings.Join(names[:show], ", "), len(names)-show)
	}
	return strings.Join(names, ", ")
}

// Refused answers a query that ParseQuery refused with err, as any query
// is answered, for the programs that read the answers: INVALID_QUERY,
// with what can be read of the query (the name before ':', the path
// before '?').
func Refused(query string, err error) Answer {
	name, rest, _ := strings.Cut(strings.TrimSpace(query), ":")
	path, _, _ := strings.Cut(rest, "?")
	return Failure(name, path, ErrInvalidQuery, err.Error())
}

// MarshalAnswer encodes an answer as skilldex publishes it, both in the
// output of `skilldex query` and in the static files
// api/v1/skills/NAME/PATH.json: {"skill", "path", "found", "value"}, or
// {"skill", "path", "found": false, "error": {"code", "message"[, "details"]}},
// the value in document order, two-space indent, a final newline.
func MarshalAnswer(a Answer) []byte {
	m := yamltree.NewMap()
	m.Set("skill", a.Skill)
	m.Set("path", a.Path)
	if a.Error != nil {
		m.Set("found", false)
		e := yamltree.NewMap()
		e.Set("code", a.Error.Code)
		e.Set("message", a.Error.Message)
		if len(a.Error.Details) > 0 {
			details := make([]any, len(a.Error.Details))
			for i, s := range a.Error.Details {
				details[i] = s
			}
			e.Set("details", details)
		}
		m.Set("error", e)
	} else {
		m.Set("found", a.Found)
		m.Set("value", a.Value)
	}
	b, err := yamltree.JSON(m, "  ")
	if err != nil {
		// Values come from yamltree and always encode; a tree built by hand
		// with another type gets an error answer, made of text only.
		return MarshalAnswer(Failure(a.Skill, a.Path, ErrInvalidQuery, "the answer cannot be encoded: "+err.Error()))
	}
	return append(b, '\n')
}
