package siteread

import (
	"bytes"
	"context"
	"encoding/json"
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
	// Bytes is the file's size, -1 when the site does not say it, or
	// says it only as its page writes it (Size).
	Bytes int64 `json:"bytes"`
	// Size is as the page writes it (1.2 KB), for a site whose skill
	// JSON has no file list (one built before skilldex wrote it).
	Size string `json:"size,omitempty"`
	// URL is the link of the file on the site, "" when the site does not
	// publish the skill's files.
	URL string `json:"url,omitempty"`
}

// Skill reads the skill name: its Markdown twin, and its file list from
// its JSON (or from its page, on a site built before the JSON listed the
// files, or for a skill without a UASP document, which has no JSON). A
// name that cannot be a skill's is refused before anything is read; a
// skill the site lacks is ErrNoSkill.
func (s *Site) Skill(ctx context.Context, name string) (*Skill, error) {
	if err := ValidName(name); err != nil {
		return nil, err
	}
	files, listed, err := s.skillFiles(ctx, name)
	if err != nil {
		return nil, err
	}
	if !listed {
		page, err := s.fetch(ctx, siteinfo.FileOf(siteinfo.SkillPage(name)))
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("%w: %q is not published on this site; search_skills finds skills by what they do", ErrNoSkill, name)
		}
		if err != nil {
			return nil, err
		}
		files = pageFiles(page)
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
	for _, f := range files {
		if f.URL != "" {
			// The site publishes the file; its site path follows from the
			// file's path, whatever base URL the site was built with.
			f.URL = ""
			if p := siteinfo.PublishedFile(name, f.Path); p != "" {
				f.URL = s.Link(p)
			}
		}
		sk.Files = append(sk.Files, f)
	}
	return sk, nil
}

// skillFiles reads the file list of the skill name from its JSON; listed
// is false when there is none: a site built before the JSON had it, or a
// skill without a UASP document, which has no JSON (its page says whether
// the skill is published).
func (s *Site) skillFiles(ctx context.Context, name string) (files []File, listed bool, err error) {
	b, err := s.fetch(ctx, siteinfo.APISkill(name))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	var doc struct {
		Files *[]struct {
			Path string `json:"path"`
			Size *int64 `json:"size"`
			URL  string `json:"url"`
		} `json:"files"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, false, fmt.Errorf("%s: %w", s.Link(siteinfo.APISkill(name)), err)
	}
	if doc.Files == nil {
		return nil, false, nil
	}
	for _, f := range *doc.Files {
		if siteinfo.PathProblem(f.Path) != "" {
			continue // no file of a skill has such a path
		}
		file := File{Path: f.Path, Bytes: -1, URL: f.URL}
		if f.Size != nil && *f.Size >= 0 {
			file.Bytes = *f.Size
		}
		files = append(files, file)
	}
	return files, true, nil
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
		f := File{Bytes: -1}
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
