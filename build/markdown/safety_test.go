package markdown

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// checkSafe parses out as a browser would (inside a div in a body) and
// reports the first thing in it that a page of strangers' content must not
// have. It reads URLs the way the WHATWG URL parser does, independently of
// the package's own classify, so the two cross-check each other.
func checkSafe(out []byte) error {
	if !utf8.Valid(out) {
		return fmt.Errorf("output is not valid UTF-8")
	}
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(bytes.NewReader(out), ctx)
	if err != nil {
		return fmt.Errorf("parse: %v", err)
	}
	for _, n := range nodes {
		if err := checkNode(n); err != nil {
			return err
		}
	}
	return nil
}

var forbiddenElements = map[string]bool{
	"script": true, "iframe": true, "object": true, "embed": true, "style": true,
	"form": true, "base": true, "meta": true, "link": true, "frame": true,
	"frameset": true, "svg": true, "math": true, "template": true, "noscript": true,
	"textarea": true, "select": true, "button": true, "video": true, "audio": true,
	"source": true, "picture": true, "applet": true,
}

func checkNode(n *html.Node) error {
	if n.Type == html.ElementNode {
		if forbiddenElements[n.Data] {
			return fmt.Errorf("element <%s>", n.Data)
		}
		if n.Data == "input" && (attr(n, "type") != "checkbox" || !hasAttr(n, "disabled")) {
			return fmt.Errorf("<input> that is not a disabled checkbox")
		}
		for _, a := range n.Attr {
			k := strings.ToLower(a.Key)
			switch {
			case strings.HasPrefix(k, "on"):
				return fmt.Errorf("<%s %s=%q>: event handler", n.Data, k, a.Val)
			case k == "style":
				return fmt.Errorf("<%s style=%q>", n.Data, a.Val)
			case k == "srcset" || k == "action" || k == "formaction" || k == "xlink:href" || k == "background" || k == "poster" || k == "data":
				return fmt.Errorf("<%s %s=%q>", n.Data, k, a.Val)
			case k == "href" || k == "src":
				scheme, other := browserURL(a.Val)
				if scheme != "" && scheme != "http" && scheme != "https" && scheme != "mailto" {
					return fmt.Errorf("<%s %s=%q>: scheme %q", n.Data, k, a.Val, scheme)
				}
				if n.Data == "img" && other {
					return fmt.Errorf("<img src=%q>: another origin", a.Val)
				}
				if n.Data != "a" && n.Data != "img" {
					return fmt.Errorf("<%s %s=%q>", n.Data, k, a.Val)
				}
				if n.Data == "a" && other && !strings.Contains(attr(n, "rel"), "noopener") && !strings.HasPrefix(strings.ToLower(a.Val), "mailto:") {
					return fmt.Errorf("<a href=%q> to another origin without rel", a.Val)
				}
			}
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if err := checkNode(c); err != nil {
			return err
		}
	}
	return nil
}

// browserURL returns the scheme of u as a browser reads it (lower case, ""
// for a relative URL) and whether it leaves the page's origin.
func browserURL(u string) (scheme string, otherOrigin bool) {
	u = strings.TrimFunc(u, func(r rune) bool { return r <= ' ' })
	u = strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(u)
	if i := strings.IndexByte(u, ':'); i > 0 {
		s := u[:i]
		valid := isAlpha(s[0])
		for j := 1; j < len(s) && valid; j++ {
			valid = isAlpha(s[j]) || '0' <= s[j] && s[j] <= '9' || strings.IndexByte("+-.", s[j]) >= 0
		}
		if valid {
			return strings.ToLower(s), true
		}
	}
	if len(u) >= 2 && (u[0] == '/' || u[0] == '\\') && (u[1] == '/' || u[1] == '\\') {
		return "", true
	}
	return "", false
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}
