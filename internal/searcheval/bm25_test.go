package searcheval

import (
	"slices"
	"strings"
	"testing"
)

func TestBM25(t *testing.T) {
	filler := strings.Repeat("lorem ipsum dolor ", 30)
	m := NewBM25([]Doc{
		// "pods" twice in a long text, and once in a short one: length
		// normalisation (b) ranks the short one first; without it the long
		// one would win.
		{Name: "long", Text: "pods pods " + filler},
		{Name: "short", Text: "pods restart"},
		// Every document but one has "common": the rare term decides.
		{Name: "rare", Text: "common grafana"},
		{Name: "zeta", Text: "common " + filler},
		{Name: "alpha", Text: "common " + filler},
	})
	for _, tc := range []struct {
		q     string
		limit int
		want  []string
	}{
		{"pods", 5, []string{"short", "long"}},
		{"pods pods", 5, []string{"short", "long"}}, // a term counts once
		{"Grafana common", 1, []string{"rare"}},
		{"restarting", 5, []string{"short"}}, // stemmed as the index stems
		{"the", 5, nil},                      // a stop word
		{"absent", 5, nil},
	} {
		if got := m.Top(tc.q, tc.limit); !slices.Equal(got, tc.want) {
			t.Errorf("Top(%q, %d) = %v, want %v", tc.q, tc.limit, got, tc.want)
		}
	}
	// Ties go to the name first in byte order.
	if got := m.Top("lorem", 3); !slices.Equal(got, []string{"alpha", "zeta", "long"}) {
		t.Errorf("Top(lorem) = %v, want [alpha zeta long]", got)
	}
}
