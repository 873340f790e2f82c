package api

import (
	"bufio"
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
	"sync/atomic"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/memo"
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
func llmsTxt(c *catalog.Catalog, entries []*entry, site *siteinfo.Info) []byte {
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
			"api/v1/skills/NAME/paths.json lists the static answers, one JSON file per path, each with its URL relative to paths.json " +
			"(NAME:PATH is mostly api/v1/skills/NAME/PATH.json, but a '/' or '%' in PATH is written %2F or %25 in the file's name, and that '%' is escaped again in its URL).\n\n")
	} else {
		b.WriteString("A skill's whole UASP document, every query path's answer in it, is api/v1/skills/NAME.json.\n\n")
	}
	if len(c.Plugins) > 0 {
		llmsPlugins(&b, c, entries)
	} else {
		b.WriteString("## Skills\n\n")
		for _, e := range entries {
			llmsItem(&b, e)
		}
		b.WriteByte('\n')
	}
	b.WriteString("## API\n\n")
	for _, l := range []struct{ name, path, what string }{
		{"Skill index", IndexPath, "every skill with its type, version, status, tags and URLs"},
		{"Session manifest", ManifestPath, "the UASP session manifest (name, version, type, description of each skill)"},
		{"OpenAPI", OpenAPIPath, "OpenAPI 3.1 description of these static endpoints"},
		{"Agent Skills discovery", AgentSkillsPath, "discovery index v0.2.0, with SHA-256 digests"},
		{"Available skills", PromptPath, "the <available_skills> block for a system prompt"},
	} {
		if l.path == PromptPath && len(c.AllPlugins) > 0 {
			fmt.Fprintf(&b, "- [Plugins](%s): every plugin of the catalog's marketplaces, its skills and install commands\n", linkURL.Replace(site.URL(PluginsPath)))
		}
		fmt.Fprintf(&b, "- [%s](%s): %s\n", l.name, linkURL.Replace(site.URL(l.path)), l.what)
	}
	b.WriteString("\n## Optional\n\n")
	if site.Parts.Markdown {
		fmt.Fprintf(&b, "- [Full text](%s): every skill's Markdown in one file\n", linkURL.Replace(site.URL(LLMSFullPath)))
	}
	fmt.Fprintf(&b, "- [SKILLS.md](%s): the catalog as SkillBag lines, name: description\n", linkURL.Replace(site.URL(SkillsCatalogPath)))
	return b.Bytes()
}

// llmsItem is a skill's line of llms.txt, linking its Markdown.
func llmsItem(b *bytes.Buffer, e *entry) {
	fmt.Fprintf(b, "- [%s](%s)", linkText.Replace(e.name), linkURL.Replace(cmp.Or(e.urls.Markdown, e.urls.SkillMD, e.urls.Page)))
	if d := oneLine(e.description); d != "" {
		b.WriteString(": " + d)
	}
	b.WriteByte('\n')
}

// writeLLMSFull writes /llms-full.txt: the title and summary, then every
// skill's Markdown twin as served, in name order. It is streamed, not
// built in memory: it grows with the catalog, a few kilobytes a skill.
//
// It is an output group keyed by its header and the twins' digests, so
// that a rebuild in which no twin changed keeps it without reading them.
// In a rebuild in which some did (serve), the twins that did not change
// are copied from the previous llms-full.txt, a few long runs of it,
// rather than from a file each: the memo holds where each twin was in
// that file, keyed by the file's digest.
// llmsFullLinks tells the reader of llms-full.txt how to follow a
// skill's relative links.
const llmsFullLinks = "Each skill below starts with a YAML summary. A relative link in a skill's text (references/guide.md) is relative to the skill's page, the summary's page: resolve it against that URL."

func writeLLMSFull(out *output.Writer, entries []*entry, site *siteinfo.Info, m *memo.Memo) error {
	// The twins are joined byte for byte: a skill's relative links are
	// relative to its own folder, which its summary names.
	header := fmt.Sprintf("# %s\n\n> %s\n\n%s\n", oneLine(site.Title), summary(entries, site), llmsFullLinks)
	h := sha256.New()
	fmt.Fprintf(h, "llms-full-1\x00%d\x00%s", len(header), header)
	digests := make([][32]byte, len(entries))
	for i, e := range entries {
		var err error
		if digests[i], err = out.Digest(siteinfo.SkillMarkdown(e.name)); err != nil {
			return err
		}
		h.Write(digests[i][:])
	}
	g, reused, err := out.Group("catalog:llms-full", hex.EncodeToString(h.Sum(nil)))
	if err != nil {
		return err
	}
	prevName, prevDigest, hasPrev := out.PreviousFile(LLMSFullPath)
	var prev *llmsLayout
	if hasPrev {
		// Looked up even when the file is kept: the lookup keeps the
		// layout for the next build, in which a twin may change.
		prev, _ = memo.Lookup[*llmsLayout](m, llmsLayoutKey(prevDigest))
	}
	if reused {
		return nil
	}
	var prevFile *os.File
	if prev != nil {
		// The layout is of the file the previous build committed; a file
		// of another size is not that file, and nothing is copied from it.
		if prevFile, err = os.Open(prevName); err == nil {
			defer prevFile.Close()
			if st, err := prevFile.Stat(); err != nil || st.Size() != prev.size {
				prev = nil
			}
		} else {
			prev = nil
		}
	}
	f, err := g.Create(LLMSFullPath)
	if err != nil {
		return err
	}
	w := &countingWriter{Writer: bufio.NewWriterSize(f, 64<<10)}
	var layout *llmsLayout
	if m != nil {
		layout = &llmsLayout{twins: make(map[string]llmsSpan, len(entries))}
	}
	// run is the stretch of the previous file still to copy: twins that
	// did not change, each with the newline before it.
	var run llmsSpan
	flush := func() error {
		if run.n == 0 {
			return nil
		}
		// Counted already, twin by twin.
		n, err := w.Writer.ReadFrom(io.NewSectionReader(prevFile, run.off, run.n))
		if err == nil && n != run.n {
			err = fmt.Errorf("%s of the previous build changed while this one read it; build again", LLMSFullPath)
		}
		run = llmsSpan{}
		return err
	}
	w.WriteString(header)
	for i, e := range entries {
		off := w.n + 1 // after the newline
		if old, ok := prev.twin(e.name, digests[i]); ok {
			if run.n > 0 && run.off+run.n != old.off-1 {
				if err := flush(); err != nil {
					f.Close()
					return err
				}
			}
			if run.n == 0 {
				run.off = old.off - 1
			}
			run.n += old.n + 1
			w.n += old.n + 1
		} else {
			if err := flush(); err != nil {
				f.Close()
				return err
			}
			w.WriteByte('\n')
			twinsFromFiles.Add(1)
			// bufio.Writer reads the twin straight into its buffer.
			if err := out.CopyFile(w, siteinfo.SkillMarkdown(e.name)); err != nil {
				f.Close()
				return err
			}
		}
		if layout != nil {
			layout.twins[e.name] = llmsSpan{digest: digests[i], off: off, n: w.n - off}
		}
	}
	err = flush()
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil || layout == nil {
		return err
	}
	digest, err := out.Digest(LLMSFullPath)
	if err != nil {
		return err
	}
	layout.size = w.n
	m.Put(llmsLayoutKey(digest), layout)
	return nil
}

// twinsFromFiles counts the twins llms-full.txt copied from their own
// files rather than from the previous llms-full.txt, for tests.
var twinsFromFiles atomic.Int64

// llmsLayout says where each skill's twin is in an llms-full.txt.
type llmsLayout struct {
	twins map[string]llmsSpan // by skill name
	size  int64               // the file's
}

// llmsSpan is a twin's place in llms-full.txt and the twin's digest.
type llmsSpan struct {
	digest [32]byte
	off, n int64
}

// twin returns the place of the twin of skill name, when l has it with
// the given digest.
func (l *llmsLayout) twin(name string, digest [32]byte) (llmsSpan, bool) {
	if l == nil {
		return llmsSpan{}, false
	}
	s, ok := l.twins[name]
	return s, ok && s.digest == digest
}

// llmsLayoutKey is the memo key of the layout of the llms-full.txt whose
// SHA-256 is digest.
func llmsLayoutKey(digest [32]byte) string {
	return "api:llms-full-layout:" + hex.EncodeToString(digest[:])
}

// countingWriter counts the bytes written through it, ReadFrom included
// (so that copies into it keep bufio.Writer's ReadFrom).
type countingWriter struct {
	*bufio.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.Writer.Write(p)
	c.n += int64(n)
	return n, err
}

func (c *countingWriter) WriteString(s string) (int, error) {
	n, err := c.Writer.WriteString(s)
	c.n += int64(n)
	return n, err
}

func (c *countingWriter) WriteByte(b byte) error {
	err := c.Writer.WriteByte(b)
	if err == nil {
		c.n++
	}
	return err
}

func (c *countingWriter) ReadFrom(r io.Reader) (int64, error) {
	n, err := c.Writer.ReadFrom(r)
	c.n += n
	return n, err
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
