package markdown

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden renders each testdata/golden/NAME.md and compares the HTML,
// the headings and the excerpt with NAME.html (run with -update to
// rewrite them after a deliberate change, and read the diff).
func TestGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "golden", "*.md"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".md")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Render(src, testOptions)
			if err != nil {
				t.Fatal(err)
			}
			if err := checkSafe([]byte(res.HTML)); err != nil {
				t.Errorf("unsafe: %v", err)
			}
			var got bytes.Buffer
			got.WriteString(res.HTML)
			got.WriteString("<!--\nheadings:\n")
			for _, h := range res.Headings {
				j, _ := json.Marshal(h)
				got.Write(j)
				got.WriteByte('\n')
			}
			got.WriteString("plain: " + Plain(src, 160) + "\n-->\n")

			golden := strings.TrimSuffix(in, ".md") + ".html"
			if *update {
				if err := os.WriteFile(golden, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s differs from %s (go test -run TestGolden -update, then read the diff):\n%s", in, golden, got.Bytes())
			}
		})
	}
}
