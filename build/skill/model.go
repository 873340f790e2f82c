// Package skill is the skill model and its parsing: a SKILL.md split into
// YAML frontmatter and Markdown body (positions kept for every field), the
// Agent Skills and USK v3 fields typed, unknown fields kept, and the name
// and description of a UASP document that stands alone.
package skill

import (
	"go.yaml.in/yaml/v3"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/build/yamltree"
)

// Format says what a skill was written as.
type Format string

const (
	// AgentSkills is a SKILL.md as the Agent Skills spec defines it.
	AgentSkills Format = "skill-md"
	// USK is a SKILL.md declaring spec: usk/1.0 (USK v3).
	USK Format = "usk"
	// UASP is a NAME.uasp.yaml document with no SKILL.md.
	UASP Format = "uasp"
)

// Label is the format as people read it.
func (f Format) Label() string {
	switch f {
	case AgentSkills:
		return "SKILL.md"
	case USK:
		return "USK v3"
	case UASP:
		return "UASP"
	}
	return string(f)
}

// Skill is one parsed skill.
type Skill struct {
	*source.Input

	// Name is the skill's name, trimmed and NFKC-normalised as the Agent
	// Skills reference validator compares it; "" when there is no usable
	// name. RawName is the name as written.
	Name, RawName string
	Description   string
	Format        Format

	// Source is SKILL.md exactly as read (nil when there is none); Doc is
	// its normalised, split form.
	Source []byte
	Doc    *Document
	// Frontmatter is nil when there is no SKILL.md or it could not be read.
	Frontmatter *Frontmatter
	// Body is the Markdown after the frontmatter, LF line endings; BodyLine
	// is the line in SKILL.md where it starts.
	Body     []byte
	BodyLine int

	// UASPSource is the UASP document as read; UASPNode and UASPValue its
	// parse (nil when absent or unreadable).
	UASPSource []byte
	UASPNode   *yaml.Node
	UASPValue  any

	// Parameters and Dependencies are SkillBag declarations, from the
	// frontmatter or from yaml blocks in the body.
	Parameters   *Parameters
	Dependencies []Dependency

	// Diagnostics found while parsing.
	Diagnostics []diag.Diagnostic
}

// Frontmatter is the YAML header of a SKILL.md.
type Frontmatter struct {
	// Node is the YAML mapping; Line offsets its positions to SKILL.md.
	Node *yaml.Node
	// Data holds every field typed as PyYAML types it, in order, including
	// fields skilldex does not know.
	Data *yamltree.Map
	// lineOffset converts YAML lines to SKILL.md lines.
	lineOffset int

	// Agent Skills fields.
	Name, Description string
	License           string
	Compatibility     string
	Metadata          *yamltree.Map
	AllowedTools      []string

	// USK v3 fields.
	Spec                  string
	Version               string
	Interface             *Interface
	InputSchema           *yamltree.Map
	OutputSchema          *yamltree.Map
	Capabilities          []string
	Permissions           *Permissions
	Category              string
	Tags                  []string
	Author                string
	Homepage              string
	PlatformCompatibility []string
	Requirements          *Requirements
	Changelog             string
	Examples              []Example
	AuthorAgent           *AuthorAgent

	// Unknown lists the top-level keys that no spec skilldex implements
	// defines, in document order. Their values stay in Data.
	Unknown []string
}

// Interface says how an agent calls a USK skill.
type Interface struct {
	Type        string // cli | http
	EntryPoint  string
	Runtime     string // python3 | node | bash | binary | any
	CallPattern string // stdin_stdout | args | http_post
}

// Permissions declare what a USK skill accesses.
type Permissions struct {
	Network, Filesystem, Subprocess bool
	EnvVars                         []string
}

// Requirements are a USK skill's runtime dependencies.
type Requirements struct {
	PythonPackages []string
	NodePackages   []string
	MinPython      string
	MinNode        string
}

// Example is one input/output pair of a USK skill.
type Example struct {
	Name        string
	Description string
	Input       any
	Output      any
	HasInput    bool
	HasOutput   bool
	Tags        []string
}

// AuthorAgent records the AI agent that wrote a USK skill.
type AuthorAgent struct {
	Name          string
	Provider      string
	SessionIDHash string
	BuiltAt       string
}

// Parameters are a SkillBag skill's declared inputs.
type Parameters struct {
	Required []Parameter
	Optional []Parameter
	// File and Pos locate the declaration.
	Pos diag.Pos
}

// Parameter is one declared input.
type Parameter struct {
	Name       string
	Default    any
	HasDefault bool
	Pos        diag.Pos
}

// Dependency is a skill another skill needs.
type Dependency struct {
	Name     string
	Source   string
	Version  string
	Required bool
	Pos      diag.Pos
}

// Pos converts the position of a frontmatter node to a SKILL.md position.
func (fm *Frontmatter) Pos(n *yaml.Node) diag.Pos {
	if n == nil {
		return diag.Pos{Line: fm.lineOffset, Column: 1}
	}
	return diag.Pos{Line: n.Line + fm.lineOffset, Column: n.Column}
}

// KeyPos returns the position of a top-level key, or of the frontmatter's
// first line when the key is absent.
func (fm *Frontmatter) KeyPos(key string) diag.Pos {
	k, _ := yamltree.MapEntry(fm.Node, key)
	if k == nil {
		return diag.Pos{Line: fm.lineOffset + 1, Column: 1}
	}
	return fm.Pos(k)
}

// ValuePos returns the position of the value at path (keys and indexes),
// or of the deepest node on the way.
func (fm *Frontmatter) ValuePos(path ...string) diag.Pos {
	n, _ := yamltree.Lookup(fm.Node, path)
	return fm.Pos(n)
}

// Value returns the node at path, or nil.
func (fm *Frontmatter) Value(path ...string) *yaml.Node {
	n, ok := yamltree.Lookup(fm.Node, path)
	if !ok {
		return nil
	}
	return n
}

// LineOffset is what to add to a line of Node to get the SKILL.md line.
func (fm *Frontmatter) LineOffset() int { return fm.lineOffset }
