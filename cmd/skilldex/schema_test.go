package main

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/skilldex/skilldex/build/schema"
	"github.com/skilldex/skilldex/build/yamltree"
	"github.com/skilldex/skilldex/internal/testutil"
)

// compileConfigSchema compiles the schema skilldex config schema prints.
func compileConfigSchema(t *testing.T) (*jsonschema.Schema, map[string]any) {
	t.Helper()
	code, out, stderr := runCLI(t, "config", "schema")
	if code != exitOK || out != string(configSchema) {
		t.Fatalf("config schema: exit %d, %s; want the embedded schema", code, stderr)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("the schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("skilldex.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("skilldex.schema.json")
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return sch, doc.(map[string]any)
}

// schemaKeys lists the keys a schema node's objects have, dotted as
// configKeys writes them (sources[].path).
func schemaKeys(root, node map[string]any, prefix string) []string {
	if ref, ok := node["$ref"].(string); ok {
		name := strings.TrimPrefix(ref, "#/$defs/")
		node = root["$defs"].(map[string]any)[name].(map[string]any)
	}
	var keys []string
	if props, ok := node["properties"].(map[string]any); ok {
		for k, sub := range props {
			if inner := schemaKeys(root, sub.(map[string]any), prefix+k+"."); len(inner) > 0 {
				keys = append(keys, inner...)
			} else {
				keys = append(keys, prefix+k)
			}
		}
	}
	alts, _ := node["anyOf"].([]any)
	for _, alt := range alts {
		keys = append(keys, schemaKeys(root, alt.(map[string]any), prefix)...)
	}
	if items, ok := node["items"].(map[string]any); ok {
		keys = append(keys, schemaKeys(root, items, strings.TrimSuffix(prefix, ".")+"[].")...)
	}
	return keys
}

// TestConfigSchemaKeys: the schema has every key the config loader knows,
// and no other.
func TestConfigSchemaKeys(t *testing.T) {
	_, doc := compileConfigSchema(t)
	got := schemaKeys(doc, doc, "")
	want := configKeys(reflect.TypeFor[config](), "", true)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the schema's keys:\n%s\nthe loader's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(want) < 17 {
		t.Errorf("the loader knows %d keys; the reflection missed some: %v", len(want), want)
	}
}

// TestConfigSchemaAgreesWithLoader: every sample config is accepted by
// both the loader and the schema, or refused by both.
func TestConfigSchemaAgreesWithLoader(t *testing.T) {
	sch, _ := compileConfigSchema(t)
	readme, err := os.ReadFile(filepath.Join(testutil.ProjectRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The README's example config.
	_, after, _ := strings.Cut(string(readme), "### Config file")
	_, after, _ = strings.Cut(after, "```yaml\n")
	example, _, _ := strings.Cut(after, "```")
	inits, err := catalogFiles(initOptions{version: buildVersion{Module: "devel"}})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		yaml string
		ok   bool
	}{
		{example, true},
		{string(inits[0].data), true}, // the config skilldex init writes
		{"", true},
		{"# only a comment\n", true},
		{"title: Acme\n", true},
		{"sources:\n  - ~\n", false},
		{"title: 2024\n", true},
		{"title:\n", true},
		{"repository: https://github.com/a/b\n", true},
		{"repository: ''\n", true},
		{"repository:\n  url: https://gitlab.com/a/b\n  branch: trunk\n  path: docs/skills\n", true},
		{"sources:\n  - skills\n  - path: vendor\n    name: Vendor skills\n", true},
		{"sources:\n", true},
		{"sources: []\n", true},
		{"output: site\nstrict: true\n", true},
		{"api:\n  paths: sections\n", true},
		{"discovery:\n  legacy: true\n", true},
		{"discovery:\n  legacy: 'false'\n", true},
		{"publish:\n  bleve: false\n  derived_docs: true\n", true},
		{"publish:\n  bleve: 'no'\n", true}, // YAML 1.1's words, which the loader reads into a bool
		{"strict: On\n", true},

		{"sourcs: [skills]\n", false},
		{"- skills\n", false},
		{"title: [a]\n", false},
		{"api: 3\n", false},
		{"api:\n  paths: some\n", false},
		{"api:\n  path: all\n", false},
		{"discovery:\n  legacy: maybe\n", false},
		{"publish:\n  bleve: 'nope'\n", false},
		{"strict: 'true'\n", false},
		{"publish:\n  pdf: true\n", false},
		{"strict: sometimes\n", false},
		{"repository: ftp://example.com/a/b\n", false},
		{"repository: https://user:secret@github.com/a/b\n", false},
		{"repository: [a]\n", false},
		{"repository:\n  branch: main\n", false},
		{"repository:\n  url: https://github.com/a/b\n  tree: x\n", false},
		{"repository:\n  url: https://github.com/a/b\n  path: ../up\n", false},
		{"sources: skills\n", false},
		{"sources:\n  - path: ''\n    name: x\n", false},
		{"sources:\n  - name: x\n", false},
		{"sources:\n  - path: a\n    nam: x\n", false},
		{"sources:\n  - [a]\n", false},
	}
	dir := t.TempDir()
	for i, c := range cases {
		file := filepath.Join(dir, "skilldex.yaml")
		if err := os.WriteFile(file, []byte(c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		_, loadErr := loadConfig(file)
		var schemaErr error
		v, _, err := yamltree.Decode([]byte(c.yaml), yamltree.DefaultLimits)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		inst, err := schema.Instance(v)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		schemaErr = sch.Validate(inst)
		if (loadErr == nil) != c.ok || (schemaErr == nil) != c.ok {
			t.Errorf("case %d, want ok %v: loader %v; schema %v\n%s", i, c.ok, loadErr, schemaErr, c.yaml)
		}
	}
}

// TestConfigSchemaFile: the schema in the repository is the one the binary
// prints, as JSON for people (indented, a final newline).
func TestConfigSchemaFile(t *testing.T) {
	file, err := os.ReadFile(filepath.Join(testutil.ProjectRoot(t), filepath.FromSlash(schemaPath)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(file, configSchema) || !bytes.HasSuffix(file, []byte("}\n")) {
		t.Errorf("%s is not what skilldex config schema prints", schemaPath)
	}
}
