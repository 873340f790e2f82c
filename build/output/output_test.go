package output

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func read(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCommitReplacesOnlyOwnSites(t *testing.T) {
	dir := t.TempDir()
	dest := filepath.Join(dir, "public")

	// A folder someone else made is never replaced.
	os.MkdirAll(dest, 0o755)
	os.WriteFile(filepath.Join(dest, "notes.txt"), []byte("mine"), 0o644)
	if _, err := Open(dest, Options{}); err == nil || !strings.Contains(err.Error(), "refusing to replace") {
		t.Fatalf("Open over a foreign folder: %v", err)
	}
	if read(t, filepath.Join(dest, "notes.txt")) != "mine" {
		t.Fatal("foreign file changed")
	}
	os.RemoveAll(dest)

	// First build into a missing folder.
	w, err := Open(dest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteFile("index.html", []byte("v1"))
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	// A failed build leaves the previous site as it was.
	w, err = Open(dest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteFile("index.html", []byte("v2"))
	w.WriteFile("other.html", []byte("x"))
	w.Abort()
	if read(t, filepath.Join(dest, "index.html")) != "v1" {
		t.Fatal("aborted build changed the site")
	}
	if _, err := os.Stat(filepath.Join(dest, "other.html")); err == nil {
		t.Fatal("aborted build left a file")
	}
	// A build that never finishes (killed) leaves its folder behind; the
	// next build removes it and the site is untouched meanwhile.
	w, _ = Open(dest, Options{})
	w.WriteFile("index.html", []byte("half"))
	stale := w.Dir()
	w2, err := Open(dest, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Fatal("stale build folder not removed")
	}
	w2.WriteFile("index.html", []byte("v3"))
	if err := w2.Commit(); err != nil {
		t.Fatal(err)
	}
	if read(t, filepath.Join(dest, "index.html")) != "v3" {
		t.Fatal("commit did not replace the site")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("leftovers beside the site: %v", entries)
	}
}

func TestWritePaths(t *testing.T) {
	w, err := Open(filepath.Join(t.TempDir(), "out"), Options{Minify: true})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	for _, bad := range []string{"../x", "/abs", "a/../../b", "", ".", `a\b`} {
		if err := w.WriteFile(bad, nil); err == nil {
			t.Errorf("WriteFile(%q) accepted", bad)
		}
	}
	if err := w.WriteFile("a/b.html", []byte("<p>  hi  </p>\n\n")); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFile("a/b.html", nil); err == nil {
		t.Error("second write of the same path accepted")
	}
	if got := read(t, filepath.Join(w.Dir(), "a", "b.html")); got != "<p>hi</p>" {
		t.Errorf("minified HTML = %q", got)
	}
	w.WriteRaw("x.json", []byte("{ \"a\": 1.0 }"))
	if got := read(t, filepath.Join(w.Dir(), "x.json")); got != "{ \"a\": 1.0 }" {
		t.Errorf("raw write changed: %q", got)
	}
	if got := w.Files(); strings.Join(got, ",") != "a/b.html,x.json" {
		t.Errorf("Files = %v", got)
	}
	var got bytes.Buffer
	if err := w.CopyFile(&got, "a/b.html"); err != nil || got.String() != "<p>hi</p>" {
		t.Errorf("CopyFile(a/b.html) = %q, %v; want the minified bytes", got.String(), err)
	}
	if err := w.CopyFile(io.Discard, "missing.html"); err == nil {
		t.Error("CopyFile of a path never written succeeded")
	}
	if got, err := w.Digest("a/b.html"); err != nil || got != sha256.Sum256([]byte("<p>hi</p>")) {
		t.Errorf("Digest(a/b.html) = %x, %v; want the digest of the minified bytes", got, err)
	}
	f, _ := w.Create("streamed.txt")
	io.WriteString(f, "abc")
	if _, err := w.Digest("streamed.txt"); err == nil {
		t.Error("Digest of a file still being written succeeded")
	}
	f.Close()
	if got, err := w.Digest("streamed.txt"); err != nil || got != sha256.Sum256([]byte("abc")) {
		t.Errorf("Digest(streamed.txt) = %x, %v", got, err)
	}
	if _, err := w.Digest("missing.html"); err == nil {
		t.Error("Digest of a path never written succeeded")
	}
}

// TestMinifyBounded: small pages are minified; a page past maxMinify is
// written as given, since minifying it could take minutes.
func TestMinifyBounded(t *testing.T) {
	dest := filepath.Join(t.TempDir(), "out")
	w, err := Open(dest, Options{Minify: true})
	if err != nil {
		t.Fatal(err)
	}
	small := "<p>  a  </p>\n\n<p>b</p>"
	huge := "<p>" + strings.Repeat("&lt;x&gt; &amp; ", maxMinify/10) + "</p>"
	if err := w.WriteFile("small.html", []byte(small)); err != nil {
		t.Fatal(err)
	}
	if err := w.WriteFile("huge.html", []byte(huge)); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := read(t, filepath.Join(dest, "small.html")); got == small {
		t.Error("a small page was not minified")
	}
	if got := read(t, filepath.Join(dest, "huge.html")); got != huge {
		t.Error("a page past the bound was changed")
	}
}
