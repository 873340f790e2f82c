package testutil

import (
	"archive/zip"
	"bytes"
	"slices"
	"testing"
)

// Zip returns a ZIP archive of files (entry name to content), its entries
// in name order, so that it is the same bytes every run.
func Zip(tb testing.TB, files map[string]string) []byte {
	tb.Helper()
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range names {
		w, err := zw.Create(name)
		if err != nil {
			tb.Fatal(err)
		}
		if _, err := w.Write([]byte(files[name])); err != nil {
			tb.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}
