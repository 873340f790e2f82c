package api_test

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/api"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/pack"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/uasp"
	"github.com/skilldex/skilldex/internal/testutil"
)

// catalogTxtar holds one skill of each kind: a SKILL.md folder with
// hostile files, a single-file skill, a USK v3 skill, and a UASP document
// alone with keys that need escaping.
const catalogTxtar = `
-- skills/pdf-tools/SKILL.md --
---
name: pdf-tools
description: Extract text and tables from PDF files. Use when working with PDFs.
license: MIT
metadata:
  tags: pdf, documents
  version: 1.2.0
---
# PDF tools

Never upload a PDF to a third-party service.

Read [forms](references/forms.md), then run:

` + "```bash\npython scripts/extract.py input.pdf\n```" + `
-- skills/pdf-tools/scripts/extract.py --
#!/usr/bin/env python3
print("text")
-- skills/pdf-tools/references/forms.md --
# Forms
-- skills/pdf-tools/evil.html --
<script>alert(document.cookie)</script>
-- skills/pdf-tools/assets/x.svg --
<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>
-- skills/pdf-tools/Report.XHTML --
<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>
-- skills/pdf-tools/index.html.md --
A file that would take the twin's place.
-- skills/solo/SKILL.md --
---
name: solo
description: A skill that is only its SKILL.md. Use when nothing else is needed.
---
Always say hello.
-- skills/web-search/SKILL.md --
---
name: web-search
description: Search the web and return results as JSON. Use when the agent needs fresh facts.
spec: usk/1.0
version: 2.0.0
interface:
  type: cli
  entry_point: main.py
  runtime: python3
  call_pattern: stdin_stdout
input_schema:
  type: object
  properties:
    query: {type: string}
  required: [query]
output_schema:
  type: object
  properties:
    results: {type: array}
capabilities: [web_search, Research]
permissions:
  network: true
  filesystem: false
  subprocess: false
  env_vars: [SEARCH_API_KEY]
category: search
tags: [search, web]
platform_compatibility: [any]
examples:
  - input: {query: "go 1.26"}
    output: {results: []}
---
# Web search

Reads one JSON object from stdin.
-- skills/web-search/main.py --
import json, sys
print(json.dumps({"results": []}))
-- docs/payments.uasp.yaml --
meta:
  name: payments
  version: "00000000"
  type: knowledge
  description: Payment integration rules. Use when integrating payments.
constraints:
  never:
    - Use the legacy Charges API
decisions:
  - when: user wants Charges API
    then: Use PaymentIntents instead
  - when: user asks for refunds
    then: Use the Refunds API
reference:
  record.start:
    syntax: rec start
sources:
  - id: stripe:migration/charges
    url: https://docs.stripe.com/payments/payment-intents/migration
-- docs/unversioned.uasp.yaml --
meta:
  name: unversioned
  type: knowledge
  description: A document without meta.version, which the schema requires.
constraints:
  never: [Guess]
`

func buildSite(t *testing.T, dir string, srcs ...string) (string, *build.Result) {
	t.Helper()
	site, err := siteinfo.New("Test skills", "https://example.org/skills/")
	if err != nil {
		t.Fatal(err)
	}
	res, err := build.Build(context.Background(), build.Options{LoadOptions: build.LoadOptions{Sources: srcs}, Output: dir, Site: site})
	if err != nil {
		t.Fatal(err)
	}
	return dir, res
}

func read(t *testing.T, site, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(site, filepath.FromSlash(p)))
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	return b
}

func exists(site, p string) bool {
	_, err := os.Stat(filepath.Join(site, filepath.FromSlash(p)))
	return err == nil
}

func TestAPIIntegration(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), catalogTxtar)
	site, res := buildSite(t, filepath.Join(t.TempDir(), "public"), filepath.Join(src, "skills"), filepath.Join(src, "docs"))
	if n := len(res.Catalog.Skills); n != 5 {
		t.Fatalf("%d skills published, want 5", n)
	}

	t.Run("index", func(t *testing.T) {
		var idx struct {
			Count  int `json:"count"`
			Skills []struct {
				Name, Type, Version, Format, Status string
				Tags                                []string
				URLs                                map[string]string
			}
		}
		if err := json.Unmarshal(read(t, site, api.IndexPath), &idx); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range idx.Skills {
			names = append(names, s.Name)
		}
		if want := []string{"payments", "pdf-tools", "solo", "unversioned", "web-search"}; !slices.Equal(names, want) || idx.Count != 5 {
			t.Fatalf("index lists %v (count %d), want %v", names, idx.Count, want)
		}
		pdf := idx.Skills[1]
		if pdf.URLs["archive"] != "https://example.org/skills/skills/pdf-tools/pdf-tools.skill" || pdf.Format != "skill-md" || !slices.Equal(pdf.Tags, []string{"pdf", "documents"}) {
			t.Errorf("pdf-tools entry: %+v", pdf)
		}
		if idx.Skills[0].URLs["skill_md"] != "" || idx.Skills[0].Format != "uasp" {
			t.Errorf("a UASP document alone has no SKILL.md: %+v", idx.Skills[0])
		}
	})

	t.Run("files", func(t *testing.T) {
		for _, c := range []struct{ src, published string }{
			{"SKILL.md", "skills/pdf-tools/SKILL.md"},
			{"scripts/extract.py", "skills/pdf-tools/scripts/extract.py"},
			{"references/forms.md", "skills/pdf-tools/references/forms.md"},
			{"evil.html", "skills/pdf-tools/evil.html.txt"},
			{"assets/x.svg", "skills/pdf-tools/assets/x.svg.txt"},
			{"Report.XHTML", "skills/pdf-tools/Report.XHTML.txt"},
			{"index.html.md", "skills/pdf-tools/index.html.md.txt"},
		} {
			want, _ := os.ReadFile(filepath.Join(src, "skills", "pdf-tools", c.src))
			if got := read(t, site, c.published); !bytes.Equal(got, want) {
				t.Errorf("%s differs from the source %s", c.published, c.src)
			}
			if got := siteinfo.PublishedFile("pdf-tools", c.src); got != c.published {
				t.Errorf("PublishedFile(%s) = %s, written at %s", c.src, got, c.published)
			}
		}
	})

	t.Run("twin", func(t *testing.T) {
		md := string(read(t, site, "skills/pdf-tools/index.html.md"))
		for _, want := range []string{"---\nname: pdf-tools\n", "\nstatus: approved\n", "declared_version: 1.2.0\n",
			"source: https://example.org/skills/skills/pdf-tools/SKILL.md\n", "---\n\n# PDF tools\n\nNever upload"} {
			if !strings.Contains(md, want) {
				t.Errorf("pdf-tools twin lacks %q:\n%s", want, md)
			}
		}
		if doc := string(read(t, site, "skills/payments/index.html.md")); !strings.Contains(doc, "format: uasp\n") || !strings.Contains(doc, "# payments") {
			t.Errorf("the twin of a UASP document is not its Markdown:\n%s", doc)
		}
	})

	t.Run("answers", func(t *testing.T) {
		checkAnswers(t, site, res.Catalog)
		// Keys with dots and ids with slashes have their file, escaped.
		for _, p := range []string{"api/v1/skills/payments/reference.record.start.json", "api/v1/skills/payments/sources.stripe:migration%2Fcharges.json"} {
			if !exists(site, p) {
				t.Errorf("%s is missing", p)
			}
		}
		// Schema problems are warnings, which never block an answer.
		if a := string(read(t, site, "api/v1/skills/unversioned/constraints.never.json")); !strings.Contains(a, `"found": true`) {
			t.Errorf("the answer of a document with warnings:\n%s", a)
		}
		if a := string(read(t, site, "api/v1/skills/payments/reference.record.start.json")); !strings.Contains(a, `"syntax": "rec start"`) {
			t.Errorf("payments:reference.record.start:\n%s", a)
		}
		var doc struct {
			Derived     bool           `json:"derived"`
			Frontmatter map[string]any `json:"frontmatter"`
			Document    map[string]any `json:"document"`
		}
		if err := json.Unmarshal(read(t, site, "api/v1/skills/pdf-tools.json"), &doc); err != nil {
			t.Fatal(err)
		}
		if !doc.Derived || doc.Frontmatter["license"] != "MIT" || doc.Document["meta"] == nil {
			t.Errorf("pdf-tools.json: derived %v, frontmatter %v", doc.Derived, doc.Frontmatter)
		}
	})

	t.Run("archive", func(t *testing.T) {
		data := read(t, site, "skills/pdf-tools/pdf-tools.skill")
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, f := range zr.File {
			names = append(names, f.Name)
		}
		want := []string{"pdf-tools/Report.XHTML", "pdf-tools/SKILL.md", "pdf-tools/assets/x.svg", "pdf-tools/evil.html",
			"pdf-tools/index.html.md", "pdf-tools/references/forms.md", "pdf-tools/scripts/extract.py"}
		if !slices.Equal(names, want) {
			t.Errorf("archive entries %q, want %q", names, want)
		}
		// A UASP document alone is packaged with a SKILL.md made from it,
		// and reads back as a skill with the same, given, document.
		archive := filepath.Join(t.TempDir(), "payments.skill")
		os.WriteFile(archive, read(t, site, "skills/payments/payments.skill"), 0o644)
		c, err := build.Load(context.Background(), build.LoadOptions{Sources: []string{archive}})
		if err != nil || len(c.Skills) != 1 {
			t.Fatalf("load payments.skill: %v", err)
		}
		got, orig := c.Skills[0], res.Catalog.Lookup("payments")
		if got.Name != "payments" || got.Doc.Derived || got.Doc.Version != orig.Doc.Version || got.Status != "approved" && got.Status != "caution" {
			t.Errorf("payments.skill reads back as %s (derived %v, version %s, %s), want version %s", got.Name, got.Doc.Derived, got.Doc.Version, got.Status, orig.Doc.Version)
		}
	})

	t.Run("discovery", func(t *testing.T) {
		checkDigests(t, site)
		var idx struct {
			Skills []struct{ Name, Type, URL, Version string }
		}
		json.Unmarshal(read(t, site, api.AgentSkillsPath), &idx)
		got := map[string]string{}
		for _, s := range idx.Skills {
			got[s.Name] = s.Type + " " + s.URL + " " + s.Version
		}
		want := map[string]string{
			"pdf-tools":  "archive https://example.org/skills/.well-known/agent-skills/pdf-tools.zip 1.2.0",
			"solo":       "skill-md https://example.org/skills/skills/solo/SKILL.md ",
			"web-search": "archive https://example.org/skills/.well-known/agent-skills/web-search.zip 2.0.0",
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("agent-skills entry %s = %q, want %q", k, got[k], v)
			}
		}
		if len(got) != len(want) {
			t.Errorf("agent-skills index has %v", got)
		}
		// The discovery archive has SKILL.md at its top.
		data := read(t, site, ".well-known/agent-skills/pdf-tools.zip")
		zr, _ := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if zr == nil || zr.File[1].Name != "SKILL.md" {
			t.Errorf("the discovery archive does not hold SKILL.md at its top")
		}
		if !bytes.Equal(read(t, site, ".well-known/skills/solo/SKILL.md"), read(t, site, "skills/solo/SKILL.md")) {
			t.Error("the v0.1 mirror of SKILL.md differs")
		}
		legacy := string(read(t, site, api.LegacySkillsPath))
		if !strings.Contains(legacy, `"files": [`) || strings.Contains(legacy, "payments") {
			t.Errorf("legacy index:\n%s", legacy)
		}
	})

	t.Run("usk", func(t *testing.T) {
		var schema map[string]any
		if err := json.Unmarshal(read(t, site, "v1/agent/skills/web-search/schema"), &schema); err != nil {
			t.Fatal(err)
		}
		if schema["id"] != "web-search" || schema["interface"] == nil || schema["examples"] == nil || schema["download_url"] != "https://example.org/skills/skills/web-search/web-search.skill" {
			t.Errorf("schema: %v", schema)
		}
		if exists(site, "v1/agent/skills/pdf-tools/schema") {
			t.Error("a SKILL.md v2 skill got a USK schema")
		}
		caps := string(read(t, site, api.AgentCapabilityPath))
		if !strings.Contains(caps, `"web_search"`) || !strings.Contains(caps, `"Research"`) {
			t.Errorf("capabilities:\n%s", caps)
		}
	})

	t.Run("text", func(t *testing.T) {
		llms := string(read(t, site, api.LLMSPath))
		for _, want := range []string{"# Test skills\n\n> ", "\n## Skills\n\n- [payments](https://example.org/skills/skills/payments/index.html.md): Payment integration rules.", "\n## Optional\n"} {
			if !strings.Contains(llms, want) {
				t.Errorf("llms.txt lacks %q:\n%s", want, llms)
			}
		}
		full := string(read(t, site, api.LLMSFullPath))
		if !strings.Contains(full, "A relative link in a skill's text (references/guide.md) is relative to the skill's page") {
			t.Errorf("llms-full.txt does not say how its skills' relative links resolve:\n%.400s", full)
		}
		for _, s := range res.Catalog.Skills {
			if !strings.Contains(full, string(read(t, site, siteinfo.SkillMarkdown(s.Name)))) {
				t.Errorf("llms-full.txt lacks %s's Markdown", s.Name)
			}
		}
		if got := string(read(t, site, api.SkillsCatalogPath)); !strings.Contains(got, "\nsolo: A skill that is only its SKILL.md. Use when nothing else is needed.\n") {
			t.Errorf("SKILLS.md:\n%s", got)
		}
		var oa map[string]any
		if err := json.Unmarshal(read(t, site, api.OpenAPIPath), &oa); err != nil || oa["openapi"] != "3.1.0" {
			t.Errorf("openapi.json: %v %v", err, oa["openapi"])
		}
		var m struct {
			LoadedSkills []struct{ Name, QueryEndpoint string } `json:"loaded_skills"`
			QuerySyntax  string                                 `json:"query_syntax"`
		}
		if err := json.Unmarshal(read(t, site, api.ManifestPath), &m); err != nil || len(m.LoadedSkills) != 5 || m.QuerySyntax == "" {
			t.Errorf("manifest: %v %+v", err, m)
		}
	})

	t.Run("deterministic", func(t *testing.T) {
		again, _ := buildSite(t, filepath.Join(t.TempDir(), "public"), filepath.Join(src, "skills"), filepath.Join(src, "docs"))
		a, b := digestTree(t, site), digestTree(t, again)
		for p, h := range a {
			if strings.HasPrefix(p, "search/") {
				continue // not this package's
			}
			if b[p] != h {
				t.Errorf("%s differs between two builds", p)
			}
		}
	})
}

// checkAnswers checks that every path listed in each skill's paths.json
// has its file, and that the file holds what the query engine answers
// (what `skilldex query` prints), also when the document is read back
// from the site.
func checkAnswers(t *testing.T, site string, c *catalog.Catalog) int {
	t.Helper()
	n := 0
	for _, s := range c.Skills {
		k, err := c.Content(s)
		if err != nil {
			t.Fatal(err)
		}
		var list struct {
			Skill string
			Paths []struct{ Path, File, URL string }
		}
		if err := json.Unmarshal(read(t, site, siteinfo.APIPaths(s.Name)), &list); err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		reloaded, err := api.LoadDocument(read(t, site, siteinfo.APISkill(s.Name)))
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		if reloaded.Version != s.Doc.Version || k.Doc.Version != s.Doc.Version {
			t.Errorf("%s: the document read back has version %s, built %s, read again %s", s.Name, reloaded.Version, s.Doc.Version, k.Doc.Version)
		}
		var listed []string
		for _, p := range list.Paths {
			listed = append(listed, p.Path)
			// The url leads where the file is, resolved as a browser
			// resolves it against the address of paths.json.
			base, _ := url.Parse("https://example.org/site/" + siteinfo.APIPaths(s.Name))
			ref, err := url.Parse(p.URL)
			if err != nil {
				t.Errorf("%s:%s: url %q: %v", s.Name, p.Path, p.URL, err)
			} else if got, want := base.ResolveReference(ref).Path, "/site/api/v1/skills/"+s.Name+"/"+p.File; got != want {
				t.Errorf("%s:%s: url %q leads to %s, not %s", s.Name, p.Path, p.URL, got, want)
			}
			got := read(t, site, "api/v1/skills/"+s.Name+"/"+p.File)
			want := uasp.MarshalAnswer(k.Doc.Query(p.Path, nil))
			if !bytes.Equal(got, want) {
				t.Errorf("%s:%s: the file differs from the engine's answer", s.Name, p.Path)
			}
			if again := uasp.MarshalAnswer(reloaded.Query(p.Path, nil)); !bytes.Equal(again, want) {
				t.Errorf("%s:%s: the document read back answers differently:\n%s\nwant\n%s", s.Name, p.Path, again, want)
			}
			n++
		}
		var want []string
		for _, p := range k.Doc.Paths() {
			if api.HasAnswerFile(p) {
				want = append(want, p)
			}
		}
		if !slices.Equal(listed, want) {
			t.Errorf("%s: paths.json lists %d paths, the document has %d", s.Name, len(listed), len(want))
		}
	}
	return n
}

// checkDigests checks every digest of the Agent Skills index against the
// bytes served at its url.
func checkDigests(t *testing.T, site string) int {
	t.Helper()
	var idx struct {
		Schema string `json:"$schema"`
		Skills []struct{ Name, URL, Digest string }
	}
	if err := json.Unmarshal(read(t, site, api.AgentSkillsPath), &idx); err != nil {
		t.Fatal(err)
	}
	if idx.Schema != api.AgentSkillsSchema {
		t.Errorf("$schema %q", idx.Schema)
	}
	for _, s := range idx.Skills {
		p := strings.TrimPrefix(s.URL, "https://example.org/skills/")
		sum := sha256.Sum256(read(t, site, p))
		if got := "sha256:" + hex.EncodeToString(sum[:]); got != s.Digest {
			t.Errorf("%s: digest %s, but %s hashes to %s", s.Name, s.Digest, p, got)
		}
	}
	return len(idx.Skills)
}

func digestTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		f, _ := os.Open(p)
		h := sha256.New()
		io.Copy(h, f)
		f.Close()
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = hex.EncodeToString(h.Sum(nil))
		return nil
	})
	return out
}

// TestRepackMatchesSite: `skilldex pack` and the site write the same
// archive for a skill.
func TestRepackMatchesSite(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), catalogTxtar)
	site, res := buildSite(t, filepath.Join(t.TempDir(), "public"), filepath.Join(src, "skills"))
	s := res.Catalog.Lookup("pdf-tools")
	var buf bytes.Buffer
	if err := pack.Skill(&buf, s.Input, s.Name); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), read(t, site, siteinfo.SkillArchive("pdf-tools"))) {
		t.Error("the site's archive differs from pack.Skill's")
	}
}

// TestHostileFilesPublishedAsText: files a browser would render as active
// documents on the site's origin, or that would take the place of the
// page's own files, are published only as text.
func TestHostileFilesPublishedAsText(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), `-- evil/SKILL.md --
---
name: evil
description: A skill whose files try to run script on the catalog's origin.
---
Open evil.html.
-- evil/evil.html --
<script>fetch("/steal?c="+document.cookie)</script>
-- evil/x.svg --
<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>
-- evil/deep/PAGE.HTM --
<script>alert(2)</script>
-- evil/feed.xml --
<?xml-stylesheet href="x.xsl"?><x/>
-- evil/evil.skill --
not the archive
-- evil/index.html.md --
not the twin
`)
	site, _ := buildSite(t, filepath.Join(t.TempDir(), "public"), src)
	for _, p := range []string{"evil.html", "x.svg", "deep/PAGE.HTM", "feed.xml"} {
		if exists(site, "skills/evil/"+p) {
			t.Errorf("skills/evil/%s is published under its own name", p)
		}
		want, _ := os.ReadFile(filepath.Join(src, "evil", filepath.FromSlash(p)))
		if got := read(t, site, "skills/evil/"+p+".txt"); !bytes.Equal(got, want) {
			t.Errorf("skills/evil/%s.txt is not the file as text", p)
		}
	}
	if got := string(read(t, site, "skills/evil/evil.skill.txt")); got != "not the archive\n" {
		t.Errorf("evil.skill.txt = %q", got)
	}
	if b := read(t, site, siteinfo.SkillArchive("evil")); !bytes.HasPrefix(b, []byte("PK")) {
		t.Error("the skill's own evil.skill took the archive's place")
	}
	if md := string(read(t, site, siteinfo.SkillMarkdown("evil"))); !strings.HasPrefix(md, "---\nname: evil\n") {
		t.Errorf("the skill's own index.html.md took the twin's place:\n%s", md)
	}
	// Nothing under the skill's folder is an active document but the page
	// the pages writer renders.
	filepath.WalkDir(filepath.Join(site, "skills", "evil"), func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(site, p)
		rel = filepath.ToSlash(rel)
		ext := strings.ToLower(filepath.Ext(p))
		if err == nil && !d.IsDir() && rel != "skills/evil/index.html" && (strings.Contains(ext, "htm") || ext == ".svg" || ext == ".xml") {
			t.Errorf("%s is served as an active document", rel)
		}
		return err
	})
}

// TestQueryPathsPolicy: siteinfo.QueryPaths trades per-path files for a
// smaller site; paths.json lists exactly the files written, and none is
// written (nor linked) when no path gets a file.
func TestQueryPathsPolicy(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), catalogTxtar)
	for _, tc := range []struct {
		policy      string
		dotted, top bool
	}{
		{siteinfo.QueryPathsAll, true, true},
		{siteinfo.QueryPathsSections, false, true},
		{siteinfo.QueryPathsNone, false, false},
		{siteinfo.QueryPathsAuto, true, true}, // a small catalog: all
		{"", true, true},
	} {
		t.Run(tc.policy, func(t *testing.T) {
			info, err := siteinfo.New("Test skills", "/")
			if err != nil {
				t.Fatal(err)
			}
			info.QueryPaths = tc.policy
			dir := filepath.Join(t.TempDir(), "public")
			opt := build.Options{LoadOptions: build.LoadOptions{Sources: []string{filepath.Join(src, "docs")}}, Output: dir, Site: info}
			res, err := build.Build(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			var sawDotted, sawTop bool
			for _, s := range res.Catalog.Skills {
				if !exists(dir, siteinfo.APISkill(s.Name)) {
					t.Errorf("%s: no document", s.Name)
				}
				page := string(read(t, dir, siteinfo.FileOf(siteinfo.SkillPage(s.Name))))
				linked := strings.Contains(page, siteinfo.APIPaths(s.Name))
				if !tc.top {
					if exists(dir, siteinfo.APIPaths(s.Name)) || linked {
						t.Errorf("%s: paths.json written or linked with no path published", s.Name)
					}
					continue
				}
				if !linked {
					t.Errorf("%s: the page does not link paths.json", s.Name)
				}
				var list struct {
					Paths []struct{ Path, File string }
				}
				if err := json.Unmarshal(read(t, dir, siteinfo.APIPaths(s.Name)), &list); err != nil {
					t.Fatal(err)
				}
				for _, p := range list.Paths {
					if !exists(dir, api.AnswerPath(s.Name, p.Path)) {
						t.Errorf("%s: paths.json lists %s, which has no file", s.Name, p.Path)
					}
					if strings.Contains(p.Path, ".") {
						sawDotted = true
					} else {
						sawTop = true
					}
				}
			}
			if sawDotted != tc.dotted || sawTop != tc.top {
				t.Errorf("dotted paths %v, sections %v; want %v, %v", sawDotted, sawTop, tc.dotted, tc.top)
			}
		})
	}
}

// TestLegacyDiscoveryPolicy: the v0.1 index and its SKILL.md copies come
// and go together, and the OpenAPI description lists the index only when
// it is there.
func TestLegacyDiscoveryPolicy(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), catalogTxtar)
	for _, tc := range []struct {
		setting string
		want    bool
	}{{"true", true}, {"false", false}, {"auto", true}, {"", true}} {
		t.Run(tc.setting, func(t *testing.T) {
			info, err := siteinfo.New("Test skills", "/")
			if err != nil {
				t.Fatal(err)
			}
			info.LegacyDiscovery = tc.setting
			dir := filepath.Join(t.TempDir(), "public")
			opt := build.Options{LoadOptions: build.LoadOptions{Sources: []string{src}}, Output: dir, Site: info}
			res, err := build.Build(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := exists(dir, api.LegacySkillsPath); got != tc.want {
				t.Errorf("%s written: %v, want %v", api.LegacySkillsPath, got, tc.want)
			}
			copies := 0
			for _, s := range res.Catalog.Skills {
				if exists(dir, ".well-known/skills/"+s.Name+"/SKILL.md") {
					copies++
				}
			}
			if (copies > 0) != tc.want {
				t.Errorf("%d SKILL.md copies under .well-known/skills/, want them: %v", copies, tc.want)
			}
			if got := strings.Contains(string(read(t, dir, api.OpenAPIPath)), api.LegacySkillsPath); got != tc.want {
				t.Errorf("openapi.json lists %s: %v, want %v", api.LegacySkillsPath, got, tc.want)
			}
		})
	}
}

// TestSkillJSONListsFiles: NAME.json lists every file of the skill with
// its size in bytes and its URL on the site. A file whose name no
// archive or site can hold is left out of the skill with a warning: the
// build goes on.
func TestSkillJSONListsFiles(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), "-- tools/SKILL.md --\n"+`---
name: tools
description: A skill with scripts, a page of its own and files whose names no archive can hold.
---
Run scripts/run.py.
-- tools/scripts/run.py --
print("hello")
-- tools/page.html --
<p>hi</p>
-- tools/odd\name.txt --
odd
`+"-- tools/bad\xffname.txt --\nbad\n")
	site, res := buildSite(t, filepath.Join(t.TempDir(), "public"), src)
	var doc struct {
		Files []struct {
			Path string `json:"path"`
			Size int64  `json:"size"`
			URL  string `json:"url"`
		} `json:"files"`
	}
	if err := json.Unmarshal(read(t, site, siteinfo.APISkill("tools")), &doc); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"SKILL.md":       "https://example.org/skills/skills/tools/SKILL.md",
		"page.html":      "https://example.org/skills/skills/tools/page.html.txt",
		"scripts/run.py": "https://example.org/skills/skills/tools/scripts/run.py",
	}
	var paths []string
	for _, f := range doc.Files {
		paths = append(paths, f.Path)
		st, err := os.Stat(filepath.Join(src, "tools", filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if f.Size != st.Size() || f.URL != want[f.Path] {
			t.Errorf("%s: %d bytes at %q, want %d at %q", f.Path, f.Size, f.URL, st.Size(), want[f.Path])
		}
	}
	if !slices.Equal(paths, []string{"SKILL.md", "page.html", "scripts/run.py"}) {
		t.Errorf("files %q", paths)
	}
	var left []string
	for _, s := range res.Catalog.Skills {
		for _, d := range s.Diagnostics {
			if d.Code == "file-name-unstorable" {
				left = append(left, d.Message)
			}
		}
	}
	if len(left) != 2 {
		t.Errorf("findings of the names left out: %q", left)
	}
}
