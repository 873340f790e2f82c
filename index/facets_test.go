package index

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestFacetNamesMatchFacets: a document's facet values worked out for it
// alone are the values the facets list it under, spelt as the facets have
// them, in the order the document gives them; a value the facets do not
// know (a type derived after they were made) is spelt as the document has
// it.
func TestFacetNamesMatchFacets(t *testing.T) {
	docs := []*document{
		{Name: "a", Tags: []string{"Go", "web"}, Type: "cli", Status: "approved"},
		{Name: "b", Tags: []string{"go", "GO", "db"}, Categories: []string{"Data"}, Type: "cli"},
		{Name: "c", Tags: []string{"go", "web", "db", "z"}, Categories: []string{"data"}, License: "MIT"},
		{Name: "d", Tags: []string{"Web"}, Source: "acme/skills", Format: "usk"},
	}
	for i := range 200 {
		d := &document{Name: "gen", Tags: []string{"web", "Db", "t" + string(rune('a'+i%7))},
			Capabilities: []string{"read"}, Status: []string{"approved", "caution"}[i%2], Format: "skill-md"}
		if i%3 == 0 {
			d.Tags = append(d.Tags, "Go")
			d.Type = "knowledge"
		}
		docs = append(docs, d)
	}
	facets := computeFacets(docs)
	// What each document is listed under, from the facets themselves.
	want := make([]map[string][]string, len(docs))
	for i := range want {
		want[i] = map[string][]string{}
	}
	for _, f := range facets {
		for _, v := range f.values {
			for _, d := range v.docs {
				want[d][f.id] = append(want[d][f.id], v.name)
			}
		}
	}
	fn := newFacetNames(facets)
	for i, d := range docs {
		got := fn.of(d)
		sorted := map[string][]string{}
		for id, names := range got {
			sorted[id] = slices.Sorted(slices.Values(names))
		}
		for id := range want[i] {
			slices.Sort(want[i][id])
		}
		if !reflect.DeepEqual(sorted, want[i]) {
			t.Errorf("%s: %v, the facets list it under %v", d.Name, got, want[i])
		}
		// In the document's order: its first spelling of each value.
		for _, def := range facetDefs {
			var order []string
			for _, v := range def.values(d) {
				if !slices.ContainsFunc(order, func(o string) bool { return strings.EqualFold(o, v) }) {
					order = append(order, v)
				}
			}
			if names := got[def.id]; len(names) != len(order) || !slices.EqualFunc(names, order, strings.EqualFold) {
				t.Errorf("%s: %s %v, not in the document's order %v", d.Name, def.id, names, order)
			}
		}
	}
	// The facets ordered otherwise (a skill added elsewhere may make
	// "web" outnumber "go"), their spellings the same: each document's
	// values are the same.
	for _, f := range facets {
		slices.Reverse(f.values)
	}
	reordered := newFacetNames(facets)
	for _, d := range docs {
		if got, was := reordered.of(d), fn.of(d); !reflect.DeepEqual(got, was) {
			t.Errorf("%s: %v with the facets reordered, %v before", d.Name, got, was)
		}
	}
	late := &document{Name: "late", Type: "hybrid", Tags: []string{"GO"}}
	if got := fn.of(late); !reflect.DeepEqual(got["type"], []string{"hybrid"}) || !reflect.DeepEqual(got["tags"], []string{"Go"}) {
		t.Errorf("a document the facets do not know: %v", got)
	}
}
