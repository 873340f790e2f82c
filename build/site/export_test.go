package site

import (
	"bytes"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/siteinfo"
)

// SkillPageRenderer returns a function that renders the page of c's skill
// i into buf as a build does, minified templates included, without
// writing it: what a skill page costs beside the disk.
func SkillPageRenderer(c *catalog.Catalog, site *siteinfo.Info) (func(i int, buf *bytes.Buffer) error, error) {
	r, err := newRenderer(site, true, false, nil)
	if err != nil {
		return nil, err
	}
	r.termLinks = termLinks(c, site)
	r.folders = newSkillFolders(c)
	r.linkWorld = linkWorldOf(c)
	return func(i int, buf *bytes.Buffer) error {
		k, err := c.Content(c.Skills[i])
		if err != nil {
			return err
		}
		p, err := r.skillPage(c.Skills[i], k)
		if err != nil {
			return err
		}
		return r.execute(buf, "skill.html", p)
	}, nil
}

// PagerWindow is pagerWindow: the page numbers a pager shows, 0 for a gap.
var PagerWindow = pagerWindow
