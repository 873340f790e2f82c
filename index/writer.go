// Package index writes a skilldex site's search indexes and reads them
// back: a bleve index for programs (and `skilldex search`), and a JSON
// index sharded so that a browser downloads only what a query needs (read
// by static/search-core.js). Both come from the same documents, analysed
// with the same field weights; see jsonindex.go for the JSON files and
// bleve.go for the bleve index.
package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/parallel"
)

// Site paths of the search files. The pages writer owns search/index.html;
// everything else under search/ is written here.
const (
	// Dir is the folder of the search files.
	Dir = "search/"
	// BleveDir is the bleve index, a folder bleve.Open reads.
	BleveDir = "search/bleve"
	// BleveArchive is the same index as one ZIP file (its entries under
	// bleve/), for downloading; `skilldex search --index` opens it as is.
	BleveArchive = "search/bleve.zip"
)

// pageTemplate is the site path of a skill's page, {name} standing for the
// name; the client fills it in (siteinfo.SkillPage).
const pageTemplate = "skills/{name}/"

// Writer writes the search indexes of a site. It is a build.Writer.
type Writer struct{}

// Name is the build stage name.
func (Writer) Name() string { return "search" }

// Write writes the JSON index and the bleve index (folder and archive) of
// the published skills.
func (Writer) Write(ctx context.Context, c *catalog.Catalog, out *output.Writer, site *siteinfo.Info) error {
	docs := make([]*document, len(c.Skills))
	parallel.For(ctx, len(docs), 0, func(i int) { docs[i] = newDocument(c.Skills[i]) })
	facets := computeFacets(docs)
	if siteinfo.SkillPage("{name}") != pageTemplate {
		return fmt.Errorf("search: skill pages moved to %s; update index.pageTemplate", siteinfo.SkillPage("{name}"))
	}
	for _, f := range buildJSON(docs, facets, pageTemplate) {
		if err := out.WriteRaw(Dir+f.path, f.data); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}

	tmp, err := os.MkdirTemp("", "skilldex-bleve-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	ids := make([]string, len(docs))
	bdocs := make([]*bleveDoc, len(docs))
	perDoc := facetsByDoc(facets, len(docs))
	for i, d := range docs {
		ids[i] = d.Name
		bdocs[i] = newBleveDoc(d, perDoc[i], site.URL(siteinfo.SkillPage(d.Name)))
	}
	built := filepath.Join(tmp, "index")
	if err := writeBleve(built, ids, bdocs, tmp); err != nil {
		return fmt.Errorf("bleve index: %w", err)
	}
	if err := copyTree(out, built, BleveDir); err != nil {
		return err
	}
	zf, err := out.Create(BleveArchive)
	if err != nil {
		return err
	}
	if err := writeZip(zf, built, "bleve"); err != nil {
		zf.Close()
		return err
	}
	return zf.Close()
}

// facetsByDoc lists each document's facet values by facet id.
func facetsByDoc(facets []facet, n int) []map[string][]string {
	out := make([]map[string][]string, n)
	for i := range out {
		out[i] = map[string][]string{}
	}
	for _, f := range facets {
		for _, v := range f.values {
			for _, d := range v.docs {
				out[d][f.id] = append(out[d][f.id], v.name)
			}
		}
	}
	return out
}

// copyTree writes the files under dir into the site under sitePath.
func copyTree(out *output.Writer, dir, sitePath string) error {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	slices.Sort(files)
	for _, p := range files {
		rel, _ := filepath.Rel(dir, p)
		w, err := out.Create(sitePath + "/" + filepath.ToSlash(rel))
		if err != nil {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			w.Close()
			return err
		}
		_, err = f.WriteTo(w)
		f.Close()
		if cerr := w.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
