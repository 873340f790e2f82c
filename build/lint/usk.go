package lint

import (
	"net/url"
	"path"
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/schema"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/build/spdx"
	"github.com/skilldex/skilldex/build/yamltree"
)

var (
	// semver 2.0.0, as semver.org gives it.
	semverRe     = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`)
	snakeCaseRe  = regexp.MustCompile(`^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$`)
	envVarRe     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
	agentNameRe  = regexp.MustCompile(`^[A-Za-z0-9._-]{1,80}$`)
	uskRuntimes  = []string{"python3", "node", "bash", "binary", "any"}
	uskTypes     = []string{"cli", "http"}
	callPatterns = map[string][]string{"cli": {"stdin_stdout", "args"}, "http": {"http_post"}}
)

const (
	maxExamples          = 10
	maxExamplesJSONBytes = 20 << 10
)

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// usk applies the USK v3 rules to a skill that declares spec: usk/1.0.
func (c *checker) usk() {
	s, fm := c.s, c.s.Frontmatter
	if fm.Version == "" {
		c.add(fm.KeyPos("spec"), "usk-version-missing", "a USK v3 skill needs a version; add version: 1.0.0 (stores assume 0.0.1)")
	} else if !semverRe.MatchString(fm.Version) {
		c.add(fm.ValuePos("version"), "usk-version-semver", "version %q is not a semantic version (MAJOR.MINOR.PATCH, e.g. 1.0.0)", fm.Version)
	}

	if it := fm.Interface; it == nil {
		c.add(fm.KeyPos("spec"), "usk-interface-missing", "no interface: agents cannot call the skill; add interface: {type, entry_point, runtime, call_pattern}")
	} else {
		if !contains(uskTypes, it.Type) {
			c.add(fm.ValuePos("interface", "type"), "usk-interface-type", "interface.type is %q; use cli or http", it.Type)
		}
		if it.Runtime != "" && !contains(uskRuntimes, it.Runtime) {
			c.add(fm.ValuePos("interface", "runtime"), "usk-runtime", "interface.runtime is %q; USK knows %s", it.Runtime, strings.Join(uskRuntimes, ", "))
		}
		if ok := callPatterns[it.Type]; ok != nil && it.CallPattern != "" && !contains(ok, it.CallPattern) {
			c.add(fm.ValuePos("interface", "call_pattern"), "usk-call-pattern", "interface.call_pattern %q does not suit type %s; use %s", it.CallPattern, it.Type, strings.Join(ok, " or "))
		}
		if ep := it.EntryPoint; ep != "" && it.Type != "http" {
			clean := path.Clean(strings.ReplaceAll(ep, "\\", "/"))
			switch {
			case path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") || (len(ep) > 1 && ep[1] == ':'):
				c.add(fm.ValuePos("interface", "entry_point"), "usk-entry-point-unsafe", "interface.entry_point %q leaves the package; give a path relative to the skill folder", ep)
			case !hasFile(s.Files, clean):
				c.add(fm.ValuePos("interface", "entry_point"), "usk-entry-point-missing", "interface.entry_point %q is not in the package; add the file or fix the path", ep)
			}
		}
	}

	if fm.InputSchema == nil && fm.OutputSchema == nil {
		c.add(fm.KeyPos("spec"), "usk-schema-missing", "no input_schema or output_schema: agents cannot build calls automatically")
	}
	c.jsonSchema("input_schema", fm.InputSchema)
	c.jsonSchema("output_schema", fm.OutputSchema)

	if len(fm.Capabilities) == 0 {
		c.add(fm.KeyPos("spec"), "usk-capabilities-missing", "no capabilities: agents cannot find the skill by function; add e.g. capabilities: [web_search]")
	}
	for i, cap := range fm.Capabilities {
		if !snakeCaseRe.MatchString(cap) {
			c.add(c.itemPos("capabilities", i), "usk-capability-format", "capability %q is not snake_case; write %q", cap, snake(cap))
		}
	}
	if fm.Permissions == nil {
		c.add(fm.KeyPos("spec"), "usk-permissions-missing", "no permissions: declare network, filesystem, subprocess and env_vars so that platforms can decide whether to install it")
	} else {
		for i, v := range fm.Permissions.EnvVars {
			if !envVarRe.MatchString(v) {
				c.add(fm.ValuePos("permissions", "env_vars", itoa(i)), "usk-env-var-name", "environment variable %q is not a valid name (letters, digits, underscores)", v)
			}
		}
	}
	if len(fm.PlatformCompatibility) == 0 {
		c.add(fm.KeyPos("spec"), "usk-platform-compatibility-missing", "no platform_compatibility; add platform_compatibility: [any] when the skill runs anywhere")
	}
	if fm.License != "" && !spdx.Valid(fm.License) {
		if id := spdx.Normalize(fm.License); id != spdx.Other {
			c.add(fm.ValuePos("license"), "usk-license-spdx", "license %q is not an SPDX identifier; write %s", fm.License, id)
		} else {
			c.add(fm.ValuePos("license"), "usk-license-spdx", "license %q is not an SPDX identifier (e.g. MIT, Apache-2.0)", fm.License)
		}
	}
	if fm.Homepage != "" {
		if u, err := url.Parse(fm.Homepage); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			c.add(fm.ValuePos("homepage"), "usk-homepage-url", "homepage %q is not an http(s) URL", fm.Homepage)
		}
	}
	c.examples()
	c.authorAgent()
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

func (c *checker) itemPos(key string, i int) diag.Pos {
	fm := c.s.Frontmatter
	if n := fm.Value(key); n != nil && n.Kind == yaml.SequenceNode {
		return fm.ValuePos(key, itoa(i))
	}
	return fm.ValuePos(key)
}

func hasFile(files []source.File, p string) bool {
	for _, f := range files {
		if f.Path == p {
			return true
		}
	}
	return false
}

func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			if i > 0 {
				b.WriteByte('_')
			}
			b.WriteRune(r + 'a' - 'A')
		case r == '-' || r == ' ' || r == '.':
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
	}
	return strings.Trim(strings.ReplaceAll(b.String(), "__", "_"), "_")
}

// jsonSchema checks that a USK schema compiles as draft-07 and that its
// properties say what they are.
func (c *checker) jsonSchema(key string, m *yamltree.Map) {
	if m == nil {
		return
	}
	fm := c.s.Frontmatter
	if _, err := schema.Compile(key, m); err != nil {
		c.add(fm.ValuePos(key), "usk-schema-invalid", "%s is not valid JSON Schema draft-07: %s", key, schema.CompileProblem(err))
		return
	}
	props, _ := m.Get("properties")
	pm, _ := props.(*yamltree.Map)
	for name, v := range pm.All() {
		p, ok := v.(*yamltree.Map)
		if !ok {
			continue
		}
		if d, _ := p.Get("description"); d == nil || d == "" {
			c.add(fm.ValuePos(key, "properties", name), "usk-schema-description", "%s property %q has no description; agents read it to fill the field", key, name)
		}
	}
}

func (c *checker) examples() {
	fm := c.s.Frontmatter
	if len(fm.Examples) > maxExamples {
		c.add(fm.ValuePos("examples", itoa(maxExamples)), "usk-examples-too-many", "%d examples; stores keep only the first %d", len(fm.Examples), maxExamples)
	}
	if v, ok := fm.Data.Get("examples"); ok {
		if b, err := yamltree.JSON(v, ""); err == nil && len(b) > maxExamplesJSONBytes {
			c.add(fm.KeyPos("examples"), "usk-examples-too-large", "the examples are %d bytes as JSON, more than %d; stores keep only the first 5", len(b), maxExamplesJSONBytes)
		}
	}
	for i, ex := range fm.Examples {
		pos := fm.ValuePos("examples", itoa(i))
		switch {
		case !ex.HasInput || !ex.HasOutput:
			c.add(pos, "usk-example-invalid", "example %d needs both input and output", i+1)
		case utf8.RuneCountInString(ex.Name) > 100:
			c.add(pos, "usk-example-invalid", "example %d: name is longer than 100 characters", i+1)
		case utf8.RuneCountInString(ex.Description) > 500:
			c.add(pos, "usk-example-invalid", "example %d: description is longer than 500 characters", i+1)
		}
	}
}

func (c *checker) authorAgent() {
	fm := c.s.Frontmatter
	a := fm.AuthorAgent
	if a == nil {
		return
	}
	pos := fm.ValuePos("author_agent")
	switch {
	case !agentNameRe.MatchString(a.Name):
		c.add(pos, "usk-author-agent-invalid", "author_agent.name must be 1-80 characters of letters, digits, '.', '_' and '-'")
	case a.Provider != "" && utf8.RuneCountInString(a.Provider) > 40:
		c.add(pos, "usk-author-agent-invalid", "author_agent.provider must be at most 40 characters")
	case a.SessionIDHash != "" && (!strings.HasPrefix(a.SessionIDHash, "sha256:") || len(a.SessionIDHash) > 128):
		c.add(pos, "usk-author-agent-invalid", "author_agent.session_id_hash must start with sha256: and be at most 128 characters (never the raw session id)")
	case a.BuiltAt != "" && !isISO8601(a.BuiltAt):
		c.add(pos, "usk-author-agent-invalid", "author_agent.built_at %q is not an ISO 8601 date-time", a.BuiltAt)
	}
}

func isISO8601(s string) bool {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02"} {
		if _, err := time.Parse(layout, s); err == nil {
			return true
		}
	}
	return false
}
