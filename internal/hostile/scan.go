package hostile

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// ScanOptions say what Scan allows.
type ScanOptions struct {
	// Assets is the site folder whose scripts pages may load ("assets/").
	Assets string
	// BasePath is the path the site lives under ("/" or "/repo/").
	BasePath string
	// Secrets and Markers are as in Catalog.
	Secrets, Markers []string
}

// dangerousElements may not appear in any page.
var dangerousElements = map[atom.Atom]bool{
	atom.Iframe: true, atom.Object: true, atom.Embed: true, atom.Base: true, atom.Frame: true,
	atom.Frameset: true, atom.Applet: true,
}

// urlAttrs hold URLs that a browser follows or loads.
var urlAttrs = map[string]bool{
	"href": true, "src": true, "action": true, "formaction": true, "data": true, "poster": true,
	"background": true, "srcset": true, "xlink:href": true, "cite": true, "ping": true, "manifest": true,
}

// scriptScheme matches a URL that runs or renders script once the browser
// has decoded entities and dropped the blanks and controls it ignores.
var scriptScheme = regexp.MustCompile(`(?i)^(javascript|vbscript|data|livescript|mocha):`)

// activeExt are output file types a browser renders as a document.
var activeExt = map[string]bool{
	".html": true, ".htm": true, ".xhtml": true, ".xht": true, ".shtml": true, ".svg": true, ".svgz": true,
	".xml": true, ".xsl": true, ".xslt": true, ".mht": true, ".mhtml": true,
}

// Scan inspects a built site for anything that could run script or leak
// a secret, and returns one line per problem:
//
//   - in every .html page: a script element other than an external one
//     from the site's own assets, an on* or style attribute, a script,
//     data or vbscript URL in a URL attribute, an iframe, object, embed,
//     base, frame, applet, inline svg or math element, a meta refresh;
//   - .svg and .xml files that hold script, event handlers or
//     xml-stylesheet instructions, or that are not ones the site makes;
//   - files of an active type (.html .htm .xhtml .svg .xml ...) that the
//     site does not make itself: only index.html and 404.html pages,
//     sitemap.xml, feed.xml and the assets' .svg icons are allowed, and
//     none may hold a Marker;
//   - a secret anywhere, in any file or any entry of a ZIP archive.
func Scan(dir string, opt ScanOptions) ([]string, error) {
	if opt.Assets == "" {
		opt.Assets = "assets/"
	}
	if opt.BasePath == "" {
		opt.BasePath = "/"
	}
	var problems []string
	bad := func(file, format string, args ...any) {
		problems = append(problems, file+": "+fmt.Sprintf(format, args...))
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.Type()&fs.ModeSymlink != 0 {
			bad(rel, "is a symbolic link")
			return nil
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, s := range opt.Secrets {
			if bytes.Contains(data, []byte(s)) {
				bad(rel, "holds the secret %q", s)
			}
		}
		ext := strings.ToLower(path.Ext(rel))
		base := path.Base(rel)
		if ext == ".skill" || ext == ".zip" {
			for _, m := range zipSecrets(data, opt.Secrets) {
				bad(rel, "%s", m)
			}
		}
		if !activeExt[ext] {
			return nil
		}
		for _, m := range opt.Markers {
			if bytes.Contains(data, []byte(m)) {
				bad(rel, "holds a skill's own active file (marker %q)", m)
			}
		}
		switch {
		case ext == ".html" && (base == "index.html" || rel == "404.html"):
			for _, m := range scanHTML(data, opt) {
				bad(rel, "%s", m)
			}
		case ext == ".svg" && strings.HasPrefix(rel, opt.Assets):
			for _, m := range scanXML(data) {
				bad(rel, "%s", m)
			}
		case ext == ".xml" && !strings.Contains(rel, "/"):
			for _, m := range scanXML(data) {
				bad(rel, "%s", m)
			}
		default:
			bad(rel, "a %s file the site did not make is published under an active extension", ext)
		}
		return nil
	})
	slices.Sort(problems)
	return problems, err
}

// zipSecrets looks for secrets in the entries of a ZIP archive.
func zipSecrets(data []byte, secrets []string) []string {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil
	}
	var out []string
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(io.LimitReader(rc, 64<<20))
		rc.Close()
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) || strings.Contains(f.Name, s) {
				out = append(out, fmt.Sprintf("archive entry %s holds the secret %q", f.Name, s))
			}
		}
	}
	return out
}

// scanXML finds script in an SVG or XML file: script, foreignObject and
// iframe elements, event handler attributes, script URLs, stylesheet
// processing instructions, and, in Atom text constructs of type html or
// xhtml (which feed readers render), live markup in the text.
func scanXML(data []byte) []string {
	var out []string
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = false
	dec.Entity = xml.HTMLEntity
	htmlText := 0 // depth inside an element of type html
	var text strings.Builder
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return append(out, "does not parse as XML: "+err.Error())
		}
		switch t := tok.(type) {
		case xml.ProcInst:
			if strings.EqualFold(t.Target, "xml-stylesheet") {
				out = append(out, "holds an <?xml-stylesheet?> instruction")
			}
		case xml.StartElement:
			switch strings.ToLower(t.Name.Local) {
			case "script", "foreignobject", "iframe", "embed", "object":
				out = append(out, "holds a <"+t.Name.Local+"> element")
			}
			for _, a := range t.Attr {
				key := strings.ToLower(a.Name.Local)
				switch {
				case strings.HasPrefix(key, "on"):
					out = append(out, fmt.Sprintf("<%s %s> event handler", t.Name.Local, key))
				case urlAttrs[key] && scriptURL(a.Value):
					out = append(out, fmt.Sprintf("<%s %s=%.60q> script URL", t.Name.Local, key, a.Value))
				case key == "type" && (a.Value == "html" || a.Value == "xhtml"):
					htmlText++
				}
			}
			if htmlText > 0 {
				htmlText++
			}
		case xml.EndElement:
			if htmlText > 0 {
				htmlText--
				if htmlText == 1 {
					htmlText = 0
					for _, m := range scanHTML([]byte(text.String()), ScanOptions{BasePath: "/", Assets: "assets/"}) {
						out = append(out, "in text of type html: "+m)
					}
					text.Reset()
				}
			}
		case xml.CharData:
			if htmlText > 0 {
				text.Write(t)
			}
		}
	}
	return out
}

// scanHTML finds live script in one page.
func scanHTML(data []byte, opt ScanOptions) []string {
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		return []string{"does not parse: " + err.Error()}
	}
	var out []string
	assets := opt.BasePath + opt.Assets
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			tag := n.Data
			if n.Namespace != "" {
				tag = n.Namespace + ":" + n.Data
			}
			if dangerousElements[n.DataAtom] || (n.Namespace == "svg" && n.Data == "foreignObject") {
				out = append(out, fmt.Sprintf("<%s> element", tag))
			}
			for _, a := range n.Attr {
				key := strings.ToLower(a.Key)
				if a.Namespace != "" {
					key = a.Namespace + ":" + key
				}
				switch {
				case strings.HasPrefix(key, "on"):
					out = append(out, fmt.Sprintf("<%s %s=%.40q> event handler", tag, key, a.Val))
				case key == "style":
					out = append(out, fmt.Sprintf("<%s style=%.40q> style attribute", tag, a.Val))
				case urlAttrs[key] && scriptURL(a.Val):
					out = append(out, fmt.Sprintf("<%s %s=%.60q> script URL", tag, key, a.Val))
				}
			}
			switch n.DataAtom {
			case atom.Script:
				src := attr(n, "src")
				if src == "" || !strings.HasPrefix(src, assets) || strings.Contains(src, "..") {
					out = append(out, fmt.Sprintf("<script src=%q> is not one of the site's own assets (%s)", src, assets))
				}
				if t := text(n); strings.TrimSpace(t) != "" {
					out = append(out, fmt.Sprintf("inline script %.60q", t))
				}
			case atom.Meta:
				if strings.EqualFold(attr(n, "http-equiv"), "refresh") {
					out = append(out, "meta refresh")
				}
			case atom.Link:
				if href := attr(n, "href"); strings.Contains(strings.ToLower(attr(n, "rel")), "import") {
					out = append(out, "link rel=import "+href)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// scriptURL reports whether a URL attribute value (entities already
// decoded by the parser) runs script: browsers drop leading blanks and
// controls, and tabs and newlines anywhere, before reading the scheme.
func scriptURL(v string) bool {
	for _, u := range strings.Split(v, ",") { // srcset lists URLs
		clean := strings.Map(func(r rune) rune {
			if r <= 0x20 || r == 0x7f {
				return -1
			}
			return r
		}, u)
		if scriptScheme.MatchString(clean) {
			return true
		}
	}
	return false
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if strings.EqualFold(a.Key, key) {
			return a.Val
		}
	}
	return ""
}

func text(n *html.Node) string {
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}
