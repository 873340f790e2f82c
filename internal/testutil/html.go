package testutil

import (
	"bytes"
	"os"
	"testing"

	"golang.org/x/net/html"
)

// ReadHTML parses the HTML file at path, failing tb if it cannot.
func ReadHTML(tb testing.TB, path string) *html.Node {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(data))
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	return doc
}

// FindElement returns the first element below n, in document order, for
// which ok is true, or nil.
func FindElement(n *html.Node, ok func(*html.Node) bool) *html.Node {
	for d := range n.Descendants() {
		if d.Type == html.ElementNode && ok(d) {
			return d
		}
	}
	return nil
}

// ElementByID returns the element below n whose id is id, or nil.
func ElementByID(n *html.Node, id string) *html.Node {
	return FindElement(n, func(e *html.Node) bool { v, _ := Attr(e, "id"); return v == id })
}

// Attr returns the value of n's attribute key, and whether n has it.
func Attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// Text returns the text below n, as a reader sees it (and copies it).
func Text(n *html.Node) string {
	var b bytes.Buffer
	for d := range n.Descendants() {
		if d.Type == html.TextNode {
			b.WriteString(d.Data)
		}
	}
	return b.String()
}
