package uasp_test

import (
	"bytes"
	"github.com/skilldex/skilldex/build/derive"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/internal/testskills"
	"slices"
	"testing"
)

// TestPackedDocumentReadsBack: every document of the corpus, derived or
// written by its author, unpacks to a document that says and answers the
// same: its YAML, version, type, problems, paths, and the answer to every
// query path.
func TestPackedDocumentReadsBack(t *testing.T) {
	var skills = testskills.Corpus(t, "skills")
	skills = append(skills, testskills.Corpus(t, "usk")...)
	skills = append(skills, testskills.Corpus(t, "uasp")...)
	docs := 0
	for _, s := range skills {
		d, _ := derive.ForSkill(s)
		if d == nil {
			continue
		}
		docs++
		p, err := d.Pack()
		if err != nil {
			t.Fatalf("%s: %v", s.Path, err)
		}
		if d.Root == nil {
			t.Fatalf("%s: Pack changed the document it packed", s.Path)
		}
		u, err := p.Unpack()
		if err != nil {
			t.Fatalf("%s: %v", s.Path, err)
		}
		if u.Root == d.Root {
			t.Fatalf("%s: the unpacked document shares the packed one's tree", s.Path)
		}
		y1, _ := uasp.MarshalYAML(d)
		y2, _ := uasp.MarshalYAML(u)
		if !bytes.Equal(y1, y2) {
			t.Errorf("%s: unpacked YAML differs", s.Path)
		}
		if u.Version != d.Version || u.DeclaredVersion != d.DeclaredVersion || u.Derived != d.Derived ||
			u.Type() != d.Type() || u.Name() != d.Name() || !slices.Equal(u.Problems(), d.Problems()) {
			t.Errorf("%s: unpacked %q %q %v %q %q %v, want %q %q %v %q %q %v", s.Path,
				u.Version, u.DeclaredVersion, u.Derived, u.Type(), u.Name(), u.Problems(),
				d.Version, d.DeclaredVersion, d.Derived, d.Type(), d.Name(), d.Problems())
		}
		paths := d.Paths()
		if !slices.Equal(u.Paths(), paths) {
			t.Errorf("%s: unpacked paths differ", s.Path)
		}
		for _, path := range paths {
			if a, b := uasp.MarshalAnswer(d.Query(path, nil)), uasp.MarshalAnswer(u.Query(path, nil)); !bytes.Equal(a, b) {
				t.Errorf("%s: %s answers %s, want %s", s.Path, path, b, a)
			}
		}
	}
	if docs < 400 {
		t.Fatalf("only %d documents", docs)
	}
}
