// Package lint checks parsed skills against the rules of the specs skilldex
// implements (Agent Skills, SKILL.md, USK v3, SkillBag) and gives each skill
// its USK status. Every rule has a stable code; Rules lists them all.
//
// By default lint is lenient as real clients are: only a skill that cannot
// be read, or has no usable name or description, gets an error. With
// Options.Strict, a SKILL.md skill is invalid exactly when the Agent Skills
// reference validator (skills-ref) says so.
package lint

import (
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/plugin"
)

// Rule documents one check.
type Rule struct {
	Code     string
	Severity diag.Severity // in lenient mode
	Spec     string        // where the rule comes from
	Summary  string
	// Reference marks rules that skills-ref enforces: with --strict their
	// findings come from the emulation of skills-ref and are errors.
	Reference bool
}

// Specs named in Rule.Spec.
const (
	SpecAgentSkills = "agent-skills"
	SpecSkillMD     = "skill-md"
	SpecUSK         = "usk"
	SpecUASP        = "uasp"
	SpecSkillBag    = "skillbag"
	SpecSkilldex    = "skilldex" // safety and publishing rules of skilldex itself
	SpecPlugin      = "plugin"   // Claude Code, Codex and Cursor plugin manifests (package plugin)
)

// Rules lists every rule, by code.
var Rules = append([]Rule{
	// Reading the sources.
	{"source-unreadable", diag.Warning, SpecSkilldex, "a folder under a source cannot be read", false},
	{"file-unreadable", diag.Error, SpecSkilldex, "SKILL.md or the UASP document cannot be read", false},
	{"file-too-large", diag.Warning, SpecSkilldex, "a file is larger than the publishing limit and is left out", false},
	{"file-name-unstorable", diag.Warning, SpecSkilldex, "a file name holds a backslash or is not valid UTF-8: no archive or site can hold it, and it is left out", false},
	{"skill-too-many-files", diag.Warning, SpecSkilldex, "a skill folder has more files than the limit; the rest are left out", false},
	{"symlink-outside-skill", diag.Warning, SpecSkilldex, "a symbolic link points outside its skill and is never followed", false},
	{"symlink-broken", diag.Warning, SpecSkilldex, "a symbolic link cannot be resolved", false},
	{"archive-unreadable", diag.Error, SpecSkilldex, "an archive cannot be opened", false},
	{"archive-invalid", diag.Error, SpecUSK, "an archive is not a valid ZIP file or an entry is corrupt", false},
	{"archive-unsafe-path", diag.Error, SpecUSK, "an archive entry would land outside the skill: '..', an absolute path, a symbolic link", false},
	{"archive-too-many-files", diag.Error, SpecUSK, "an archive holds more entries than the limit (USK: 50)", false},
	{"archive-too-large", diag.Error, SpecUSK, "an archive inflates to more than the limit (USK: 5 MB)", false},
	{"archive-name-too-long", diag.Error, SpecUSK, "an archive entry name is longer than the limit (USK: 200 characters)", false},
	{"archive-duplicate-entry", diag.Error, SpecSkilldex, "an archive holds two entries with the same name", false},
	{"archive-case-conflict", diag.Warning, SpecSkilldex, "two archive entries differ only in case", false},
	{"archive-no-skill-md", diag.Error, SpecUSK, "a .skill archive has no SKILL.md at its root", false},
	{"skill-md-missing", diag.Error, SpecAgentSkills, "the skill has no SKILL.md", true},

	// SKILL.md structure.
	{"encoding-invalid-utf8", diag.Warning, SpecSkillMD, "the file is not valid UTF-8", true},
	{"frontmatter-bom", diag.Warning, SpecSkillMD, "the file starts with a byte order mark", true},
	{"frontmatter-not-first", diag.Warning, SpecSkillMD, "blank lines come before the opening ---", true},
	{"frontmatter-missing", diag.Error, SpecSkillMD, "SKILL.md does not start with YAML frontmatter", true},
	{"frontmatter-unclosed", diag.Error, SpecSkillMD, "the frontmatter is never closed with ---", true},
	{"frontmatter-dashes", diag.Warning, SpecSkillMD, "'---' inside the frontmatter, where parsers that split on the first '---' cut it", true},
	{"yaml-invalid", diag.Error, SpecSkillMD, "the frontmatter is not valid YAML", true},
	{"yaml-strict", diag.Warning, SpecAgentSkills, "YAML the reference parser (strictyaml) rejects: flow style, anchors, tags, duplicate keys, inconsistent indentation", true},
	{"frontmatter-not-mapping", diag.Error, SpecSkillMD, "the frontmatter is not a mapping of fields", true},
	{"field-type", diag.Warning, SpecSkilldex, "a field has the wrong type (text, list, mapping, boolean)", false},
	{"unknown-field", diag.Warning, SpecAgentSkills, "a frontmatter field that no implemented spec defines", true},
	{"usk-field-without-spec", diag.Info, SpecUSK, "a USK field in a skill that does not declare spec: usk/1.0", true},

	// Name and description.
	{"name-missing", diag.Error, SpecAgentSkills, "the skill has no usable name", true},
	{"name-unsafe", diag.Error, SpecSkilldex, "the name cannot be used as a path segment of the site ('/', '..', control characters)", false},
	{"name-too-long", diag.Warning, SpecAgentSkills, "the name is longer than 64 characters", true},
	{"name-pattern", diag.Warning, SpecAgentSkills, "the name is not lowercase letters, digits and single hyphens", true},
	{"name-dir-mismatch", diag.Warning, SpecAgentSkills, "the name differs from the folder that holds the skill, or from the name of its NAME.uasp.yaml file", true},
	{"name-shadowed", diag.Warning, SpecSkilldex, "another skill of the same name wins: a later source root, or a later path", false},
	{"description-missing", diag.Error, SpecAgentSkills, "the skill has no usable description", true},
	{"description-too-long", diag.Warning, SpecAgentSkills, "the description is longer than 1024 characters", true},
	{"description-short", diag.Info, SpecSkillMD, "the description is too short to say what the skill does and when to use it", false},
	{"compatibility-type", diag.Warning, SpecAgentSkills, "compatibility is not text", true},
	{"compatibility-too-long", diag.Warning, SpecAgentSkills, "compatibility is longer than 500 characters", true},
	{"metadata-type", diag.Warning, SpecAgentSkills, "metadata is not a mapping of text keys to text values", false},
	{"allowed-tools-list", diag.Info, SpecAgentSkills, "allowed-tools is a YAML list rather than space-delimited text", false},
	{"body-empty", diag.Warning, SpecSkillMD, "SKILL.md has no instructions after the frontmatter", false},
	{"body-too-long", diag.Info, SpecAgentSkills, "SKILL.md is longer than the recommended 500 lines", false},
	{"reference-missing", diag.Warning, SpecAgentSkills, "a link in SKILL.md points to a file the skill does not contain", false},

	// USK v3.
	{"usk-spec-unknown", diag.Warning, SpecUSK, "spec names a version of USK other than usk/1.0", false},
	{"usk-version-missing", diag.Warning, SpecUSK, "a USK v3 skill has no version (stores assume 0.0.1)", false},
	{"usk-version-semver", diag.Warning, SpecUSK, "version is not a semantic version", false},
	{"usk-interface-missing", diag.Info, SpecUSK, "a USK v3 skill declares no interface, so agents cannot call it", false},
	{"usk-interface-type", diag.Warning, SpecUSK, "interface.type is not cli or http", false},
	{"usk-runtime", diag.Warning, SpecUSK, "interface.runtime is not python3, node, bash, binary or any", false},
	{"usk-call-pattern", diag.Warning, SpecUSK, "interface.call_pattern does not suit interface.type", false},
	{"usk-entry-point-missing", diag.Warning, SpecUSK, "the entry point is not in the package", false},
	{"usk-entry-point-unsafe", diag.Warning, SpecUSK, "the entry point is an absolute path or leaves the package", false},
	{"usk-schema-missing", diag.Info, SpecUSK, "a USK v3 skill has no input_schema or output_schema", false},
	{"usk-schema-invalid", diag.Warning, SpecUSK, "input_schema or output_schema is not valid JSON Schema draft-07", false},
	{"usk-schema-description", diag.Info, SpecUSK, "a schema property has no description", false},
	{"usk-capabilities-missing", diag.Info, SpecUSK, "a USK v3 skill declares no capabilities, so agents cannot find it by function", false},
	{"usk-capability-format", diag.Warning, SpecUSK, "a capability is not snake_case", false},
	{"usk-permissions-missing", diag.Info, SpecUSK, "a USK v3 skill declares no permissions", false},
	{"usk-env-var-name", diag.Warning, SpecUSK, "an environment variable name is not a valid name", false},
	{"usk-platform-compatibility-missing", diag.Info, SpecUSK, "platform_compatibility is missing", false},
	{"usk-license-spdx", diag.Info, SpecUSK, "license is not an SPDX identifier", false},
	{"usk-homepage-url", diag.Warning, SpecUSK, "homepage is not an http(s) URL", false},
	{"usk-examples-too-many", diag.Warning, SpecUSK, "more than 10 examples; stores keep the first 10", false},
	{"usk-examples-too-large", diag.Warning, SpecUSK, "the examples exceed 20 KB as JSON; stores keep the first 5", false},
	{"usk-example-invalid", diag.Warning, SpecUSK, "an example lacks input or output, or its name or description is too long", false},
	{"usk-author-agent-invalid", diag.Warning, SpecUSK, "author_agent breaks its field rules", false},
	{"usk-package-too-many-files", diag.Warning, SpecUSK, "the package has more than 50 files", false},
	{"usk-package-too-large", diag.Warning, SpecUSK, "the package is larger than 5 MB", false},
	{"usk-file-name-too-long", diag.Warning, SpecUSK, "a file name is longer than 200 characters", false},

	// UASP documents (given by the author).
	{"uasp-yaml-invalid", diag.Warning, SpecUASP, "the UASP document is not valid YAML", false},
	{"uasp-not-mapping", diag.Warning, SpecUASP, "the UASP document is not a mapping", false},
	{"uasp-schema", diag.Warning, SpecUASP, "the UASP document breaks the UASP JSON Schema", false},
	{"uasp-version-mismatch", diag.Warning, SpecUASP, "meta.version differs from the content hash", false},
	{"uasp-name-mismatch", diag.Warning, SpecUASP, "meta.name differs from the SKILL.md name", false},
	{"uasp-reference", diag.Warning, SpecUASP, "an internal reference names a command, state entity or source that does not exist", false},

	// SkillBag workspaces.
	{"skillbag-catalog-missing", diag.Warning, SpecSkillBag, ".skills/ exists but .skills/SKILLS.md does not", false},
	{"skillbag-catalog-syntax", diag.Warning, SpecSkillBag, "a SKILLS.md line is not '<name>: <description>'", false},
	{"skillbag-catalog-out-of-sync", diag.Warning, SpecSkillBag, "SKILLS.md does not list exactly the skills present", false},
	{"skillbag-catalog-unsorted", diag.Warning, SpecSkillBag, "SKILLS.md is not sorted by name", false},
	{"skillbag-catalog-description-mismatch", diag.Warning, SpecSkillBag, "a SKILLS.md description differs from the skill's", false},
	{"skillbag-name-pattern", diag.Warning, SpecSkillBag, "a SkillBag skill name is not [a-z0-9]+(-[a-z0-9]+)*, 1-64 characters", false},
	{"skillbag-parameter-duplicate", diag.Warning, SpecSkillBag, "two parameters have the same name", false},
	{"skillbag-required-parameter-default", diag.Warning, SpecSkillBag, "a required parameter defines a default", false},
	{"skillbag-dependency-name", diag.Warning, SpecSkillBag, "a dependency is not named by its canonical hyphenated name", false},
	{"skillbag-dependency-unresolved", diag.Warning, SpecSkillBag, "a dependency without a source is not in .skills/", false},
	{"skillbag-dependency-cycle", diag.Warning, SpecSkillBag, "dependencies form a cycle", false},
	{"skillbag-tag-use-name", diag.Warning, SpecSkillBag, "a #use/<name> tag does not name a canonical skill", false},
	{"skillbag-context-dependency-incomplete", diag.Warning, SpecSkillBag, "a CONTEXT.md dependency lacks name, version or source", false},
	{"skillbag-bootstrap-missing", diag.Info, SpecSkillBag, ".skills/skillbag-get-skills/SKILL.md is not materialized", false},
	{"skillbag-agents-md", diag.Info, SpecSkillBag, "AGENTS.md is missing or does not identify the repository as a SKILLBAG source", false},
}, pluginRules()...)

// pluginRules are the checks of the plugin manifests (package plugin), as
// rules: validate and the report describe them like the others.
func pluginRules() []Rule {
	out := make([]Rule, len(plugin.Rules))
	for i, r := range plugin.Rules {
		out[i] = Rule{Code: r.Code, Severity: r.Severity, Spec: SpecPlugin, Summary: r.Summary}
	}
	return out
}

var byCode = func() map[string]Rule {
	m := make(map[string]Rule, len(Rules))
	for _, r := range Rules {
		m[r.Code] = r
	}
	return m
}()

// Lookup returns the rule for code.
func Lookup(code string) (Rule, bool) {
	r, ok := byCode[code]
	return r, ok
}
