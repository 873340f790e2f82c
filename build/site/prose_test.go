package site

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

// codeSpanCases are descriptions and how they split: the same for the
// pages (codeSpanParts) and the search page (search-core.js's codeParts).
var codeSpanCases = []struct {
	in   string
	want string // the parts, code in <code>, unescaped
}{
	{"Wraps `npx agentrc readiness` for CI.", "Wraps <code>npx agentrc readiness</code> for CI."},
	{"`a` and `b`", "<code>a</code> and <code>b</code>"},
	{"a lone ` backtick", "a lone ` backtick"},
	{"empty `` and blank ` ` spans", "empty `` and blank ` ` spans"},
	{"``a ` b``", "<code>a ` b</code>"},
	{"`` `x` ``", "<code>`x`</code>"},
	{"```x```", "<code>x</code>"},
	{"``x` y", "``x` y"},
	{"`x`` y`", "<code>x`` y</code>"},
	{"`\u0085`", "<code>\u0085</code>"},
	{"`\ufeff`", "<code>\ufeff</code>"},
	{"` `` `", "<code>``</code>"},
	{"", ""},
}

func partsString(parts []textPart) string {
	var b strings.Builder
	for _, p := range parts {
		if p.code {
			b.WriteString("<code>" + p.text + "</code>")
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String()
}

func TestCodeSpans(t *testing.T) {
	for _, c := range codeSpanCases {
		if got := partsString(codeSpanParts(c.in)); got != c.want {
			t.Errorf("codeSpanParts(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for in, want := range map[string]string{
		"<script>`<b>`&":      "&lt;script&gt;<code>&lt;b&gt;</code>&amp;",
		`quotes "in" 'text'`:  "quotes &#34;in&#34; &#39;text&#39;",
		"`<img onerror=x>` y": "<code>&lt;img onerror=x&gt;</code> y",
	} {
		if got := string(codeSpans(in)); got != want {
			t.Errorf("codeSpans(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCodeSpansAsSearchPage: search-core.js's codeParts splits every case
// as codeSpanParts does, so that a description reads the same in search
// results as on the pages.
func TestCodeSpansAsSearchPage(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: search-core.js runs under Node 20 or later (apt-get install nodejs)")
	}
	core := filepath.Join(testutil.ProjectRoot(t), "static", "search-core.js")
	script := `import { codeParts } from ` + jsString(core) + `;
import { readFileSync } from 'node:fs';
const ins = JSON.parse(readFileSync(0, 'utf8'));
process.stdout.write(JSON.stringify(ins.map((s) => codeParts(s).map(([t, c]) => (c ? '<code>' + t + '</code>' : t)).join(''))));`
	var ins []string
	for _, c := range codeSpanCases {
		ins = append(ins, c.in)
	}
	in, _ := json.Marshal(ins)
	cmd := exec.Command(node, "--input-type=module", "-e", script)
	cmd.Stdin = bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var got []string
	if err := json.Unmarshal(out, &got); err != nil || len(got) != len(ins) {
		t.Fatalf("node printed %s (%v)", out, err)
	}
	for i, c := range codeSpanCases {
		if got[i] != c.want {
			t.Errorf("codeParts(%q) = %q, want %q", c.in, got[i], c.want)
		}
	}
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func FuzzCodeSpans(f *testing.F) {
	for _, c := range codeSpanCases {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := string(codeSpans(s))
		// Only the <code> tags this function writes are markup.
		rest := strings.NewReplacer("<code>", "", "</code>", "").Replace(out)
		if strings.ContainsAny(rest, "<>") {
			t.Fatalf("codeSpans(%q) = %q holds markup", s, out)
		}
	})
}

func TestUnbrokenWords(t *testing.T) {
	for in, want := range map[string]string{
		" --skill aws-resource-query": ` <span class="sd-word">--skill</span> <span class="sd-word">aws-resource-query</span>`,
		"npx skills add ":             `<span class="sd-word">npx</span> <span class="sd-word">skills</span> <span class="sd-word">add</span> `,
		`a && "$dir" <b>`:             `<span class="sd-word">a</span> <span class="sd-word">&amp;&amp;</span> <span class="sd-word">&#34;$dir&#34;</span> <span class="sd-word">&lt;b&gt;</span>`,
		"":                            "",
	} {
		if got := string(unbrokenWords(in)); got != want {
			t.Errorf("unbrokenWords(%q) = %q, want %q", in, got, want)
		}
	}
}
