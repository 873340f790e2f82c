package api

import (
	"bytes"
	"encoding/json"

	"github.com/skilldex/skilldex/build/yamltree"
)

// marshal encodes v as the API's JSON files are written: two-space
// indent, a final newline, and no HTML escaping (the files are served as
// application/json and never rendered, so "<" stays readable). Every value
// passed is built by this package and encodes; an error means a bug.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// tree embeds a yamltree value (a UASP document, frontmatter) in a JSON
// file with its keys in document order, which encoding/json's maps would
// sort.
type tree struct{ v any }

// MarshalJSON encodes the tree; a value yamltree cannot encode (none that
// its decoder produces) becomes null rather than failing the whole build.
func (t tree) MarshalJSON() ([]byte, error) {
	b, err := yamltree.JSON(t.v, "")
	if err != nil {
		return []byte("null"), nil
	}
	return b, nil
}
