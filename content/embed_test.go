package content

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// The embedded catalog must be the folder as committed: a file left out of
// the go:embed patterns would silently vanish from the demo site.
func TestExtractMatchesFolder(t *testing.T) {
	dir := t.TempDir()
	if err := Extract(dir); err != nil {
		t.Fatal(err)
	}
	n := 0
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) == ".go" {
			return err
		}
		n++
		want, _ := os.ReadFile(p)
		got, err := os.ReadFile(filepath.Join(dir, p))
		if err != nil {
			t.Errorf("%s is not embedded: %v", p, err)
		} else if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the embedded copy", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n < 10 {
		t.Errorf("only %d files in the demo catalog", n)
	}
}
