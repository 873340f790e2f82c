package index

import (
	"archive/zip"
	"bytes"
	"io"
	"math/rand/v2"
	"testing"
)

// TestDeflaterStreams: a file deflated a buffer at a time, as a segment
// read back from the output is, is the entry of the file deflated whole,
// and reads back as the file.
func TestDeflaterStreams(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	data := make([]byte, 3<<20)
	for i := range data {
		data[i] = byte('a' + r.IntN(4+i%17)) // compressible, not trivially
	}
	want := deflate(data)
	for _, chunk := range []int{1 << 10, 32 << 10, 1<<20 + 3} {
		d := newDeflater()
		for rest := data; len(rest) > 0; {
			n := min(chunk, len(rest))
			d.Write(rest[:n])
			rest = rest[n:]
		}
		got := d.zipped()
		if got.crc != want.crc || got.size != want.size || !bytes.Equal(got.compressed, want.compressed) {
			t.Errorf("written %d bytes at a time: crc %x size %d, %d bytes compressed; want crc %x size %d, %d bytes",
				chunk, got.crc, got.size, len(got.compressed), want.crc, want.size, len(want.compressed))
		}
	}
	var archive bytes.Buffer
	zw := zip.NewWriter(&archive)
	if err := addZipEntry(zw, "bleve/f", want); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(archive.Bytes()), int64(archive.Len()))
	if err != nil {
		t.Fatal(err)
	}
	f, err := zr.File[0].Open()
	if err != nil {
		t.Fatal(err)
	}
	back, err := io.ReadAll(f) // checks the CRC and size too
	if err != nil || !bytes.Equal(back, data) {
		t.Errorf("the entry reads back %d bytes (error %v), want the %d written", len(back), err, len(data))
	}
}
