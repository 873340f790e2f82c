package catalogen_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/internal/catalogen"
)

// readTree returns every file under dir with its content.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestGenerateIsDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if err := catalogen.Generate(a, 60, 7); err != nil {
		t.Fatal(err)
	}
	if err := catalogen.Generate(b, 60, 7); err != nil {
		t.Fatal(err)
	}
	ta, tb := readTree(t, a), readTree(t, b)
	if len(ta) < 60 {
		t.Fatalf("%d files for 60 skills", len(ta))
	}
	for p, s := range ta {
		if tb[p] != s {
			t.Errorf("%s differs between two runs with the same seed", p)
		}
	}
	c := t.TempDir()
	if err := catalogen.Generate(c, 60, 8); err != nil {
		t.Fatal(err)
	}
	same := 0
	for p, s := range readTree(t, c) {
		if ta[p] == s {
			same++
		}
	}
	if same == len(ta) {
		t.Error("another seed gave the same catalog")
	}
}

// Every generated skill must be published: a benchmark over a catalog whose
// skills are rejected would measure nothing.
func TestGeneratedSkillsArePublished(t *testing.T) {
	dir := t.TempDir()
	plan, err := catalogen.GenerateSkills(dir, 200, 1)
	if err != nil {
		t.Fatal(err)
	}
	c, err := build.Load(context.Background(), build.LoadOptions{Sources: []string{dir}})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Skills) != len(plan) {
		for _, s := range c.All {
			if !s.Published() {
				t.Logf("%s: %v", s.Name, s.Diagnostics)
			}
		}
		t.Fatalf("%d of %d generated skills published", len(c.Skills), len(plan))
	}
	var usk, uasp, size int
	for i, s := range c.Skills {
		if s.Name != plan[i].Name || s.Description != plan[i].Description {
			t.Errorf("skill %d: got %q, planned %q", i, s.Name, plan[i].Name)
		}
		if s.Format == "usk" {
			usk++
		}
		k, err := c.Content(s)
		if err != nil {
			t.Fatal(err)
		}
		if k.UASPValue != nil {
			uasp++
		}
		size += len(k.Body)
	}
	if usk < 20 || usk > 70 || uasp < 8 || uasp > 40 {
		t.Errorf("USK %d, UASP %d of 200: want about 40 and 20", usk, uasp)
	}
	if avg := size / len(c.Skills); avg < 4000 || avg > 7000 {
		t.Errorf("average body %d bytes, want about 5 KB", avg)
	}
}
