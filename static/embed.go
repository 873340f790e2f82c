// Package static holds the browser files every skilldex site carries: the
// stylesheet, the theme toggle, the search client (search.js and its
// DOM-free ranking core, search-core.js) and the icon. They are embedded so
// that the skilldex binary is self-contained.
package static

import "embed"

// FS holds the files, at its root.
//
//go:embed *.css *.js *.svg
var FS embed.FS
