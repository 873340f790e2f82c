package output

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

// BenchmarkCollectWithFiles measures a full garbage collection while the
// writer remembers the files of a large build (200,000 skill folders of 6
// files each: 1.2 million paths, as writers make them), what each
// collection of a 100,000-skill build visits besides the build's own data.
func BenchmarkCollectWithFiles(b *testing.B) {
	w, err := Open(filepath.Join(b.TempDir(), "site"), Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer w.Abort()
	files := []string{"index.html", "skill.json", "skill.md", "uasp.yaml", "uasp.json", "SKILL.md"}
	for i := range 200_000 {
		for _, f := range files {
			// The folders are few (mkdir is not what is measured); the
			// paths are many, each made as a writer makes it.
			p := fmt.Sprintf("skills/%03d/skill-%06d-%s", i%1000, i, f)
			if _, _, _, err := w.claim(p, &entry{size: 1, hashed: true}, false); err != nil {
				b.Fatal(err)
			}
		}
	}
	testutil.BenchCollections(b, w)
}
