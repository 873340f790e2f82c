package api

import (
	"reflect"
	"slices"
	"testing"

	"github.com/skilldex/skilldex/build/catalog"
)

// TestReadsAllCoversEveryEntryField changes each field of an entry in turn
// and checks that the key of the files that read every field (index.json,
// the session manifest) changes with it. A field added to entry and not to
// readsAll would let serve keep those files stale; this test then fails
// until the field is in readsAll and in the table below.
func TestReadsAllCoversEveryEntryField(t *testing.T) {
	base := func() *entry {
		return &entry{
			s:           &catalog.Skill{USK: &catalog.USKFields{Version: "1", Category: "c", Tags: []string{"t"}, Capabilities: []string{"k"}, Platforms: []string{"p"}}},
			name:        "n",
			description: "d",
			format:      "f",
			status:      "s",
			docType:     "cli",
			version:     "v",
			declared:    "1.0",
			tags:        []string{"a"},
			plugins:     []skillPlugin{{Name: "p", Category: "c", Marketplace: "m", URL: "u"}},
			usk:         true,
			urls:        urls{Page: "1", JSON: "2", Markdown: "3", SkillMD: "4", Archive: "5", Paths: "6", Schema: "7"},
		}
	}
	changes := map[string]func(e *entry){
		"s":           func(e *entry) { e.s = &catalog.Skill{USK: &catalog.USKFields{Version: "2"}} },
		"name":        func(e *entry) { e.name += "x" },
		"description": func(e *entry) { e.description += "x" },
		"format":      func(e *entry) { e.format += "x" },
		"status":      func(e *entry) { e.status += "x" },
		"docType":     func(e *entry) { e.docType += "x" },
		"version":     func(e *entry) { e.version += "x" },
		"declared":    func(e *entry) { e.declared += "x" },
		"tags":        func(e *entry) { e.tags = append(e.tags, "b") },
		"plugins":     func(e *entry) { e.plugins[0].Marketplace += "x" },
		"hasDoc":      func(e *entry) { e.hasDoc = !e.hasDoc },
		"hasSkillMD":  func(e *entry) { e.hasSkillMD = !e.hasSkillMD },
		"docArchive":  func(e *entry) { e.docArchive = !e.docArchive },
		"multiFile":   func(e *entry) { e.multiFile = !e.multiFile },
		"usk":         func(e *entry) { e.usk = !e.usk },
		"urls":        func(e *entry) { e.urls.Paths += "x" },
	}
	var fields []string
	for i := range reflect.TypeFor[entry]().NumField() {
		fields = append(fields, reflect.TypeFor[entry]().Field(i).Name)
	}
	for _, f := range fields {
		if changes[f] == nil {
			t.Errorf("entry.%s is not in this test's table: add it to readsAll if index.json or the manifest show it, then here", f)
		}
	}
	key := func(e *entry) string {
		return catalogFileKey(IndexPath, []*entry{e}, "site", false, newEntriesDigest(readsAll))
	}
	want := key(base())
	for _, f := range fields {
		change := changes[f]
		if change == nil {
			continue
		}
		e := base()
		change(e)
		if key(e) == want {
			t.Errorf("changing entry.%s leaves the key of index.json unchanged: readsAll does not read it", f)
		}
	}
	// Every URL too, since readsAll lists them one by one.
	for _, u := range reflect.VisibleFields(reflect.TypeFor[urls]()) {
		e := base()
		reflect.ValueOf(&e.urls).Elem().FieldByIndex(u.Index).SetString("changed")
		if key(e) == want {
			t.Errorf("changing urls.%s leaves the key of index.json unchanged", u.Name)
		}
	}
	if !slices.Contains(fields, "urls") {
		t.Fatal("entry has no urls field: update this test")
	}
}
