package mcpserver

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/siteread"
	"github.com/skilldex/skilldex/internal/testutil"
)

// TestNamesAsPublished: a skill whose name breaks the spec ("My Cool
// Skill") is published with a warning, and get_skill and its resource
// (the name percent-encoded in the URI) read it as search_skills names
// it. A resource URI that names no skill, or cannot be decoded, is
// refused as invalid parameters, not with error code 0.
func TestNamesAsPublished(t *testing.T) {
	src := testutil.WriteTxtar(t, t.TempDir(), `-- cool/SKILL.md --
---
name: My Cool Skill
description: A skill whose name has capitals and blanks, which the spec does not allow.
---
Be cool.
-- sharp/SKILL.md --
---
name: "C# Tools: Q&A?"
description: A skill whose name holds what URLs and queries use, which a site escapes.
---
Be sharp.
`)
	info, err := siteinfo.New("Test", "https://example.org/skills/")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "public")
	if _, err := build.Build(context.Background(), build.Options{LoadOptions: build.LoadOptions{Sources: []string{src}}, Output: out, Site: info}); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	site, err := siteread.Open(ctx, out)
	if err != nil {
		t.Fatal(err)
	}
	serverSide, clientSide := mcp.NewInMemoryTransports()
	if _, err := New(site, "test").Connect(ctx, serverSide, nil); err != nil {
		t.Fatal(err)
	}
	session, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, clientSide, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer session.Close()

	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"search_skills", map[string]any{"query": "cool"}, `"name":"My Cool Skill"`},
		{"get_skill", map[string]any{"name": "My Cool Skill"}, "Be cool."},
		{"get_skill", map[string]any{"name": "C# Tools: Q&A?"}, "Be sharp."},
	} {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil || res.IsError || len(res.Content) == 0 {
			t.Errorf("%s %v: %v %+v", c.tool, c.args, err, res)
			continue
		}
		if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, c.want) {
			t.Errorf("%s %v: %.300s\nwant %s in it", c.tool, c.args, text, c.want)
		}
	}
	res, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: "skilldex://skills/My%20Cool%20Skill"})
	if err != nil || len(res.Contents) != 1 || !strings.Contains(res.Contents[0].Text, "Be cool.") {
		t.Errorf("the resource: %v %+v", err, res)
	}
	for _, uri := range []string{"skilldex://skills/..%2Fx", "skilldex://skills/%zz", "skilldex://skills/.x"} {
		_, err := session.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		var rpc *jsonrpc.Error
		if !errors.As(err, &rpc) || rpc.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("%s: %v, want error code %d", uri, err, jsonrpc.CodeInvalidParams)
		}
	}
}
