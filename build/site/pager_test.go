package site_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/site"
)

// TestPagerWindow: a pager shows the first and last pages and two on each
// side of the current one, and a gap of one page as that page.
func TestPagerWindow(t *testing.T) {
	for _, tc := range []struct {
		i, n int
		want string
	}{
		{1, 1, "[1]"},
		{2, 3, "1 [2] 3"},
		{4, 7, "1 2 3 [4] 5 6 7"},
		{1, 7, "[1] 2 3 … 7"},
		{1, 5, "[1] 2 3 4 5"},
		{1, 8, "[1] 2 3 … 8"},
		{4, 20, "1 2 3 [4] 5 6 … 20"},
		{5, 20, "1 2 3 4 [5] 6 7 … 20"},
		{6, 20, "1 … 4 5 [6] 7 8 … 20"},
		{10, 20, "1 … 8 9 [10] 11 12 … 20"},
		{16, 20, "1 … 14 15 [16] 17 18 19 20"},
		{17, 20, "1 … 15 16 [17] 18 19 20"},
		{20, 20, "1 … 18 19 [20]"},
		{417, 834, "1 … 415 416 [417] 418 419 … 834"},
	} {
		var got []string
		for _, j := range site.PagerWindow(tc.i, tc.n) {
			switch {
			case j == 0:
				got = append(got, "…")
			case j == tc.i:
				got = append(got, fmt.Sprintf("[%d]", j))
			default:
				got = append(got, fmt.Sprint(j))
			}
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("page %d of %d: %s, want %s", tc.i, tc.n, s, tc.want)
		}
	}
}
