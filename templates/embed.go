// Package templates holds the html/template files of a skilldex site,
// embedded so that the skilldex binary is self-contained. base.html is the
// layout every page shares; each other file defines the "content" of one
// kind of page. build/site executes them.
package templates

import "embed"

// FS holds the templates, at its root.
//
//go:embed *.html
var FS embed.FS
