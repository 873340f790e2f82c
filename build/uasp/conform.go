package uasp

import (
	"math/big"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/yamltree"
)

// conforms reports that doc certainly conforms to the UASP schema (with
// the errata): it walks the shapes skilldex's own documents take (derived
// ones: meta, triggers, constraints, decisions, commands, workflows,
// templates, environment, sources, with the fields the deriver writes) and
// checks each value as the schema would. Whatever it does not know (other
// sections or fields, values of other types, a URL with a colon in its
// host) makes it answer false, and Validate then asks the validator: so
// Validate's answer is the validator's for every document, and a derived
// document, which the validator accepts, is spared its cost (converting
// the tree and walking the compiled schema cost more than deriving the
// rules did).
func conforms(doc any) bool {
	root, ok := doc.(*yamltree.Map)
	return ok && documentShape.test(root)
}

// shape is what the schema asks of a mapping: the keys it must hold, and a
// test of the value of each key it may hold (skilldex's documents hold no
// other).
type shape struct {
	required []string
	fields   map[string]func(any) bool
}

func (sh *shape) test(v any) bool {
	m, ok := v.(*yamltree.Map)
	if !ok || m == nil {
		return false
	}
	for _, k := range sh.required {
		if !m.Has(k) {
			return false
		}
	}
	for k, x := range m.All() {
		test := sh.fields[k]
		if test == nil || !test(x) {
			return false
		}
	}
	return true
}

// valuesOf returns a test of a mapping whose every value passes test (the
// schema's additionalProperties).
func valuesOf(test func(any) bool) func(any) bool {
	return func(v any) bool {
		m, ok := v.(*yamltree.Map)
		if !ok || m == nil {
			return false
		}
		for _, x := range m.All() {
			if !test(x) {
				return false
			}
		}
		return true
	}
}

// listOf returns a test of a list whose every item passes test.
func listOf(test func(any) bool) func(any) bool {
	return func(v any) bool {
		l, ok := v.([]any)
		if !ok {
			return false
		}
		for _, x := range l {
			if !test(x) {
				return false
			}
		}
		return true
	}
}

// isText is the schema's {"type": "string"} for the values skilldex
// writes: a Go string (a date, which the validator also reads as text, is
// left to it).
func isText(v any) bool {
	_, ok := v.(string)
	return ok
}

// isTextOrNull is EnvironmentVar's default with its erratum.
func isTextOrNull(v any) bool { return v == nil || isText(v) }

func isBool(v any) bool {
	_, ok := v.(bool)
	return ok
}

// isAny is the schema's {}: any value the validator can read, which is
// any yamltree value (schema.Instance converts each of these).
func isAny(v any) bool {
	switch x := v.(type) {
	case nil, bool, string, int, int64, float64, *big.Int:
		return true
	case []any:
		for _, e := range x {
			if !isAny(e) {
				return false
			}
		}
		return true
	case *yamltree.Map:
		if x == nil {
			return false
		}
		for _, e := range x.All() {
			if !isAny(e) {
				return false
			}
		}
		return true
	}
	return false
}

var metaTypes = map[string]bool{"knowledge": true, "cli": true, "api": true, "hybrid": true}

// isMetaName reports that v is text matching ^[a-z][a-z0-9-]*$.
func isMetaName(v any) bool {
	s, ok := v.(string)
	if !ok || s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func isMetaType(v any) bool {
	s, ok := v.(string)
	return ok && metaTypes[s]
}

// isDescription is meta.description: text of at most 500 code points (the
// validator's maxLength counts as utf8.RuneCountInString does).
func isDescription(v any) bool {
	s, ok := v.(string)
	return ok && utf8.RuneCountInString(s) <= 500
}

// isURI is the validator's format "uri" (which draft-07 schemas assert):
// text net/url parses, absolute. A host with a colon, which the validator
// checks as an IPv6 address, is left to it.
func isURI(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && !strings.Contains(u.Hostname(), ":") && u.IsAbs()
}

// The shapes, after the schema's definitions of the same names.
var (
	isTexts = listOf(isText)

	argumentShape = &shape{[]string{"name", "type"}, map[string]func(any) bool{
		"name": isText, "type": isText, "required": isBool, "default": isAny, "description": isText}}
	flagShape = &shape{[]string{"name", "type"}, map[string]func(any) bool{
		"name": isText, "short": isText, "long": isText, "type": isText, "default": isAny,
		"purpose": isText, "env": isText}}
	variantShape = &shape{nil, map[string]func(any) bool{"syntax": isText, "purpose": isText}}
	commandShape = &shape{[]string{"syntax"}, map[string]func(any) bool{
		"syntax": isText, "description": isText, "returns": isText, "note": isText,
		"args": listOf(argumentShape.test), "flags": listOf(flagShape.test), "variants": listOf(variantShape.test)}}
	stepShape     = &shape{[]string{"cmd"}, map[string]func(any) bool{"cmd": isText, "note": isText, "optional": isBool}}
	workflowShape = &shape{[]string{"description", "steps"}, map[string]func(any) bool{
		"description": isText, "invariants": isTexts, "steps": listOf(stepShape.test), "example": isText}}
	templateShape = &shape{[]string{"description"}, map[string]func(any) bool{
		"description": isText, "usage": isText, "args": listOf(argumentShape.test), "path": isText, "inline": isText}}
	preferenceShape = &shape{[]string{"use", "over"}, map[string]func(any) bool{"use": isText, "over": isText, "when": isText}}
	decisionShape   = &shape{[]string{"when", "then"}, map[string]func(any) bool{"when": isText, "then": isText, "ref": isText}}
	envShape        = &shape{[]string{"name", "purpose"}, map[string]func(any) bool{"name": isText, "purpose": isText, "default": isTextOrNull}}
	sourceShape     = &shape{[]string{"id"}, map[string]func(any) bool{"id": isText, "url": isURI, "path": isText, "use_for": isText}}
	metaShape       = &shape{[]string{"name", "version", "type"}, map[string]func(any) bool{
		"name": isMetaName, "version": isText, "type": isMetaType, "description": isDescription}}

	documentShape = &shape{[]string{"meta"}, map[string]func(any) bool{
		"meta": metaShape.test,
		"triggers": (&shape{nil, map[string]func(any) bool{
			"keywords": isTexts, "intents": isTexts, "file_patterns": isTexts}}).test,
		"constraints": (&shape{nil, map[string]func(any) bool{
			"never": isTexts, "always": isTexts, "prefer": listOf(preferenceShape.test)}}).test,
		"decisions":   listOf(decisionShape.test),
		"commands":    valuesOf(commandShape.test),
		"workflows":   valuesOf(workflowShape.test),
		"templates":   valuesOf(templateShape.test),
		"environment": listOf(envShape.test),
		"sources":     listOf(sourceShape.test),
	}}
)
