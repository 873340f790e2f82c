package api_test

import (
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/api"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/internal/testcatalog"
)

// yamlEdgeCases are strings YAML reads as something else than the string,
// or that need quoting or escaping.
var yamlEdgeCases = []string{
	"", "plain", "Plain words, with commas (and parentheses).", "a: b", "a:b", "a:", "a #b", "a#b", "#a",
	"true", "True", "TRUE", "yes", "Yes", "no", "on", "Off", "y", "N", "null", "Null", "~", "tRuE",
	"1e3", "12:30", "2024-01-02", "0x1F", ".inf", ".NaN", "-x", "- x", "x-", "?x", "x?", ":x", ",x", "x,y",
	"[x]", "x[0]", "{x}", "x{y}", "&x", "*x", "!x", "x!", "|x", "x | y", ">x", "x > y", "'x'", "it's", `"x"`,
	`x "y"`, "%x", "x%", "@x", "x@y", "`x`", "x`y", "---", "...", " lead", "trail ", "tab\there", "line\nbreak",
	"cr\rhere", "nul\x00", "del\x7f", "é accent", "àccent first", "nbsp\u00a0here", "nel\u0085here",
	"ls\u2028here", "bom\ufeffhere", "emoji 🙂 here", "bad utf8 \xff", "https://example.org/x/y?q=1#frag",
	"a  two  spaces", "x: ", "x :y", "x\\y", "<<", "x<<", strings.Repeat("long sentence ", 40),
}

// TestTwinFrontmatterMatchesYAML: a Markdown twin's header, written
// directly, has the bytes yaml.v3 gives, whatever the values; and the
// usual values take the direct path.
func TestTwinFrontmatterMatchesYAML(t *testing.T) {
	check := func(t *testing.T, fields, tags []string) bool {
		t.Helper()
		direct, viaYAML, fast := api.TwinYAMLBothWays(fields, tags)
		if d := firstDifference(direct, viaYAML); d != "" {
			t.Errorf("fields %q, tags %q: %s", fields, tags, d)
		}
		return fast
	}
	base := []string{"name", "A description.", "skill-md", "approved", "cli", "1.0.0", "", "https://x.org/s/name/",
		"https://x.org/s/name/SKILL.md", "https://x.org/s/name.skill", "https://x.org/api/v1/skills/name.json", ""}
	for _, s := range yamlEdgeCases {
		for i := range base {
			fields := append([]string(nil), base...)
			fields[i] = s
			check(t, fields, nil)
		}
		check(t, base, []string{"tag", s})
	}

	// Links are absolute with a base URL, root-relative without.
	for _, base := range []string{"https://example.org/x/", ""} {
		site, err := siteinfo.New("Test", base)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range jsonTestCatalogs(t) {
			skills := c.Skills
			fast := 0
			for _, s := range skills {
				direct, viaYAML, isFast := api.TwinYAMLOf(s, site)
				if d := firstDifference(direct, viaYAML); d != "" {
					t.Errorf("%s: %s", s.Name, d)
				}
				if isFast {
					fast++
				}
			}
			// Only a version made of digits alone (one in 40) sends a
			// header of the generated catalog to yaml.v3: the direct path
			// must not have become dead code.
			if i == 0 && fast < len(skills)*9/10 {
				t.Errorf("base %q, generated catalog: %d of %d headers written directly, want 90%% or more", base, fast, len(skills))
			}
			t.Logf("base %q, catalog %d: %d of %d headers written directly", base, i, fast, len(skills))
		}
	}
}

// FuzzTwinFrontmatter: for any values, the header written directly is the
// one yaml.v3 writes.
func FuzzTwinFrontmatter(f *testing.F) {
	for _, s := range yamlEdgeCases {
		f.Add(s, "plain description", s)
	}
	f.Fuzz(func(t *testing.T, name, description, tag string) {
		// Every field a header always has is set: an empty one would send
		// every header through yaml.v3, and the test could not fail.
		fields := []string{name, description, "skill-md", "caution", "cli", "1.0.0", "", "/" + name + "/",
			"/" + name + "/SKILL.md", "", "/api/v1/skills/" + name + ".json", ""}
		direct, viaYAML, fast := api.TwinYAMLBothWays(fields, []string{tag, "tag"})
		if d := firstDifference(direct, viaYAML); d != "" {
			t.Errorf("%q %q %q: %s", name, description, tag, d)
		}
		if name == "plain" && description == "plain description" && tag == "plain" && !fast {
			t.Fatal("a header of plain values was not written directly")
		}
	})
}

// BenchmarkTwinFrontmatter writes the twin headers of a generated
// catalog directly and through yaml.v3.
func BenchmarkTwinFrontmatter(b *testing.B) {
	c := testcatalog.Generated(b, 500, 7)
	site, err := siteinfo.New("Test", "https://example.org/x/")
	if err != nil {
		b.Fatal(err)
	}
	var headers []*api.TwinHeader
	for _, s := range c.Skills {
		headers = append(headers, api.TwinHeaderOf(s, site))
	}
	for _, bc := range []struct {
		name   string
		append func(*api.TwinHeader, []byte) []byte
	}{{"direct", (*api.TwinHeader).AppendYAML}, {"yaml.v3", (*api.TwinHeader).AppendYAMLSlow}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				for _, h := range headers {
					buf = bc.append(h, buf[:0])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(headers)), "ns/header")
		})
	}
}
