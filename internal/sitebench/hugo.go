package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// hugoConfig builds a site comparable to skilldex's: a page per skill with
// its Markdown rendered and code highlighted with CSS classes, a home page
// listing every skill, tag and category pages, sitemap and feed, minified.
const hugoConfig = `baseURL = "https://example.com/"
title = "Agent skills"
languageCode = "en"
[taxonomies]
  tag = "tags"
  category = "categories"
[markup.goldmark.renderer]
  unsafe = false
[markup.highlight]
  noClasses = false
[minify]
  minifyOutput = true
`

var hugoLayouts = map[string]string{
	"baseof.html": `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{{ .Title }} · {{ site.Title }}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="description" content="{{ .Description }}"></head>
<body><header><a href="{{ "/" | relURL }}">{{ site.Title }}</a></header><main>{{ block "main" . }}{{ end }}</main></body></html>`,
	"single.html": `{{ define "main" }}<article data-pagefind-body><h1>{{ .Params.name }}</h1><p>{{ .Params.description }}</p>
{{ with .Params.tags }}<ul>{{ range . }}<li>{{ . }}</li>{{ end }}</ul>{{ end }}
{{ .Content }}</article>{{ end }}`,
	"list.html": `{{ define "main" }}<h1>{{ .Title }}</h1><ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Params.name | default .Title }}</a> {{ .Params.description }}</li>{{ end }}</ul>{{ end }}`,
	"home.html": `{{ define "main" }}<h1>{{ site.Title }}</h1><ul>{{ range where site.RegularPages "Section" "skills" }}<li><a href="{{ .RelPermalink }}">{{ .Params.name }}</a> {{ .Params.description }}</li>{{ end }}</ul>{{ end }}`,
}

// hugoSite turns the generated catalog into a Hugo project once: each skill
// folder becomes a page bundle (SKILL.md as index.md, with a title added,
// and the skill's other files as its resources, which Hugo publishes as
// skilldex does).
func hugoSite(cache, src string, n int) (string, error) {
	dir := filepath.Join(cache, fmt.Sprintf("hugo-%d", n))
	if _, err := os.Stat(filepath.Join(dir, ".done")); err == nil {
		return dir, nil
	}
	os.RemoveAll(dir)
	if err := os.MkdirAll(filepath.Join(dir, "layouts"), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "hugo.toml"), []byte(hugoConfig), 0o644); err != nil {
		return "", err
	}
	for name, body := range hugoLayouts {
		if err := os.WriteFile(filepath.Join(dir, "layouts", name), []byte(body), 0o644); err != nil {
			return "", err
		}
	}
	content := filepath.Join(dir, "content", "skills")
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if rel == ".done" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		target := filepath.Join(content, rel)
		if filepath.Base(rel) == "SKILL.md" {
			target = filepath.Join(filepath.Dir(target), "index.md")
			data = withTitle(data)
		}
		if strings.HasSuffix(rel, ".uasp.yaml") {
			return nil // Hugo would read it as data it does not understand
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		return "", err
	}
	return dir, os.WriteFile(filepath.Join(dir, ".done"), nil, 0o644)
}

// withTitle adds a title (the skill's name) to the frontmatter, which Hugo
// needs for its lists.
func withTitle(skillMD []byte) []byte {
	s := string(skillMD)
	if !strings.HasPrefix(s, "---\n") {
		return skillMD
	}
	i := strings.Index(s, "\nname:")
	if i < 0 {
		return skillMD
	}
	end := strings.IndexByte(s[i+1:], '\n')
	name := strings.TrimSpace(strings.TrimPrefix(s[i+1:i+1+end], "name:"))
	return []byte("---\ntitle: " + name + "\n" + s[4:])
}
