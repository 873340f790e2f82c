package site

import (
	"testing"
	"time"
)

// TestUUID5 checks the name-based UUIDs against RFC 9562's example and
// Python's uuid.uuid5(uuid.NAMESPACE_DNS, "python.org").
func TestUUID5(t *testing.T) {
	dns := [16]byte{0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8}
	for name, want := range map[string]string{
		"www.example.com": "2ed6657d-e927-568b-95e1-2665a8aea6a2",
		"python.org":      "886313e1-3b8a-5372-9b90-0c9aee199e5d",
	} {
		if got := uuid5(dns, name); got != want {
			t.Errorf("uuid5(DNS, %q) = %s, want %s", name, got, want)
		}
	}
}

func TestW3CDate(t *testing.T) {
	for _, c := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2025, 3, 4, 0, 0, 0, 0, time.UTC), "2025-03-04"},
		{time.Date(2025, 3, 4, 10, 30, 0, 0, time.UTC), "2025-03-04T10:30:00Z"},
		{time.Date(2025, 3, 4, 0, 0, 0, 1, time.UTC), "2025-03-04T00:00:00Z"},
	} {
		if got := w3cDate(c.t); got != c.want {
			t.Errorf("w3cDate(%v) = %s, want %s", c.t, got, c.want)
		}
	}
}
