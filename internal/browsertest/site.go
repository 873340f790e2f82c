package browsertest

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/content"
)

// BuildDemo builds the demo catalog (content/) into the folder out, for
// the base URL base (use Server.URL). It unpacks the catalog into a
// temporary folder, which it removes.
func BuildDemo(ctx context.Context, out, base string) error {
	tmp, err := os.MkdirTemp("", "skilldex-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// Named content, as skilldex build unpacks it: the Source facet
	// names a source by its folder's name.
	src := filepath.Join(tmp, "content")
	if err := os.Mkdir(src, 0o755); err != nil {
		return err
	}
	if err := content.Extract(src); err != nil {
		return err
	}
	site, err := siteinfo.New("Demo skills", base)
	if err != nil {
		return err
	}
	_, err = build.Build(ctx, build.Options{
		LoadOptions: build.LoadOptions{
			Sources: []string{src},
			// Show paths as `skilldex build` does for the demo.
			Source: source.Options{Display: map[string]string{src: "content"}},
		},
		Output: out,
		Site:   site,
	})
	return err
}

// Pages returns the site path of every HTML file under dir, sorted, the way
// a person reaches it: "index.html" is "", "skills/x/index.html" is
// "skills/x/", and other files keep their name ("404.html").
func Pages(dir string) ([]string, error) {
	var pages []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "index.html" {
			rel = ""
		} else if strings.HasSuffix(rel, "/index.html") {
			rel = strings.TrimSuffix(rel, "index.html")
		}
		pages = append(pages, rel)
		return nil
	})
	sort.Strings(pages)
	return pages, err
}
