package siteread

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"golang.org/x/net/html"

	"github.com/skilldex/skilldex/build/api"
	"github.com/skilldex/skilldex/build/siteinfo"
)

// ErrNoSkill is returned for a skill the site does not publish.
var ErrNoSkill = errors.New("no such skill")

// Skill is what a site says of one skill for an agent to use it.
type Skill struct {
	Name string
	// Markdown is the skill's Markdown twin (skills/NAME/index.html.md: a
	// YAML summary, then its instructions), or its SKILL.md when the site
	// publishes no twins.
	Markdown string
	// MarkdownURL is where Markdown is published.
	MarkdownURL string
	// Page is the link of the skill's page.
	Page string
	// Files are the skill's files, as its page lists them.
	Files []File
}

// File is one file of a skill.
type File struct {
	// Path is relative to the skill's folder: scripts/run.py.
	Path string `json:"path"`
	// Size is as the page writes it (1.2 KB).
	Size string `json:"size,omitempty"`
	// URL is the link of the file on the site, "" when the site does not
	// publish the skill's files.
	URL string `json:"url,omitempty"`
}

// Skill reads the skill name: its Markdown twin, and its file list from
// its page. A name that cannot be a skill's is refused before anything is
// read; a skill the site lacks is ErrNoSkill.
func (s *Site) Skill(ctx context.Context, name string) (*Skill, error) {
	if err := ValidName(name); err != nil {
		return nil, err
	}
	page, err := s.fetch(ctx, siteinfo.FileOf(siteinfo.SkillPage(name)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %q is not published on this site; search_skills finds skills by what they do", ErrNoSkill, name)
	}
	if err != nil {
		return nil, err
	}
	sk := &Skill{Name: name, Page: s.Link(siteinfo.SkillPage(name))}
	for _, p := range []string{siteinfo.SkillMarkdown(name), siteinfo.SkillFile(name, "SKILL.md")} {
		b, err := s.fetch(ctx, p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		sk.Markdown, sk.MarkdownURL = string(b), s.Link(p)
		break
	}
	if sk.MarkdownURL == "" {
		return nil, fmt.Errorf("%s publishes neither the Markdown twin nor the SKILL.md of %s (publish.markdown and publish.sources are off); read its page, %s", s.Location, name, sk.Page)
	}
	for _, f := range pageFiles(page) {
		if f.URL != "" {
			// The page links a published file; its site path follows
			// from the file's path, whatever base URL the page was built
			// with.
			f.URL = s.Link(siteinfo.PublishedFile(name, f.Path))
		}
		sk.Files = append(sk.Files, f)
	}
	return sk, nil
}

// pageFiles reads the file list of a skill page: the items of
// <ul class="sd-files">, each the file's path (in a link when the file is
// published) and its size in <span class="sd-count">. URL is set to the
// link as written when there is one.
func pageFiles(page []byte) []File {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return nil
	}
	var list *html.Node
	for n := range doc.Descendants() {
		if n.Type == html.ElementNode && n.Data == "ul" && hasClass(n, "sd-files") {
			list = n
			break
		}
	}
	if list == nil {
		return nil
	}
	var out []File
	for li := range list.ChildNodes() {
		if li.Type != html.ElementNode || li.Data != "li" {
			continue
		}
		var f File
		for c := range li.ChildNodes() {
			switch {
			case c.Type == html.TextNode:
				f.Path += c.Data
			case c.Data == "a":
				f.Path += text(c)
				f.URL = attr(c, "href")
			case c.Data == "span" && hasClass(c, "sd-count"):
				f.Size = strings.TrimSpace(text(c))
			}
		}
		if f.Path = strings.TrimSpace(f.Path); f.Path != "" {
			out = append(out, f)
		}
	}
	return out
}

func hasClass(n *html.Node, class string) bool {
	for _, c := range strings.Fields(attr(n, "class")) {
		if c == class {
			return true
		}
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	for c := range n.Descendants() {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// LLMS returns the site's llms.txt.
func (s *Site) LLMS(ctx context.Context) ([]byte, error) {
	return s.fetch(ctx, api.LLMSPath)
}
