package api

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/skilldex/skilldex/build/output"
	"github.com/skilldex/skilldex/build/siteinfo"
)

// oneLine collapses runs of white space, line breaks included, so that a
// description fits a list item or a SKILLS.md line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// linkText escapes what would end a Markdown link's text early.
var linkText = strings.NewReplacer(`\`, `\\`, `[`, `\[`, `]`, `\]`)

// linkURL keeps a URL from closing a Markdown link destination: the
// parentheses are percent-encoded, which means the same URL.
var linkURL = strings.NewReplacer("(", "%28", ")", "%29", " ", "%20")

func summary(entries []*entry, site *siteinfo.Info) string {
	if d := oneLine(site.Description); d != "" {
		return d
	}
	has := []string{"a page"}
	if site.Parts.Sources {
		has = append(has, "its SKILL.md")
	}
	if site.Parts.Markdown {
		has = append(has, "a Markdown twin")
	}
	if site.Parts.Archives {
		has = append(has, "a .skill archive")
	}
	doc := "a UASP document"
	if site.PublishesPaths() {
		doc += " answering path queries as static JSON"
	}
	has = append(has, doc)
	return fmt.Sprintf("A catalog of %d agent skills. Each has %s and %s.", len(entries), strings.Join(has[:len(has)-1], ", "), has[len(has)-1])
}

// llmsTxt is /llms.txt as llmstxt.org describes it: a title, a summary,
// and lists of links, each skill's to its Markdown twin.
func llmsTxt(entries []*entry, site *siteinfo.Info) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s\n\n> %s\n\n", oneLine(site.Title), summary(entries, site))
	switch {
	case site.Parts.Markdown:
		b.WriteString("Every skill below links to its page as Markdown. ")
	case site.Parts.Sources:
		b.WriteString("Every skill below links to its SKILL.md (a skill made of a UASP document alone, to its page). ")
	default:
		b.WriteString("Every skill below links to its page. ")
	}
	if site.PublishesPaths() {
		b.WriteString("Query a skill's UASP document without downloading it whole: " +
			"api/v1/skills/NAME/paths.json lists the static answers, one JSON file per path (NAME:PATH is api/v1/skills/NAME/PATH.json).\n\n")
	} else {
		b.WriteString("A skill's whole UASP document, every query path's answer in it, is api/v1/skills/NAME.json.\n\n")
	}
	b.WriteString("## Skills\n\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "- [%s](%s)", linkText.Replace(e.name), linkURL.Replace(cmp.Or(e.urls.Markdown, e.urls.SkillMD, e.urls.Page)))
		if d := oneLine(e.description); d != "" {
			b.WriteString(": " + d)
		}
		b.WriteByte('\n')
	}
	b.WriteString("\n## API\n\n")
	for _, l := range []struct{ name, path, what string }{
		{"Skill index", IndexPath, "every skill with its type, version, status, tags and URLs"},
		{"Session manifest", ManifestPath, "the UASP session manifest (name, version, type, description of each skill)"},
		{"OpenAPI", OpenAPIPath, "OpenAPI 3.1 description of these static endpoints"},
		{"Agent Skills discovery", AgentSkillsPath, "discovery index v0.2.0, with SHA-256 digests"},
		{"Available skills", PromptPath, "the <available_skills> block for a system prompt"},
	} {
		fmt.Fprintf(&b, "- [%s](%s): %s\n", l.name, linkURL.Replace(site.URL(l.path)), l.what)
	}
	b.WriteString("\n## Optional\n\n")
	if site.Parts.Markdown {
		fmt.Fprintf(&b, "- [Full text](%s): every skill's Markdown in one file\n", linkURL.Replace(site.URL(LLMSFullPath)))
	}
	fmt.Fprintf(&b, "- [SKILLS.md](%s): the catalog as SkillBag lines, name: description\n", linkURL.Replace(site.URL(SkillsCatalogPath)))
	return b.Bytes()
}

// writeLLMSFull writes /llms-full.txt: the title and summary, then every
// skill's Markdown twin as served, in name order. It is streamed, not
// built in memory: for 10,000 skills it is 60 MB, and building it was the
// largest single allocation of the build.
//
// It is an output group keyed by its header and the twins' digests, so
// that a rebuild in which no twin changed keeps it without reading them.
func writeLLMSFull(out *output.Writer, entries []*entry, site *siteinfo.Info) error {
	header := fmt.Sprintf("# %s\n\n> %s\n", oneLine(site.Title), summary(entries, site))
	h := sha256.New()
	fmt.Fprintf(h, "llms-full-1\x00%d\x00%s", len(header), header)
	for _, e := range entries {
		sum, err := out.Digest(siteinfo.SkillMarkdown(e.name))
		if err != nil {
			return err
		}
		h.Write(sum[:])
	}
	g, reused, err := out.Group("catalog:llms-full", hex.EncodeToString(h.Sum(nil)))
	if err != nil || reused {
		return err
	}
	f, err := g.Create(LLMSFullPath)
	if err != nil {
		return err
	}
	b := bufio.NewWriterSize(f, 64<<10)
	b.WriteString(header)
	for _, e := range entries {
		b.WriteByte('\n')
		// bufio.Writer reads the twin straight into its buffer.
		if err := out.CopyFile(b, siteinfo.SkillMarkdown(e.name)); err != nil {
			f.Close()
			return err
		}
	}
	err = b.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// skillsCatalog is SKILLS.md: the catalog in the form of a SkillBag
// .skills/SKILLS.md, one "name: description" line per skill, sorted, so
// that a SkillBag workspace (or an agent) can read the site's skills the
// way it reads its own.
func skillsCatalog(entries []*entry) []byte {
	var b bytes.Buffer
	b.WriteString("# Skills\n\n")
	for _, e := range entries {
		fmt.Fprintf(&b, "%s: %s\n", e.name, oneLine(e.description))
	}
	return b.Bytes()
}
