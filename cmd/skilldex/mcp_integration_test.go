package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/browsertest"
	"github.com/skilldex/skilldex/internal/mcpclient"
	"github.com/skilldex/skilldex/internal/testutil"
)

// mcpScenario is what the MCP client does with skilldex mcp: search,
// query with and without filters and below the paths that have a file,
// read a skill and the resources, and ask for names that are paths or
// URLs.
func mcpScenario(site string) mcpclient.Scenario {
	call := func(label, tool string, args map[string]any) mcpclient.Call {
		return mcpclient.Call{Label: label, Tool: tool, Arguments: args}
	}
	return mcpclient.Scenario{
		Command: os.Args[0],
		Args:    []string{"-test.run=^$"},
		Env:     map[string]string{asCLI: "1", "SKILLDEX_TEST_ARGS": strings.Join([]string{"mcp", "--site", site}, "\n")},
		Calls: []mcpclient.Call{
			call("search", "search_skills", map[string]any{"query": "csv profile"}),
			call("search-cli", "search_skills", map[string]any{"query": "browser", "type": "cli", "limit": 3}),
			call("search-plugin", "search_skills", map[string]any{"query": "notes", "plugin": "Release-Tools"}),
			call("search-limit", "search_skills", map[string]any{"query": "skills", "limit": 500}),
			call("search-zero", "search_skills", map[string]any{"query": "skills", "limit": 0}),
			call("query", "query_skill", map[string]any{"query": "agent-browser:commands.click"}),
			call("query-deep", "query_skill", map[string]any{"query": "agent-browser:commands.record.start.args.file.type"}),
			call("query-filter", "query_skill", map[string]any{"query": "stripe-best-practices:decisions?when=*Charges*"}),
			call("query-missing", "query_skill", map[string]any{"query": "agent-browser:commands.nope"}),
			call("query-invalid", "query_skill", map[string]any{"query": "agent-browser:.."}),
			call("get", "get_skill", map[string]any{"name": "release-notes"}),
			call("get-missing", "get_skill", map[string]any{"name": "no-such-skill"}),
			call("hostile-dots", "get_skill", map[string]any{"name": "../release-notes"}),
			call("hostile-url", "get_skill", map[string]any{"name": "https://evil.example/x"}),
			call("hostile-empty", "get_skill", map[string]any{"name": ""}),
			call("hostile-query", "query_skill", map[string]any{"query": "../../etc:passwd"}),
			call("hostile-untyped", "get_skill", map[string]any{"name": 42}),
		},
		Resources: []string{"skilldex://skills/release-notes", "skilldex://llms.txt", "skilldex://skills/..%2Fx", "skilldex://skills/../../x"},
	}
}

// TestMCPWithRealClient drives skilldex mcp with the official MCP
// TypeScript SDK over the demo site, read from its folder and over HTTP
// under a sub-path: the same tools, the same answers (which are skilldex
// query's), the links of where the site is read from, and every name
// that is not a skill's refused with a tool error.
func TestMCPWithRealClient(t *testing.T) {
	client := mcpclient.Require(t)
	dir := filepath.Join(t.TempDir(), "public")
	content := filepath.Join(testutil.ProjectRoot(t), "content")
	if code, _, errs := runCLI(t, "build", content, "-o", dir, "--base-url", "https://example.org/skills/"); code != 0 {
		t.Fatalf("build: exit %d\n%s", code, errs)
	}
	srv := browsertest.NewServer(t, dir, "/catalog/")
	for _, c := range []struct{ name, site, base string }{
		{"folder", dir, "https://example.org/skills/"},
		{"http", srv.URL, srv.URL},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := client.Run(context.Background(), mcpScenario(c.site))
			if err != nil {
				t.Fatal(err)
			}
			checkMCP(t, res, c.base, content)
		})
	}
}

func checkMCP(t *testing.T, res *mcpclient.Result, base, content string) {
	t.Helper()
	if res.Server.Name != "skilldex" {
		t.Errorf("server %+v", res.Server)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		props, _ := tool.InputSchema["properties"].(map[string]any)
		if tool.InputSchema["type"] != "object" || len(props) == 0 {
			t.Errorf("%s: input schema %v", tool.Name, tool.InputSchema)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"get_skill", "query_skill", "search_skills"}) {
		t.Errorf("tools %v", names)
	}
	if !slices.Equal(res.Templates, []string{"skilldex://skills/{name}"}) || !slices.Contains(res.ResourceList, "skilldex://llms.txt") {
		t.Errorf("resource templates %v, resources %v", res.Templates, res.ResourceList)
	}

	var search struct {
		Skills []struct{ Name, Description, Page, Install string }
		Total  int
	}
	got := res.Calls["search"]
	if err := json.Unmarshal(got.Structured, &search); err != nil || got.IsError || len(search.Skills) == 0 {
		t.Fatalf("search: %+v (%v)", got, err)
	}
	if top := search.Skills[0]; top.Name != "csv-profiler" || top.Page != base+"skills/csv-profiler/" ||
		top.Install != "npx skills add "+base+" --skill csv-profiler" || !strings.HasPrefix(top.Description, "Profile a CSV file") {
		t.Errorf("search's first skill: %+v", top)
	}
	search.Skills = nil
	if err := json.Unmarshal(res.Calls["search-cli"].Structured, &search); err != nil || len(search.Skills) != 1 || search.Skills[0].Name != "agent-browser" || search.Skills[0].Install != "" {
		t.Errorf("search, type cli: %+v", res.Calls["search-cli"])
	}
	search.Skills = nil
	// The demo catalog's marketplace has one plugin, of release-notes.
	if err := json.Unmarshal(res.Calls["search-plugin"].Structured, &search); err != nil || len(search.Skills) != 1 || search.Skills[0].Name != "release-notes" {
		t.Errorf("search, plugin release-tools: %+v", res.Calls["search-plugin"])
	}
	if c := res.Calls["search-limit"]; !c.IsError || !strings.Contains(c.Text, "give 1 to 50") {
		t.Errorf("a limit of 500: %+v", c)
	}
	if c := res.Calls["search-zero"]; !c.IsError || !strings.Contains(c.Text, "limit is 0; give 1 to 50") {
		t.Errorf("a limit of 0: %+v", c)
	}

	// query_skill answers what skilldex query prints for the sources.
	for label, q := range map[string]string{
		"query": "agent-browser:commands.click", "query-deep": "agent-browser:commands.record.start.args.file.type",
		"query-filter": "stripe-best-practices:decisions?when=*Charges*", "query-missing": "agent-browser:commands.nope",
		"query-invalid": "agent-browser:..",
	} {
		code, want, _ := runCLI(t, "query", content, q)
		c := res.Calls[label]
		if c.Text != want || c.IsError != (code != 0) {
			t.Errorf("%s: %+v\nwant (exit %d)\n%s", q, c, code, want)
		}
	}

	get := res.Calls["get"]
	if get.IsError || !strings.HasPrefix(get.Text, "---\nname: release-notes\n") || !strings.Contains(get.Text, "# Release notes") ||
		!strings.Contains(get.Text, `"scripts/collect_commits.sh"`) || !strings.Contains(get.Text, base+"skills/release-notes/scripts/collect_commits.sh") {
		t.Errorf("get_skill release-notes:\n%s", get.Text)
	}
	if c := res.Calls["get-missing"]; !c.IsError || !strings.Contains(c.Text, "not published on this site") {
		t.Errorf("get_skill of a missing skill: %+v", c)
	}
	for _, label := range []string{"hostile-dots", "hostile-url", "hostile-empty", "hostile-query", "hostile-untyped"} {
		c := res.Calls[label]
		if !c.IsError && c.Error == "" {
			t.Errorf("%s was not refused: %+v", label, c)
		}
		if strings.Contains(c.Text, "Release notes") || strings.Contains(c.Text, "root:x:") {
			t.Errorf("%s read a file: %+v", label, c)
		}
	}

	if r := res.Resources["skilldex://skills/release-notes"]; r.MIMEType != "text/markdown" || !strings.HasPrefix(r.Text, "---\nname: release-notes\n") {
		t.Errorf("the release-notes resource: %+v", r)
	}
	if r := res.Resources["skilldex://llms.txt"]; !strings.HasPrefix(r.Text, "# ") || !strings.Contains(r.Text, "release-notes") {
		t.Errorf("llms.txt: %+v", r)
	}
	for _, uri := range []string{"skilldex://skills/..%2Fx", "skilldex://skills/../../x"} {
		if r := res.Resources[uri]; r.Error == "" || r.Text != "" {
			t.Errorf("%s: %+v", uri, r)
		}
	}
}
