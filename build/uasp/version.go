package uasp

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/skilldex/skilldex/build/yamltree"
)

// ContentVersion computes a document's version as uasp.md section 3.3
// defines it: the first 8 hex digits of the SHA-256 of
// json.dumps(doc without meta.version, sort_keys=True, separators=(',', ':')),
// byte for byte what the spec's Python computes for the same YAML read with
// PyYAML's safe_load.
//
// Where that Python fails, skilldex still gives a version: a document
// without a meta mapping is hashed whole, and a date (which json.dumps
// cannot encode) is hashed as the text written.
func ContentVersion(root *yamltree.Map) string {
	c := yamltree.Clone(root).(*yamltree.Map)
	if meta, ok := c.Get("meta"); ok {
		if m, ok := meta.(*yamltree.Map); ok {
			m.Delete("version")
		}
	}
	return hashJSON(c)
}

// hashJSON returns the first 8 hex digits of the SHA-256 of v's
// PythonJSON.
func hashJSON(v any) string {
	b, err := yamltree.PythonJSON(v)
	if err != nil {
		// A yamltree value always encodes; a tree built by hand with another
		// type is a programming error, and hashing the error text keeps the
		// result deterministic rather than panicking.
		b = []byte(err.Error())
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])[:8]
}
