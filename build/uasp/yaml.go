package uasp

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/skilldex/skilldex/build/yamltree"
)

// MarshalYAML writes the document as a NAME.uasp.yaml: keys in the
// document's order (meta first, sections in the schema's order), two-space
// indentation, multi-line text as literal blocks. Every scalar is written so
// that PyYAML's safe_load reads back the same value: text that YAML 1.1
// would read as something else (yes, 1.0, 2024-01-01, null) is quoted, and
// floats always carry a dot. Reading the output back gives the same
// content, hence the same version.
func MarshalYAML(d *Document) ([]byte, error) {
	n, err := toNode(d.Root)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(n); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func toNode(v any) (*yaml.Node, error) {
	switch x := v.(type) {
	case *yamltree.Map:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for k, val := range x.All() {
			c, err := toNode(val)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, textNode(k), c)
		}
		return n, nil
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, item := range x {
			c, err := toNode(item)
			if err != nil {
				return nil, err
			}
			n.Content = append(n.Content, c)
		}
		return n, nil
	case string:
		return textNode(x), nil
	case yamltree.Timestamp:
		return plain(string(x)), nil
	case nil:
		return plain("null"), nil
	case bool:
		return plain(strconv.FormatBool(x)), nil
	case int64:
		return plain(strconv.FormatInt(x, 10)), nil
	case int:
		return plain(strconv.Itoa(x)), nil
	case *big.Int:
		return plain(x.String()), nil
	case float64:
		return plain(yamlFloat(x)), nil
	}
	return nil, fmt.Errorf("uasp: cannot write %T as YAML", v)
}

func plain(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Value: s}
}

// textNode writes a string plainly when PyYAML reads the plain form back
// as the same string, and quoted otherwise; the emitter itself quotes what
// cannot be plain at all (": ", leading "- ").
func textNode(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Value: s}
	if strings.Contains(s, "\n") {
		n.Style = yaml.LiteralStyle
		return n
	}
	if v, err := yamltree.Resolve(s); err != nil || v != any(s) || strings.TrimSpace(s) != s {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// yamlFloat writes a float that PyYAML reads back as the same float: YAML
// 1.1 wants a dot in the mantissa (1.0e+16, not 1e+16).
func yamlFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return ".nan"
	case math.IsInf(f, 1):
		return ".inf"
	case math.IsInf(f, -1):
		return "-.inf"
	}
	s := strconv.FormatFloat(f, 'g', -1, 64)
	mant, exp, hasExp := strings.Cut(s, "e")
	if !strings.Contains(mant, ".") {
		mant += ".0"
	}
	if hasExp {
		return mant + "e" + exp
	}
	return mant
}
