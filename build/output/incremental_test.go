package output

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
)

// tree returns every file under dir (the marker aside) with its content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if d.IsDir() {
			if p != dir {
				if entries, _ := os.ReadDir(p); len(entries) == 0 {
					out[p+"/"] = "(empty folder)"
				}
			}
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		if rel != Marker {
			b, _ := os.ReadFile(p)
			out[filepath.ToSlash(rel)] = string(b)
		}
		return nil
	})
	return out
}

func inode(t *testing.T, p string) uint64 {
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return uint64(st.Sys().(*syscall.Stat_t).Ino)
}

type site struct {
	files  map[string]string            // written directly
	groups map[string]map[string]string // group -> files; the key is the files joined
	folder map[string]string            // written through Reserve("idx")
}

func key(files map[string]string) string {
	var parts []string
	for p, c := range files {
		parts = append(parts, p+"="+c)
	}
	sort.Strings(parts)
	return strings.Join(parts, ";")
}

// build writes s to dest, incrementally from prev when it is not nil, and
// returns the manifest and how many groups were rendered.
func (s site) build(t *testing.T, dest string, prev *Manifest) (*Manifest, int, *Writer) {
	t.Helper()
	w, err := Open(dest, Options{Previous: prev})
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range s.files {
		if err := w.WriteRaw(p, []byte(c)); err != nil {
			t.Fatal(err)
		}
	}
	rendered := 0
	for name, files := range s.groups {
		g, reused, err := w.Group(name, key(files))
		if err != nil {
			t.Fatal(err)
		}
		if reused {
			continue
		}
		rendered++
		for p, c := range files {
			if err := g.WriteRaw(p, []byte(c)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if s.folder != nil {
		dir, err := w.Reserve("idx")
		if err != nil {
			t.Fatal(err)
		}
		for p, c := range s.folder {
			os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644)
		}
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	return w.Manifest(), rendered, w
}

func TestIncrementalEqualsClean(t *testing.T) {
	v1 := site{
		files: map[string]string{"index.html": "home 1", "tags/a/index.html": "a", "tags/b/index.html": "b"},
		groups: map[string]map[string]string{
			"skill/x": {"skills/x/index.html": "x1", "skills/x/SKILL.md": "x"},
			"skill/y": {"skills/y/index.html": "y1"},
			"skill/z": {"skills/z/index.html": "z1", "skills/z/scripts/run.sh": "run"},
		},
		folder: map[string]string{"seg1": "s1"},
	}
	v2 := site{
		files: map[string]string{"index.html": "home 2", "tags/a/index.html": "a", "tags/c/index.html": "c"},
		groups: map[string]map[string]string{
			"skill/x": {"skills/x/index.html": "x1", "skills/x/SKILL.md": "x"},         // unchanged
			"skill/y": {"skills/y/index.html": "y2"},                                   // edited
			"skill/w": {"skills/w/index.html": "z1", "skills/w/scripts/run.sh": "run"}, // z renamed to w
		},
		folder: map[string]string{"seg2": "s2"},
	}
	root := t.TempDir()
	inc := filepath.Join(root, "inc")
	m1, _, _ := v1.build(t, inc, nil)
	if m1 == nil || m1.Files() != 9 { // eight files and the reserved folder
		t.Fatalf("manifest after a full build: %+v", m1)
	}
	keptInode := inode(t, filepath.Join(inc, "tags/a/index.html"))
	groupInode := inode(t, filepath.Join(inc, "skills/x/index.html"))

	m2, rendered, w := v2.build(t, inc, m1)
	if rendered != 2 {
		t.Errorf("rendered %d groups, want 2 (the edited and the renamed)", rendered)
	}
	if written, kept := w.Stats(); kept != 3 || written != 6 {
		t.Errorf("wrote %d files and kept %d; want 6 and 3", written, kept)
	}
	clean := filepath.Join(root, "clean")
	v2.build(t, clean, nil)
	got, want := tree(t, inc), tree(t, clean)
	if key(got) != key(want) {
		t.Errorf("incremental site differs from a clean build:\n got %v\nwant %v", got, want)
	}
	if inode(t, filepath.Join(inc, "tags/a/index.html")) != keptInode || inode(t, filepath.Join(inc, "skills/x/index.html")) != groupInode {
		t.Error("an unchanged file was rewritten")
	}

	// A failed build leaves the site and its manifest as they were.
	w3, err := Open(inc, Options{Previous: m2})
	if err != nil {
		t.Fatal(err)
	}
	w3.WriteRaw("index.html", []byte("broken"))
	w3.Abort()
	if got := tree(t, inc); key(got) != key(want) {
		t.Error("an aborted incremental build changed the site")
	}
	// Back to v1 from the v2 manifest, still equal to a clean build.
	v1.build(t, inc, m2)
	clean1 := filepath.Join(root, "clean1")
	v1.build(t, clean1, nil)
	if got, want := tree(t, inc), tree(t, clean1); key(got) != key(want) {
		t.Errorf("second incremental build differs:\n got %v\nwant %v", got, want)
	}
}

// A manifest is trusted only for the folder it describes as it was left.
func TestManifestValidity(t *testing.T) {
	root := t.TempDir()
	s := site{files: map[string]string{"index.html": "x"}}
	a := filepath.Join(root, "a")
	m, _, _ := s.build(t, a, nil)
	if m.validFor(a) == nil {
		t.Fatal("a fresh manifest is not valid for its own folder")
	}
	if m.validFor(filepath.Join(root, "b")) != nil {
		t.Error("a manifest is valid for another folder")
	}
	// Another build without the manifest replaces the folder: the old
	// manifest must not be trusted any more.
	s.build(t, a, nil)
	if m.validFor(a) != nil {
		t.Error("a manifest stayed valid after the folder was rebuilt without it")
	}
}

// TestPreviousFile: an incremental build finds the files the previous
// build committed, with their digests, until it commits itself; a full
// build has none, and a reserved folder is no file.
func TestPreviousFile(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "site")
	v1 := site{files: map[string]string{"llms-full.txt": "all of it"}, folder: map[string]string{"seg": "s"}}
	m1, _, _ := v1.build(t, dest, nil)

	full, err := Open(filepath.Join(t.TempDir(), "other"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := full.PreviousFile("llms-full.txt"); ok {
		t.Error("a full build found a previous file")
	}
	full.Abort()

	w, err := Open(dest, Options{Previous: m1})
	if err != nil {
		t.Fatal(err)
	}
	name, digest, ok := w.PreviousFile("llms-full.txt")
	if !ok {
		t.Fatal("an incremental build did not find the previous llms-full.txt")
	}
	if b, err := os.ReadFile(name); err != nil || string(b) != "all of it" || digest != sha256.Sum256(b) {
		t.Errorf("previous file %s: %q (%v), digest %x", name, b, err, digest)
	}
	for _, p := range []string{"missing.txt", "idx"} {
		if _, _, ok := w.PreviousFile(p); ok {
			t.Errorf("found a previous file for %s", p)
		}
	}
	if err := w.WriteRaw("llms-full.txt", []byte("new")); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := w.PreviousFile("llms-full.txt"); ok {
		t.Error("a committed build still finds the previous file")
	}
}

// WriteRawSum trusts the caller's hash: a file given again with it is
// kept, a changed one written, and the manifest holds the hash as WriteRaw
// would have computed it.
func TestWriteRawSum(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "site")
	write := func(prev *Manifest, content string) (*Manifest, *Writer) {
		t.Helper()
		w, err := Open(dest, Options{Previous: prev})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.WriteRawSum("seg.zap", []byte(content), sha256.Sum256([]byte(content))); err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(); err != nil {
			t.Fatal(err)
		}
		return w.Manifest(), w
	}
	m1, _ := write(nil, "segment 1")
	before := inode(t, filepath.Join(dest, "seg.zap"))
	m2, w := write(m1, "segment 1")
	if written, kept := w.Stats(); written != 0 || kept != 1 {
		t.Errorf("the same bytes again: wrote %d files and kept %d; want 0 and 1", written, kept)
	}
	if inode(t, filepath.Join(dest, "seg.zap")) != before {
		t.Error("the same bytes again: the file was rewritten")
	}
	_, w = write(m2, "segment 2")
	if written, kept := w.Stats(); written != 1 || kept != 0 {
		t.Errorf("changed bytes: wrote %d files and kept %d; want 1 and 0", written, kept)
	}
	if b, err := os.ReadFile(filepath.Join(dest, "seg.zap")); err != nil || string(b) != "segment 2" {
		t.Errorf("changed bytes: the file holds %q (%v)", b, err)
	}
}
