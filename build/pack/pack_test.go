package pack_test

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/pack"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/internal/testutil"
)

func TestWrite(t *testing.T) {
	fsys := fstest.MapFS{
		"SKILL.md":          {Data: []byte("---\nname: x\ndescription: d\n---\nBody\n"), Mode: 0o600},
		"scripts/run.sh":    {Data: []byte("#!/bin/sh\necho hi\n"), Mode: 0o600},
		"references/a.md":   {Data: []byte("A\n"), Mode: 0o777},
		"assets/ünïcode.md": {Data: []byte("u\n")},
	}
	paths := []string{"scripts/run.sh", "SKILL.md", "references/a.md", "assets/ünïcode.md", "SKILL.md"}
	cases := []struct {
		root  string
		names []string
	}{
		{"x", []string{"x/SKILL.md", "x/assets/ünïcode.md", "x/references/a.md", "x/scripts/run.sh"}},
		{"", []string{"SKILL.md", "assets/ünïcode.md", "references/a.md", "scripts/run.sh"}},
	}
	for _, c := range cases {
		var a, b bytes.Buffer
		if err := pack.Write(&a, fsys, c.root, paths); err != nil {
			t.Fatal(err)
		}
		slices.Reverse(paths)
		if err := pack.Write(&b, fsys, c.root, paths); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Errorf("root %q: the archive depends on the order of the paths", c.root)
		}
		zr, err := zip.NewReader(bytes.NewReader(a.Bytes()), int64(a.Len()))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range zr.File {
			names = append(names, f.Name)
			if !f.Modified.Equal(pack.Epoch) {
				t.Errorf("%s: modified %v, want %v", f.Name, f.Modified, pack.Epoch)
			}
			want := uint32(0o644)
			if filepath.Base(f.Name) == "run.sh" {
				want = 0o755
			}
			if got := uint32(f.Mode().Perm()); got != want {
				t.Errorf("%s: mode %o, want %o", f.Name, got, want)
			}
			rc, _ := f.Open()
			data, _ := io.ReadAll(rc)
			rc.Close()
			rel := f.Name
			if c.root != "" {
				rel = rel[len(c.root)+1:]
			}
			if !bytes.Equal(data, fsys[rel].Data) {
				t.Errorf("%s: content differs", f.Name)
			}
		}
		if !slices.Equal(names, c.names) {
			t.Errorf("root %q: entries %q, want %q", c.root, names, c.names)
		}
	}
}

func TestWriteRejects(t *testing.T) {
	fsys := fstest.MapFS{"a.md": {Data: []byte("a")}}
	for _, c := range []struct {
		root  string
		paths []string
	}{
		{"a/b", []string{"a.md"}},
		{"..", []string{"a.md"}},
		{"x", []string{"../a.md"}},
		{"x", []string{`a\b.md`}},
		{"x", []string{"missing.md"}},
	} {
		if err := pack.Write(io.Discard, fsys, c.root, c.paths); err == nil {
			t.Errorf("Write(root %q, %q) succeeded; want an error", c.root, c.paths)
		}
	}
}

func TestCheckLimits(t *testing.T) {
	in := &source.Input{Files: []source.File{{Path: "SKILL.md", Size: 10}, {Path: "big.bin", Size: 100}}}
	cases := []struct {
		lim source.ArchiveLimits
		ok  bool
	}{
		{source.DefaultArchiveLimits, true},
		{source.ArchiveLimits{MaxFiles: 1}, false},
		{source.ArchiveLimits{MaxTotalBytes: 50}, false},
		{source.ArchiveLimits{MaxFileBytes: 99}, false},
		{source.ArchiveLimits{MaxNameLength: 8}, false},
		{source.ArchiveLimits{}, true},
	}
	for _, c := range cases {
		if err := pack.CheckLimits(in, "sk", c.lim); (err == nil) != c.ok {
			t.Errorf("CheckLimits(%+v) = %v, want ok=%v", c.lim, err, c.ok)
		}
	}
}

// TestRoundTrip: a folder packed as NAME.skill loads back as the same
// skill: the same files, the same SKILL.md, the same document.
func TestRoundTrip(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `-- folder-name/SKILL.md --
---
name: round-trip
description: Pack a folder and read it back. Use when testing archives.
---
# Round trip

Run scripts/go.sh, then read references/notes.md.
-- folder-name/scripts/go.sh --
#!/bin/sh
echo go
-- folder-name/references/notes.md --
Notes.
-- folder-name/.hidden/config.yaml --
a: 1
`)
	ctx := context.Background()
	folder, err := build.Load(ctx, build.LoadOptions{Sources: []string{filepath.Join(dir, "folder-name")}})
	if err != nil || len(folder.Skills) != 1 {
		t.Fatalf("load folder: %v, %d skills", err, len(folder.Skills))
	}
	fs := folder.Skills[0]
	var buf bytes.Buffer
	if err := pack.Skill(&buf, fs.Input, fs.Name); err != nil {
		t.Fatal(err)
	}
	archive := filepath.Join(t.TempDir(), "round-trip.skill")
	if err := os.WriteFile(archive, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	packed, err := build.Load(ctx, build.LoadOptions{Sources: []string{archive}})
	if err != nil || len(packed.Skills) != 1 {
		t.Fatalf("load archive: %v, %d skills", err, len(packed.Skills))
	}
	ps := packed.Skills[0]
	// Files compare by path and size: a file on disk also has a stamp.
	sameFile := func(a, b source.File) bool { return a.Path == b.Path && a.Size == b.Size }
	pk, err := packed.Content(ps)
	if err != nil {
		t.Fatal(err)
	}
	fk, err := folder.Content(fs)
	if err != nil {
		t.Fatal(err)
	}
	if ps.Name != fs.Name || !bytes.Equal(pk.Source, fk.Source) || !slices.EqualFunc(ps.Files, fs.Files, sameFile) {
		t.Errorf("the archive loads as %s %v, the folder as %s %v", ps.Name, ps.Files, fs.Name, fs.Files)
	}
	if pk.Doc.Version != fk.Doc.Version {
		t.Errorf("document version %s from the archive, %s from the folder", ps.Doc.Version, fs.Doc.Version)
	}
	if ps.DirName != "round-trip" {
		t.Errorf("the archive's folder is %q, want the skill's name", ps.DirName)
	}
}

func TestWriteFilesDuplicate(t *testing.T) {
	files := []pack.File{{Path: "b.md", Data: []byte("b")}, {Path: "a.md"}, {Path: "b.md"}}
	if err := pack.WriteFiles(io.Discard, "x", files); err == nil {
		t.Error("WriteFiles took the same path twice")
	}
}

// TestWithoutArchives: the archives of skills in a skill's folder are
// left out of its archive; other files, other ZIPs among them, are kept.
func TestWithoutArchives(t *testing.T) {
	zipOf := func(paths ...string) []byte {
		fsys := fstest.MapFS{}
		for _, p := range paths {
			fsys[p] = &fstest.MapFile{Data: []byte("x\n")}
		}
		var b bytes.Buffer
		if err := pack.Write(&b, fsys, "", paths); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	cases := []struct {
		path string
		data []byte
		out  bool
	}{
		{"SKILL.md", []byte("---\nname: x\n---\n"), false},
		{"x.skill", zipOf("x/SKILL.md"), true},
		{"dist/OLD.SKILL", []byte("not even a ZIP"), true},
		{"x.zip", zipOf("x/SKILL.md", "x/a.md"), true},
		{"flat.zip", zipOf("SKILL.md"), true},
		{"lower.zip", zipOf("lower/skill.md"), true},
		{"assets/template.zip", zipOf("template/README.md"), false},
		{"assets/deep.zip", zipOf("a/b/SKILL.md"), false},
		{"assets/broken.zip", []byte("PK not really"), false},
		{"notes.md", []byte("notes\n"), false},
	}
	fsys := fstest.MapFS{}
	in := &source.Input{FS: fsys}
	var want []string
	for _, c := range cases {
		fsys[c.path] = &fstest.MapFile{Data: c.data}
		in.Files = append(in.Files, source.File{Path: c.path, Size: int64(len(c.data))})
		if c.out {
			want = append(want, c.path)
		}
	}
	kept, out := pack.WithoutArchives(in)
	if !slices.Equal(out, want) {
		t.Errorf("left out %q, want %q", out, want)
	}
	for _, c := range cases {
		if got := slices.ContainsFunc(kept.Files, func(f source.File) bool { return f.Path == c.path }); got == c.out {
			t.Errorf("%s: kept %v, want %v", c.path, got, !c.out)
		}
	}
	if len(in.Files) != len(cases) {
		t.Errorf("the input given lost files: %d of %d", len(in.Files), len(cases))
	}
	// Nothing to leave out: the input itself.
	plain := &source.Input{FS: fsys, Files: in.Files[:1]}
	if got, out := pack.WithoutArchives(plain); got != plain || out != nil {
		t.Errorf("a skill without archives: %p %q, want %p and nothing left out", got, out, plain)
	}
}
