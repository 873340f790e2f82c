package lint

import (
	"strings"
	"testing"
)

// TestSkillsRefEdgeCases covers testdata/conformance/skills-ref/EDGE_CASES.md:
// behaviour of skills-ref read from its code rather than its tests.
func TestSkillsRefEdgeCases(t *testing.T) {
	const ok = ""
	fm := func(lines ...string) string { return "---\n" + strings.Join(lines, "\n") + "\n---\n# Body\n" }
	long := func(n int) string { return strings.Repeat("a", n) }
	cases := []struct {
		id, dir, content string
		want             []string // messages, in order; nil = valid
	}{
		{"E1 BOM", "my-skill", "\ufeff" + fm("name: my-skill", "description: d"), []string{"SKILL.md must start with YAML frontmatter (---)"}},
		{"E2 CRLF", "my-skill", strings.ReplaceAll(fm("name: my-skill", "description: d"), "\n", "\r\n"), nil},
		{"E3 blank first", "my-skill", "\n" + fm("name: my-skill", "description: d"), []string{"SKILL.md must start with YAML frontmatter (---)"}},
		{"E4 one ---", "my-skill", "---\nname: my-skill\ndescription: d\n", []string{"SKILL.md frontmatter not properly closed with ---"}},
		{"E5 --- in value", "my-skill", fm("name: my-skill", "description: a---b"), nil},
		{"E5 --- cuts description", "my-skill", fm("name: my-skill", "description: x", "license: a---b", "compatibility: y"), nil},
		{"E6 unclosed with rule", "my-skill", "---\nname: my-skill\ndescription: d\n# Title\n\ntext: [x\n\n---\nmore\n", []string{"Invalid YAML in frontmatter:"}},
		{"E7 flow list", "my-skill", fm("name: my-skill", "description: d", "allowed-tools: [Read, Write]"), []string{"Invalid YAML in frontmatter:"}},
		{"E7 flow map", "my-skill", fm("name: my-skill", "description: d", "metadata: {a: b}"), []string{"Invalid YAML in frontmatter:"}},
		{"E8 duplicate key", "my-skill", fm("name: my-skill", "name: my-skill", "description: d"), []string{"Invalid YAML in frontmatter:"}},
		{"E9 anchor", "my-skill", fm("name: &n my-skill", "description: d"), []string{"Invalid YAML in frontmatter:"}},
		{"E9 tag", "my-skill", fm("name: !!str my-skill", "description: d"), []string{"Invalid YAML in frontmatter:"}},
		{"E10 empty", "my-skill", "---\n---\nbody\n", []string{"SKILL.md frontmatter must be a YAML mapping"}},
		{"E11 empty name", "my-skill", fm("name:", "description: d"), []string{"Field 'name' must be a non-empty string"}},
		{"E12 numeric name", "123", fm("name: 123", "description: d"), nil},
		{"E12 bool name", "my-skill", fm("name: true", "description: d"), []string{"Directory name 'my-skill' must match skill name 'true'"}},
		{"E13 nested metadata", "my-skill", fm("name: my-skill", "description: d", "metadata:", "  a:", "    b: c"), nil},
		{"E13 scalar metadata", "my-skill", fm("name: my-skill", "description: d", "metadata: foo"), nil},
		{"E14 block list tools", "my-skill", fm("name: my-skill", "description: d", "allowed-tools:", "  - Read", "  - Write"), nil},
		{"E15 1024", "my-skill", fm("name: my-skill", "description: "+long(1024)), nil},
		{"E15 1025", "my-skill", fm("name: my-skill", "description: "+long(1025)), []string{"Description exceeds 1024 character limit (1025 chars)"}},
		{"E16 64", long(64), fm("name: "+long(64), "description: d"), nil},
		{"E16 65", long(65), fm("name: "+long(65), "description: d"), []string{"Skill name '" + long(65) + "' exceeds 64 character limit (65 chars)"}},
		{"E17 order", "-My_Skill", fm("name: -My_Skill", "description: d"), []string{
			"Skill name '-My_Skill' must be lowercase",
			"Skill name cannot start or end with a hyphen",
			"Skill name '-My_Skill' contains invalid characters. Only letters, digits, and hyphens are allowed.",
		}},
		{"E18 fullwidth", "abc", fm("name: ａｂｃ", "description: d"), nil},
		{"E19 roman lower", "ⅻ", fm("name: ⅻ", "description: d"), nil},
		{"E19 roman upper", "Ⅻ", fm("name: Ⅻ", "description: d"), []string{"Skill name 'XII' must be lowercase"}},
		{"E20 unknown", "my-skill", fm("name: my-skill", "description: d", "version: 1", "argument-hint: x"), []string{
			"Unexpected fields in frontmatter: argument-hint, version. Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.",
		}},
		{"E23 compatibility map", "my-skill", fm("name: my-skill", "description: d", "compatibility:", "  os: linux"), []string{"Field 'compatibility' must be a string"}},
		{"E24 compatibility empty", "my-skill", fm("name: my-skill", "description: d", "compatibility:"), nil},
		{"E25 indentation", "my-skill", fm("name: my-skill", "description: d", "metadata:", "  a: b", "other:", "    c: d"), []string{"Invalid YAML in frontmatter:"}},
		{"missing description", "my-skill", fm("name: my-skill"), []string{"Missing required field in frontmatter: description"}},
		{"blank description", "my-skill", fm("name: my-skill", "description: '  '"), []string{"Field 'description' must be a non-empty string"}},
		{"NFKC dir", "café", fm("name: cafe\u0301", "description: d"), nil},
	}
	for _, c := range cases {
		t.Run(c.id, func(t *testing.T) {
			got := SkillsRef(c.dir, []byte(c.content))
			if len(got) != len(c.want) {
				t.Fatalf("got %d findings %+v, want %q", len(got), got, c.want)
			}
			for i, w := range c.want {
				if w == ok {
					continue
				}
				if got[i].Message != w && !(strings.HasSuffix(w, ":") && strings.HasPrefix(got[i].Message, w)) {
					t.Errorf("finding %d: %q, want %q", i, got[i].Message, w)
				}
			}
		})
	}
}
