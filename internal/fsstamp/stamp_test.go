package fsstamp

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestStampChangesWithContent(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	stamp := func() Stamp {
		t.Helper()
		info, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return Of(info)
	}
	if err := os.WriteFile(p, []byte("one"), 0o644); err != nil {
		t.Fatal(err)
	}
	a := stamp()
	if !a.Known() || a != stamp() {
		t.Fatal("the stamp of an unchanged file changed")
	}
	// Same size, and the modification time put back: the change time
	// still tells (where the system has one).
	mtime := time.Unix(0, a.ModTime)
	time.Sleep(10 * time.Millisecond)
	if err := os.WriteFile(p, []byte("two"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	if b := stamp(); b == a && a.Change != 0 {
		t.Error("rewriting a file with its old size and modification time kept its stamp")
	}
}
