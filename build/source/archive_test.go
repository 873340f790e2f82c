package source

import (
	"archive/zip"
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skilldex/skilldex/internal/testutil"
)

type zipEntry struct {
	name   string
	body   string
	mode   fs.FileMode
	method uint16
}

func makeZip(t testing.TB, entries []zipEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: e.method, Modified: time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e.body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const skillMD = "---\nname: demo\ndescription: A demo skill for tests.\n---\n# Demo\n"

func writeArchive(t *testing.T, name string, data []byte) string {
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReadArchive(t *testing.T) {
	big := strings.Repeat("0", 6<<20)
	many := make([]zipEntry, 0, 60)
	for i := range 60 {
		many = append(many, zipEntry{name: "demo/f" + strings.Repeat("x", i%3) + string(rune('a'+i%26)) + string(rune('a'+i/26)), body: "x"})
	}
	cases := []struct {
		name     string
		entries  []zipEntry
		raw      []byte
		wantCode string // "" = readable
		wantRoot string
		wantFile string
	}{
		{name: "root folder", entries: []zipEntry{{name: "demo/", mode: fs.ModeDir | 0o755}, {name: "demo/SKILL.md", body: skillMD}, {name: "demo/scripts/run.sh", body: "echo"}}, wantRoot: "demo", wantFile: "scripts/run.sh"},
		{name: "files at root", entries: []zipEntry{{name: "SKILL.md", body: skillMD}, {name: "ref/a.md", body: "a"}}, wantFile: "ref/a.md"},
		{name: "macos junk ignored", entries: []zipEntry{{name: "demo/SKILL.md", body: skillMD}, {name: "__MACOSX/demo/._SKILL.md", body: "junk"}, {name: "demo/.DS_Store", body: "junk"}}, wantRoot: "demo", wantFile: "SKILL.md"},
		{name: "nested archive kept closed", entries: []zipEntry{{name: "SKILL.md", body: skillMD}, {name: "assets/inner.skill", body: string(makeZip(t, []zipEntry{{name: "SKILL.md", body: skillMD}}))}}, wantFile: "assets/inner.skill"},
		{name: "dot dot", entries: []zipEntry{{name: "SKILL.md", body: skillMD}, {name: "../evil.sh", body: "x"}}, wantCode: "archive-unsafe-path"},
		{name: "dot dot inside", entries: []zipEntry{{name: "SKILL.md", body: skillMD}, {name: "a/../../evil.sh", body: "x"}}, wantCode: "archive-unsafe-path"},
		{name: "absolute", entries: []zipEntry{{name: "/etc/passwd", body: "x"}}, wantCode: "archive-unsafe-path"},
		{name: "windows drive", entries: []zipEntry{{name: `C:\evil.txt`, body: "x"}}, wantCode: "archive-unsafe-path"},
		{name: "backslash climb", entries: []zipEntry{{name: `..\evil.txt`, body: "x"}}, wantCode: "archive-unsafe-path"},
		{name: "symlink entry", entries: []zipEntry{{name: "SKILL.md", body: skillMD}, {name: "link", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777}}, wantCode: "archive-unsafe-path"},
		{name: "too many entries", entries: many, wantCode: "archive-too-many-files"},
		{name: "entry too large", entries: []zipEntry{{name: "SKILL.md", body: skillMD}, {name: "big.txt", body: big, method: zip.Deflate}}, wantCode: "archive-too-large"},
		{name: "long name", entries: []zipEntry{{name: strings.Repeat("n", 201), body: "x"}}, wantCode: "archive-name-too-long"},
		{name: "duplicate", entries: []zipEntry{{name: "SKILL.md", body: skillMD}, {name: "SKILL.md", body: skillMD}}, wantCode: "archive-duplicate-entry"},
		{name: "not a zip", raw: []byte("this is not a zip file at all"), wantCode: "archive-invalid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := c.raw
			if data == nil {
				data = makeZip(t, c.entries)
			}
			p := writeArchive(t, "demo.skill", data)
			files, root, diags := readArchive(p, "demo.skill", DefaultArchiveLimits)
			if c.wantCode != "" {
				if files != nil || len(diags) == 0 || diags[len(diags)-1].Code != c.wantCode {
					t.Fatalf("want %s, got files=%v diags=%v", c.wantCode, len(files), diags)
				}
				return
			}
			if len(diags) != 0 || files == nil {
				t.Fatalf("unexpected diagnostics %v", diags)
			}
			if root != c.wantRoot {
				t.Errorf("root %q, want %q", root, c.wantRoot)
			}
			if _, ok := files[c.wantFile]; !ok {
				t.Errorf("file %q missing from %v", c.wantFile, keys(files))
			}
			for name := range files {
				if strings.HasPrefix(name, "__MACOSX") || strings.HasSuffix(name, ".DS_Store") {
					t.Errorf("junk kept: %s", name)
				}
			}
		})
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestZipBomb checks that inflation stops at the limit, whatever the
// headers claim, so a bomb costs about the limit and no more.
func TestZipBomb(t *testing.T) {
	// 128 MB of zeros deflates to about 128 KB; write it with a header
	// that lies about the size.
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zw.Create("SKILL.md")
	h := &zip.FileHeader{Name: "bomb.bin", Method: zip.Deflate}
	w, _ := zw.CreateHeader(h)
	chunk := make([]byte, 1<<20)
	for range 128 {
		w.Write(chunk)
	}
	zw.Close()
	data := buf.Bytes()
	// Rewrite the sizes in the central directory to a small lie: find the
	// uncompressed size field of "bomb.bin" (offset 24 from the central
	// header signature) and set it to 10.
	cd := bytes.LastIndex(data, []byte("PK\x01\x02"))
	data[cd+24], data[cd+25], data[cd+26], data[cd+27] = 10, 0, 0, 0
	p := writeArchive(t, "bomb.skill", data)
	files, _, diags := readArchive(p, "bomb.skill", DefaultArchiveLimits)
	if files != nil || len(diags) == 0 {
		t.Fatalf("bomb accepted: %d files, %v", len(files), diags)
	}
	if c := diags[0].Code; c != "archive-too-large" && c != "archive-invalid" {
		t.Fatalf("bomb gave %s: %s", c, diags[0].Message)
	}
}

func TestTruncatedArchive(t *testing.T) {
	data := makeZip(t, []zipEntry{{name: "SKILL.md", body: skillMD}, {name: "a.md", body: strings.Repeat("text ", 1000), method: zip.Deflate}})
	for _, cut := range []int{len(data) / 3, len(data) / 2, len(data) - 10} {
		p := writeArchive(t, "cut.skill", data[:cut])
		files, _, diags := readArchive(p, "cut.skill", DefaultArchiveLimits)
		if files != nil || len(diags) != 1 || diags[0].Code != "archive-invalid" {
			t.Errorf("cut at %d: files=%d diags=%v", cut, len(files), diags)
		}
	}
}

// FuzzReadArchive feeds arbitrary bytes to the archive reader: it must never
// panic, and whatever it accepts must have only safe, relative names.
func FuzzReadArchive(f *testing.F) {
	f.Add(makeZip(f, []zipEntry{{name: "demo/SKILL.md", body: skillMD}}))
	f.Add(makeZip(f, []zipEntry{{name: "../x", body: "x"}}))
	zips := testutil.Testdata(f, "corpus", "zips")
	filepath.WalkDir(zips, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".zip") {
			if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
				f.Add(b)
			}
		}
		return nil
	})
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "fuzz.skill")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files, _, _ := readArchive(p, "fuzz.skill", DefaultArchiveLimits)
		var total int
		for name, b := range files {
			// ValidPath rejects "..", "." and empty elements and a leading
			// slash; a name may still hold two dots ("..UT" is a file). A
			// backslash would separate folders on Windows.
			if !fs.ValidPath(name) || strings.Contains(name, `\`) {
				t.Fatalf("unsafe name accepted: %q", name)
			}
			total += len(b)
		}
		if total > int(DefaultArchiveLimits.MaxTotalBytes) {
			t.Fatalf("inflated %d bytes, more than the limit", total)
		}
	})
}

// TestArchiveWithoutSkillMDSaysWhatItHas: an archive whose SKILL.md is
// not where one is read says where its SKILL.md files are.
func TestArchiveWithoutSkillMDSaysWhatItHas(t *testing.T) {
	for _, c := range []struct {
		name    string
		entries []zipEntry
		want    string
	}{
		{"two.skill", []zipEntry{{name: "a/SKILL.md", body: skillMD}, {name: "b/SKILL.md", body: skillMD}},
			"but has 2: a/SKILL.md, b/SKILL.md; an archive holds one skill, so pack each skill folder on its own"},
		{"deep.skill", []zipEntry{{name: "skills/a/SKILL.md", body: skillMD}, {name: "README.md", body: "x"}},
			"but has skills/a/SKILL.md; put that skill's folder at the archive's root, alone"},
		{"none.skill", []zipEntry{{name: "data.csv", body: "a,b"}}, "under a single root folder; add one"},
	} {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, c.name), makeZip(t, c.entries), 0o644)
		res, err := Discover(context.Background(), []string{dir}, DefaultOptions)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Inputs) != 1 || len(res.Inputs[0].Diagnostics) != 1 || !strings.Contains(res.Inputs[0].Diagnostics[0].Message, c.want) {
			t.Errorf("%s: %+v, want a finding saying %q", c.name, res.Inputs, c.want)
		}
	}
}
