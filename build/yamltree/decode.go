package yamltree

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// Timestamp is a scalar PyYAML reads as a date or datetime. json.dumps
// cannot encode those, so the tree keeps the text as written.
type Timestamp string

// Limits bound the work a hostile document can cause.
type Limits struct {
	// MaxBytes is the largest document accepted.
	MaxBytes int
	// MaxDepth is the deepest nesting of mappings and sequences.
	MaxDepth int
	// MaxNodes bounds the nodes visited while expanding aliases, so that an
	// alias bomb ("billion laughs") costs nothing.
	MaxNodes int
}

// DefaultLimits suit a skill's frontmatter or a UASP document.
var DefaultLimits = Limits{MaxBytes: 4 << 20, MaxDepth: 64, MaxNodes: 200_000}

// Error is a YAML problem at a position of the document.
type Error struct {
	Line, Column int // 1-based; Column 0 when unknown
	Msg          string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	if e.Column == 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

var lineErr = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// Parse parses data as a single YAML document and returns its root node,
// or nil for an empty document. Positions in errors are 1-based; when the
// parser gives no column, the column of the first non-blank character on
// the line is used.
func Parse(data []byte, lim Limits) (*yaml.Node, error) {
	if lim.MaxBytes > 0 && len(data) > lim.MaxBytes {
		return nil, &Error{Line: 1, Column: 1, Msg: fmt.Sprintf("document is %d bytes, more than the limit of %d", len(data), lim.MaxBytes)}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil
		}
		return nil, wrapParseError(data, err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, &Error{Line: extra.Line, Column: extra.Column, Msg: "expected a single document, found another (remove the '---' line that starts it)"}
	} else if !errors.Is(err, io.EOF) {
		return nil, wrapParseError(data, err)
	}
	root := &doc
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil, nil
		}
		root = root.Content[0]
	}
	if lim.MaxDepth > 0 {
		if n := depthExceeded(root, lim.MaxDepth, 0); n != nil {
			return nil, &Error{Line: n.Line, Column: n.Column, Msg: fmt.Sprintf("nesting deeper than %d levels", lim.MaxDepth)}
		}
	}
	return root, nil
}

func depthExceeded(n *yaml.Node, max, depth int) *yaml.Node {
	if n == nil {
		return nil
	}
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		depth++
		if depth > max {
			return n
		}
		for _, c := range n.Content {
			if bad := depthExceeded(c, max, depth); bad != nil {
				return bad
			}
		}
	}
	return nil
}

func wrapParseError(data []byte, err error) error {
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if m := lineErr.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		if l := failingLine(data, m[2], max(line, 1)); l > 0 {
			line = l
		}
		col := FirstColumn(data, line)
		if unclosedProblems[m[2]] {
			if c := openerColumn(lineOf(data, line)); c > 0 {
				col = c
			}
		}
		return &Error{Line: line, Column: col, Msg: m[2] + syntaxAdvice(m[2])}
	}
	return &Error{Line: 1, Column: 1, Msg: msg}
}

// syntaxAdvice says what to change for the parser's commonest problems,
// which name the rule broken, not the fix.
func syntaxAdvice(problem string) string {
	switch {
	case problem == "mapping values are not allowed in this context":
		return " (quote a value that holds ': ', as in key: \"text: more\", and check that this line is not indented deeper than the key before it)"
	case strings.Contains(problem, "tab character"):
		return " (indent with spaces, not tabs)"
	case problem == "found character that cannot start any token":
		return " (a value starting with ` @ % or a tab must be quoted)"
	case problem == "did not find expected key":
		return " (the keys of one mapping start in the same column: check this line's indentation)"
	case problem == "did not find expected ',' or ']'":
		return " (close the list with ], or quote the text if it is no list)"
	case problem == "did not find expected ',' or '}'":
		return " (close the mapping with }, or quote the text if it is no mapping)"
	case problem == "found unexpected end of stream":
		return " (a quote or bracket opened here is not closed)"
	}
	return ""
}

// failingLine's search is bounded: it parses a prefix a line, so its cost
// is the square of the lines it tries.
const (
	maxLocateLines = 64        // lines tried after the parser's own
	maxLocateBytes = 512 << 10 // bytes parsed in all
)

// failingLine returns the first 1-based line, from the parser's line on,
// at which data's prefix fails to parse with the problem msg, or 0. The
// parser's line is that of the construct the problem is in, never after
// the problem, and for parser errors (an unclosed [, a key indented
// wrong) one less than the construct's line: a user sent to it looks at
// a line with nothing wrong. Prefixes cut before that line are not tried:
// a multi-line quote or list cut short fails with the same problem.
func failingLine(data []byte, msg string, from int) int {
	budget := maxLocateBytes
	line, end := 1, 0
	for end < len(data) {
		next := lineEnd(data, end)
		if line >= from {
			if line > from+maxLocateLines || budget < next {
				return 0
			}
			budget -= next
			var n yaml.Node
			err := yaml.NewDecoder(bytes.NewReader(data[:next])).Decode(&n)
			if err != nil && !errors.Is(err, io.EOF) {
				text := strings.TrimPrefix(err.Error(), "yaml: ")
				if m := lineErr.FindStringSubmatch(text); m != nil {
					text = m[2]
				}
				if text == msg {
					return line
				}
			}
		}
		end = next
		line++
	}
	return 0
}

// lineEnd returns the offset just past the line break that ends the line
// starting at start (\n, \r\n or \r, as YAML counts lines), or len(data).
func lineEnd(data []byte, start int) int {
	i := bytes.IndexAny(data[start:], "\r\n")
	if i < 0 {
		return len(data)
	}
	i += start
	if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
		return i + 2
	}
	return i + 1
}

// unclosedProblems are the parser's words for a quote or a bracket that
// is not closed, which it reports at the line, not at the opener.
var unclosedProblems = map[string]bool{
	"found unexpected end of stream":   true,
	"did not find expected ',' or ']'": true,
	"did not find expected ',' or '}'": true,
}

// lineOf returns the 1-based line of data, without its line break.
func lineOf(data []byte, line int) []byte {
	start := 0
	for l := 1; l < line; l++ {
		if start = lineEnd(data, start); start >= len(data) {
			return nil
		}
	}
	return bytes.TrimRight(data[start:lineEnd(data, start)], "\r\n")
}

// openerColumn returns the 1-based column (in characters) of the first
// quote or bracket that line opens and does not close, or 0. A quote
// opens only where a value starts (at the line's start, after "- ",
// ": ", a bracket or a comma): the apostrophe of "it's" opens nothing.
func openerColumn(line []byte) int {
	column := func(i int) int { return utf8.RuneCount(line[:i]) + 1 }
	var open []int // the offsets of the brackets still open
	valueStart := true
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
		case c == '#' && (i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			i = len(line) // a comment
		case (c == '"' || c == '\'') && valueStart:
			end := closingQuote(line, i)
			if end < 0 {
				if len(open) > 0 {
					return column(open[0])
				}
				return column(i)
			}
			i, valueStart = end, false
		case (c == '[' || c == '{') && (valueStart || len(open) > 0):
			open = append(open, i)
			valueStart = true
		case (c == ']' || c == '}') && len(open) > 0:
			open = open[:len(open)-1]
			valueStart = false
		case c == ',' && len(open) > 0:
			valueStart = true
		case c == ':' && (i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t'):
			valueStart = true
		case c == '-' && valueStart && (i+1 == len(line) || line[i+1] == ' '):
		default:
			valueStart = false
		}
	}
	if len(open) > 0 {
		return column(open[0])
	}
	return 0
}

// closingQuote returns the offset of the quote that closes the one at
// line[i], or -1: a double-quoted scalar escapes with a backslash, a
// single-quoted one doubles the quote.
func closingQuote(line []byte, i int) int {
	q := line[i]
	for j := i + 1; j < len(line); j++ {
		switch {
		case q == '"' && line[j] == '\\':
			j++
		case line[j] == q && q == '\'' && j+1 < len(line) && line[j+1] == '\'':
			j++
		case line[j] == q:
			return j
		}
	}
	return -1
}

// FirstColumn returns the 1-based column of the first non-blank byte on
// the 1-based line of data, or 1: where a problem the YAML decoder puts on
// a line, without a column, is shown.
func FirstColumn(data []byte, line int) int {
	i := bytes.IndexFunc(lineOf(data, line), func(r rune) bool { return r != ' ' && r != '\t' })
	if i < 0 {
		return 1
	}
	return i + 1
}

// Decoder converts nodes to values with a budget shared across calls.
type decoder struct {
	lim   Limits
	nodes int
}

// Value converts a parsed node to a tree value typed as PyYAML's safe_load
// would type it. Aliases are expanded within lim.MaxNodes.
func Value(n *yaml.Node, lim Limits) (any, error) {
	d := &decoder{lim: lim}
	return d.value(n, 0)
}

// Decode parses data and converts it, in one step.
func Decode(data []byte, lim Limits) (any, *yaml.Node, error) {
	n, err := Parse(data, lim)
	if err != nil || n == nil {
		return nil, n, err
	}
	v, err := Value(n, lim)
	return v, n, err
}

func nodeErr(n *yaml.Node, format string, args ...any) error {
	return &Error{Line: n.Line, Column: n.Column, Msg: fmt.Sprintf(format, args...)}
}

func (d *decoder) value(n *yaml.Node, depth int) (any, error) {
	d.nodes++
	if d.lim.MaxNodes > 0 && d.nodes > d.lim.MaxNodes {
		return nil, nodeErr(n, "document expands to more than %d nodes (aliases that multiply content?)", d.lim.MaxNodes)
	}
	if d.lim.MaxDepth > 0 && depth > d.lim.MaxDepth*2 {
		return nil, nodeErr(n, "nesting deeper than %d levels through aliases", d.lim.MaxDepth)
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return d.value(n.Content[0], depth)
	case yaml.AliasNode:
		if n.Alias == nil {
			return nil, nodeErr(n, "alias *%s has no anchor", n.Value)
		}
		return d.value(n.Alias, depth+1)
	case yaml.ScalarNode:
		return scalar(n)
	case yaml.SequenceNode:
		switch tag := explicitTag(n); tag {
		case "", "!!seq", "!!omap", "!!pairs":
		default:
			return nil, nodeErr(n, "tag %s is not supported on a sequence", n.Tag)
		}
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := d.value(c, depth+1)
			if err != nil {
				return nil, err
			}
			// !!omap and !!pairs hold one-entry mappings that PyYAML turns
			// into pairs; json.dumps writes a pair as a two-item list.
			if t := explicitTag(n); t == "!!omap" || t == "!!pairs" {
				if m, ok := v.(*Map); ok && m.Len() == 1 {
					v = []any{m.keyAt(0), m.valueAt(0)}
				}
			}
			out = append(out, v)
		}
		return out, nil
	case yaml.MappingNode:
		switch tag := explicitTag(n); tag {
		case "", "!!map", "!!set":
		default:
			return nil, nodeErr(n, "tag %s is not supported on a mapping", n.Tag)
		}
		return d.mapping(n, depth)
	}
	return nil, nodeErr(n, "unexpected YAML node")
}

func (d *decoder) mapping(n *yaml.Node, depth int) (*Map, error) {
	m := NewMap()
	var merges []*Map
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		if kn.Kind == yaml.ScalarNode && kn.Value == "<<" && kn.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.TaggedStyle) == 0 {
			ms, err := d.mergeSources(vn, depth)
			if err != nil {
				return nil, err
			}
			merges = append(merges, ms...)
			continue
		}
		kv, err := d.value(kn, depth+1)
		if err != nil {
			return nil, err
		}
		key, num, isNum, err := keyString(kn, kv)
		if err != nil {
			return nil, err
		}
		var v any
		if explicitTag(n) == "!!set" {
			v = nil
		} else if v, err = d.value(vn, depth+1); err != nil {
			return nil, err
		}
		m.set(key, v, numericKey{isNum, num})
	}
	// Explicit keys win over merged ones; earlier merge sources win over later.
	for _, src := range merges {
		for i := range src.entries {
			if k := src.keyAt(i); !m.Has(k) {
				m.set(k, src.valueAt(i), src.numericAt(i))
			}
		}
	}
	return m, nil
}

func (d *decoder) mergeSources(n *yaml.Node, depth int) ([]*Map, error) {
	v, err := d.value(n, depth+1)
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case *Map:
		return []*Map{x}, nil
	case []any:
		out := make([]*Map, 0, len(x))
		for _, e := range x {
			m, ok := e.(*Map)
			if !ok {
				return nil, nodeErr(n, "merge key << expects a mapping or a list of mappings")
			}
			out = append(out, m)
		}
		return out, nil
	}
	return nil, nodeErr(n, "merge key << expects a mapping or a list of mappings")
}

// keyString turns a key value into the string json.dumps would write.
func keyString(kn *yaml.Node, v any) (string, float64, bool, error) {
	switch k := v.(type) {
	case string:
		return k, 0, false, nil
	case Timestamp:
		return string(k), 0, false, nil
	case nil:
		return "null", 0, false, nil
	case bool:
		if k {
			return "true", 0, false, nil
		}
		return "false", 0, false, nil
	case int64:
		return strconv.FormatInt(k, 10), float64(k), true, nil
	case *big.Int:
		f, _ := new(big.Float).SetInt(k).Float64()
		return k.String(), f, true, nil
	case float64:
		return pyFloat(k), k, true, nil
	}
	return "", 0, false, nodeErr(kn, "a mapping key must be a scalar, not a %s", kindName(kn))
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.AliasNode:
		return "alias"
	}
	return "scalar"
}

// explicitTag returns the tag written in the document, in short form, or "".
func explicitTag(n *yaml.Node) string {
	if n.Style&yaml.TaggedStyle == 0 {
		return ""
	}
	return shortTag(n.Tag)
}

func shortTag(t string) string {
	if rest, ok := strings.CutPrefix(t, "tag:yaml.org,2002:"); ok {
		return "!!" + rest
	}
	return t
}

// PyYAML 1.1 implicit resolvers, in the order PyYAML tries them.
var (
	reBool  = regexp.MustCompile(`^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$`)
	reFloat = regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	reInt   = regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	reNull  = regexp.MustCompile(`^(?:~|null|Null|NULL|)$`)
	reTime  = regexp.MustCompile(`^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$`)
)

// Resolve types a plain (unquoted, untagged) scalar as PyYAML does.
func Resolve(s string) (any, error) {
	if s == "" {
		return nil, nil
	}
	switch c := s[0]; {
	case strings.IndexByte("yYnNtTfFoO", c) >= 0 && reBool.MatchString(s):
		return pyBool(s), nil
	}
	if strings.IndexByte("-+0123456789.", s[0]) >= 0 && reFloat.MatchString(s) {
		return pyFloatValue(s)
	}
	if strings.IndexByte("-+0123456789", s[0]) >= 0 && reInt.MatchString(s) {
		return pyInt(s)
	}
	if strings.IndexByte("~nN", s[0]) >= 0 && reNull.MatchString(s) {
		return nil, nil
	}
	if s[0] >= '0' && s[0] <= '9' && reTime.MatchString(s) {
		return Timestamp(s), nil
	}
	if s == "=" {
		return nil, errors.New("a plain '=' is YAML's value key, which PyYAML cannot load; quote it")
	}
	return s, nil
}

func pyBool(s string) bool {
	switch strings.ToLower(s) {
	case "yes", "true", "on":
		return true
	}
	return false
}

func pyInt(s string) (any, error) {
	v := strings.ReplaceAll(s, "_", "")
	sign := 1
	if v != "" && (v[0] == '-' || v[0] == '+') {
		if v[0] == '-' {
			sign = -1
		}
		v = v[1:]
	}
	n := new(big.Int)
	var ok bool
	switch {
	case v == "0":
		ok = true
	case strings.HasPrefix(v, "0b"):
		_, ok = n.SetString(v[2:], 2)
	case strings.HasPrefix(v, "0x"):
		_, ok = n.SetString(v[2:], 16)
	case strings.HasPrefix(v, "0"):
		_, ok = n.SetString(v[1:], 8)
	case strings.Contains(v, ":"):
		ok = true
		base := big.NewInt(1)
		parts := strings.Split(v, ":")
		for i := len(parts) - 1; i >= 0; i-- {
			p, err := strconv.ParseInt(parts[i], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("invalid sexagesimal integer %q", s)
			}
			n.Add(n, new(big.Int).Mul(big.NewInt(p), base))
			base.Mul(base, big.NewInt(60))
		}
	default:
		_, ok = n.SetString(v, 10)
	}
	if !ok {
		return nil, fmt.Errorf("invalid integer %q", s)
	}
	if sign < 0 {
		n.Neg(n)
	}
	if n.IsInt64() {
		return n.Int64(), nil
	}
	return n, nil
}

func pyFloatValue(s string) (any, error) {
	v := strings.ToLower(strings.ReplaceAll(s, "_", ""))
	sign := 1.0
	if v != "" && (v[0] == '-' || v[0] == '+') {
		if v[0] == '-' {
			sign = -1
		}
		v = v[1:]
	}
	switch {
	case v == ".inf":
		return sign * math.Inf(1), nil
	case v == ".nan":
		return math.NaN(), nil
	case strings.Contains(v, ":"):
		parts := strings.Split(v, ":")
		base, f := 1.0, 0.0
		for i := len(parts) - 1; i >= 0; i-- {
			p, err := strconv.ParseFloat(parts[i], 64)
			if err != nil {
				return nil, fmt.Errorf("invalid sexagesimal float %q", s)
			}
			f += p * base
			base *= 60
		}
		return sign * f, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		// ParseFloat reports overflow as ±Inf with an error; Python's float()
		// returns inf for such literals too.
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return sign * f, nil
		}
		return nil, fmt.Errorf("invalid float %q", s)
	}
	return sign * f, nil
}

func scalar(n *yaml.Node) (any, error) {
	tag := explicitTag(n)
	if tag == "" {
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
			return n.Value, nil
		}
		v, err := Resolve(n.Value)
		if err != nil {
			return nil, nodeErr(n, "%v", err)
		}
		return v, nil
	}
	var v any
	var err error
	switch tag {
	case "!!str":
		return n.Value, nil
	case "!!null":
		return nil, nil
	case "!!bool":
		switch strings.ToLower(n.Value) {
		case "yes", "true", "on", "no", "false", "off":
			return pyBool(n.Value), nil
		}
		err = fmt.Errorf("%q is not a boolean", n.Value)
	case "!!int":
		v, err = pyInt(n.Value)
	case "!!float":
		v, err = pyFloatValue(n.Value)
	case "!!timestamp":
		return Timestamp(n.Value), nil
	case "!!binary":
		err = errors.New("binary values cannot be written as JSON; store the data as a string")
	default:
		err = fmt.Errorf("tag %s is not supported (PyYAML's safe_load rejects it); remove it", n.Tag)
	}
	if err != nil {
		return nil, nodeErr(n, "%v", err)
	}
	return v, nil
}
