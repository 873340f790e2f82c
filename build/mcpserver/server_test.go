package mcpserver

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build/siteread"
)

// TestSkillTextParts: a skill longer than one answer is read in parts,
// each within MaxSkillText and ending with the call that reads on; the
// parts make up the whole Markdown, and the files are listed after the
// last. A line longer than an answer is cut between characters.
func TestSkillTextParts(t *testing.T) {
	readOn := regexp.MustCompile(`Read on with get_skill (\{.*?\});`)
	for name, md := range map[string]string{
		"lines":     strings.Repeat("A line of instructions, with ünïcode.\n", 5000),
		"one line":  strings.Repeat("ünïcödé ", 20000),
		"short":     "---\nname: x\n---\nBody.\n",
		"exact":     strings.Repeat("x", MaxSkillText-1) + "\n",
		"one over":  strings.Repeat("x", MaxSkillText) + "\n",
		"no ending": "Body without a line break",
	} {
		sk := &siteread.Skill{Name: "x", Markdown: md, MarkdownURL: "https://e.org/skills/x/index.html.md", Page: "https://e.org/skills/x/",
			Files: []siteread.File{{Path: "SKILL.md", URL: "https://e.org/skills/x/SKILL.md"}}}
		var whole strings.Builder
		offset, parts := 0, 0
		for {
			text, err := skillText(sk, offset)
			if err != nil {
				t.Fatalf("%s: offset %d: %v", name, offset, err)
			}
			parts++
			m := readOn.FindStringSubmatch(text)
			if m == nil {
				if !strings.Contains(text, "Files of the skill") {
					t.Errorf("%s: the last part does not list the files", name)
				}
				whole.WriteString(md[offset:])
				break
			}
			var next SkillInput
			if err := json.Unmarshal([]byte(m[1]), &next); err != nil || next.Name != "x" || next.Offset <= offset {
				t.Fatalf("%s: read on with %s after offset %d", name, m[1], offset)
			}
			body, _, _ := strings.Cut(text, "\n---\n\nThis is bytes")
			if len(body) > MaxSkillText || body != md[offset:next.Offset] || strings.Contains(text, "Files of the skill") {
				t.Errorf("%s: part at %d: %d bytes, the Markdown's own: %v", name, offset, len(body), body == md[offset:next.Offset])
			}
			whole.WriteString(body)
			offset = next.Offset
			if parts > 100 {
				t.Fatalf("%s: more than 100 parts", name)
			}
		}
		if whole.String() != md {
			t.Errorf("%s: the parts do not make up the Markdown", name)
		}
		if want := (len(md) + MaxSkillText - 1) / MaxSkillText; parts < want || parts > 2*want {
			t.Errorf("%s: %d parts for %d bytes", name, parts, len(md))
		}
	}
	sk := &siteread.Skill{Name: "x", Markdown: "ünï\n"}
	for _, offset := range []int{-1, 1, 4, 6, 7} { // ü and ï are two bytes each
		if _, err := skillText(sk, offset); err == nil {
			t.Errorf("offset %d of %q: no error", offset, sk.Markdown)
		}
	}
}
