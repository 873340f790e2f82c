package plugin

import "github.com/skilldex/skilldex/build/diag"

// Rule documents one check. Its code is stable; the severity is the one
// most findings get (a rule's message says when it differs).
type Rule struct {
	Code     string
	Severity diag.Severity
	Summary  string
}

// Rules lists every check of the manifests, by code.
var Rules = []Rule{
	{"plugin-file-unreadable", diag.Error, "a marketplace file or plugin manifest cannot be read, or is larger than the limit"},
	{"plugin-json-syntax", diag.Error, "a marketplace file or plugin manifest is not a JSON object; clients reject the whole file"},
	{"plugin-json-bom", diag.Warning, "a manifest starts with a byte order mark, which JSON parsers may reject"},
	{"plugin-json-duplicate-key", diag.Warning, "an object names the same field twice; clients use the last"},
	{"plugin-field-missing", diag.Error, "a required field is missing: a marketplace's name, owner or plugins, a plugin's name or source"},
	{"plugin-field-type", diag.Error, "a field has the wrong JSON type (null is a warning: the field is ignored)"},
	{"plugin-name-not-kebab", diag.Warning, "a plugin or marketplace name is not kebab-case (an error when it holds spaces: clients reject it)"},
	{"plugin-name-duplicate", diag.Error, "a marketplace lists two plugins with the same name; the later one is ignored"},
	{"plugin-version-not-semver", diag.Warning, "a version is not a semantic version (MAJOR.MINOR.PATCH)"},
	{"plugin-source-invalid", diag.Error, "a plugin source is malformed, absolute, leaves the marketplace, or names an unknown kind (a warning)"},
	{"plugin-source-missing", diag.Error, "a relative plugin source names a folder that does not exist"},
	{"plugin-path-invalid", diag.Warning, "a component path does not start with ./ or leaves the plugin folder; clients ignore it"},
	{"plugin-skill-missing", diag.Warning, "a skills path names a folder that holds no skill"},
	{"plugin-manifest-mismatch", diag.Warning, "a plugin's plugin.json disagrees with its marketplace entry on the name or the version"},
	{"plugin-strict-conflict", diag.Error, "an entry with strict: false defines the components, and the plugin's plugin.json declares some too; Claude Code does not load it"},
}

// Lookup returns the rule with the given code.
func Lookup(code string) (Rule, bool) {
	for _, r := range Rules {
		if r.Code == code {
			return r, true
		}
	}
	return Rule{}, false
}
