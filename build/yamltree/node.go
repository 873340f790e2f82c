package yamltree

import (
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Lookup follows path (mapping keys and sequence indexes, as in a JSON
// Pointer) from n and returns the node found, or the deepest node reached
// on the way, so that a position can always be given.
func Lookup(n *yaml.Node, path []string) (found *yaml.Node, exact bool) {
	cur := n
	for _, seg := range path {
		if cur == nil {
			return nil, false
		}
		for cur.Kind == yaml.AliasNode && cur.Alias != nil {
			cur = cur.Alias
		}
		switch cur.Kind {
		case yaml.DocumentNode:
			if len(cur.Content) == 0 {
				return cur, false
			}
			cur = cur.Content[0]
			return Lookup(cur, path)
		case yaml.MappingNode:
			_, v := MapEntry(cur, seg)
			if v == nil {
				return cur, false
			}
			cur = v
		case yaml.SequenceNode:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(cur.Content) {
				return cur, false
			}
			cur = cur.Content[i]
		default:
			return cur, false
		}
	}
	return cur, true
}

// MapEntry returns the key and value nodes of key in the mapping node m.
// When a key appears twice, the last one wins, as in PyYAML.
func MapEntry(m *yaml.Node, key string) (k, v *yaml.Node) {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key && m.Content[i].Kind == yaml.ScalarNode {
			k, v = m.Content[i], m.Content[i+1]
		}
	}
	return k, v
}
