// Package mcpserver offers a built skilldex site to agents as an MCP
// server (skilldex mcp): tools to search its skills, query their UASP
// documents and read their instructions, and each skill's Markdown twin
// and llms.txt as resources. Every call reads the site through package
// siteread, from a folder or over HTTP(S), fetching only the files it
// needs.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/skilldex/skilldex/build/siteread"
	"github.com/skilldex/skilldex/build/uasp"
)

// MaxLimit bounds search_skills' limit.
const MaxLimit = 50

// Resource URIs: each skill's Markdown twin, and llms.txt.
const (
	SkillURITemplate = "skilldex://skills/{name}"
	skillURIPrefix   = "skilldex://skills/"
	LLMSURI          = "skilldex://llms.txt"
)

// SearchInput is search_skills' input.
type SearchInput struct {
	Query string `json:"query" jsonschema:"what the skill should do, in words (the last word also matches as a prefix, a misspelt word its nearest spelling); the site's search syntax too: \"a phrase\", +word (required), -word (excluded), type:cli, tag:x, source:x, plugin:x"`
	// Limit is a pointer so that 0, which is refused, is told apart from
	// no limit given.
	Limit *int   `json:"limit,omitempty" jsonschema:"how many skills to return, 1 to 50 (default 10)"`
	Type  string `json:"type,omitempty" jsonschema:"keep skills of this UASP type: cli, api, knowledge or hybrid"`
	Tag   string `json:"tag,omitempty" jsonschema:"keep skills with this tag"`
	// Plugin keeps the skills of one plugin of the catalog's marketplaces.
	Plugin string `json:"plugin,omitempty" jsonschema:"keep the skills of this plugin (plugin marketplaces: see api/v1/plugins.json)"`
}

// SearchOutput is search_skills' result.
type SearchOutput struct {
	Skills []siteread.Hit `json:"skills"`
	// Total counts every matching skill (a lower bound when the index
	// answered from the heads of its postings).
	Total int `json:"total"`
	// Notes say what in the query may not do what was meant (a mistyped
	// filter, a tag no skill has).
	Notes []string `json:"notes,omitempty"`
}

// QueryInput is query_skill's input.
type QueryInput struct {
	Query string `json:"query" jsonschema:"a UASP query NAME:PATH[?KEY=GLOB&...], such as pdf-tools:constraints.never or stripe-best-practices:decisions?when=*charges* (PATH is dot-separated; keys holding dots are found as keys; list entries by name, id or index; filters keep the list entries whose KEY matches GLOB, ignoring case)"`
}

// SkillInput is get_skill's input.
type SkillInput struct {
	Name string `json:"name" jsonschema:"the skill's name, as search_skills gives it"`
	// Offset goes on reading a skill longer than one answer.
	Offset int `json:"offset,omitempty" jsonschema:"where to go on reading a long skill: the offset the previous answer ends with (default 0, the start)"`
}

// MaxSkillText bounds the Markdown of one get_skill answer, in bytes, so
// that an answer stays within what agents take from a tool (Claude Code:
// 25,000 tokens by default); a longer skill is read in parts.
const MaxSkillText = 60_000

// readOnly annotates every tool: each reads the site, and the same call
// gives the same answer while the site stays as it is.
var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}

// New returns the MCP server of site; version is skilldex's.
func New(site *siteread.Site, version string) *mcp.Server {
	where := site.Location
	if site.URL != nil {
		where = site.URL.String()
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "skilldex", Title: "skilldex skill catalog", Version: version}, &mcp.ServerOptions{
		Instructions: "The agent skills of the catalog at " + where + ". search_skills finds skills for a task; " +
			"get_skill reads a skill's instructions and lists its files; query_skill answers a question about a skill from its UASP document " +
			"(its constraints, decisions, commands, workflows) without reading it whole.",
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "search_skills",
		Title:       "Search skills",
		Description: "Find the skills of the catalog for a task: ranked skills with their name, description, page URL and, when the skills CLI can install it, the install command.",
		Annotations: readOnly,
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in SearchInput) (*mcp.CallToolResult, SearchOutput, error) {
		limit := 10
		if in.Limit != nil {
			limit = *in.Limit
		}
		if limit < 1 || limit > MaxLimit {
			return nil, SearchOutput{}, fmt.Errorf("limit is %d; give 1 to %d", limit, MaxLimit)
		}
		res, err := site.Search(ctx, in.Query, siteread.SearchOptions{Limit: limit, Type: in.Type, Tag: in.Tag, Plugin: in.Plugin})
		if err != nil {
			return nil, SearchOutput{}, err
		}
		return nil, SearchOutput{Skills: res.Hits, Total: res.Total, Notes: res.Notes}, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:  "query_skill",
		Title: "Query a skill's UASP document",
		Description: "Answer a UASP query about a skill, as `skilldex query` prints it: " +
			`{"skill", "path", "found", "value"}, or with found false an error (SKILL_NOT_FOUND, PATH_NOT_FOUND, INVALID_QUERY) whose message says what the document has. ` +
			"Useful paths: meta, triggers, constraints.never, constraints.always, decisions, commands, commands.NAME, workflows, reference, environment, sources.",
		Annotations: readOnly,
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in QueryInput) (*mcp.CallToolResult, any, error) {
		q, err := uasp.ParseQuery(in.Query)
		if err == nil {
			err = siteread.ValidName(q.Skill)
		}
		if err != nil {
			b := uasp.MarshalAnswer(uasp.Refused(in.Query, err))
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, IsError: true}, nil, nil
		}
		b, found, err := site.Query(ctx, q)
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}, IsError: !found}, nil, nil
	})
	mcp.AddTool(s, &mcp.Tool{
		Name:        "get_skill",
		Title:       "Read a skill",
		Description: "Read a skill's instructions as Markdown (a YAML summary, then its SKILL.md body), followed by the list of its files with their URLs.",
		Annotations: readOnly,
	}, func(ctx context.Context, _ *mcp.CallToolRequest, in SkillInput) (*mcp.CallToolResult, any, error) {
		sk, err := site.Skill(ctx, in.Name)
		if err != nil {
			return nil, nil, err
		}
		text, err := skillText(sk, in.Offset)
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
	})
	s.AddResourceTemplate(&mcp.ResourceTemplate{
		Name:        "skill",
		Title:       "A skill's instructions",
		Description: "The skill's Markdown twin: a YAML summary, then its instructions. {name} is a skill's name, as search_skills gives it.",
		MIMEType:    "text/markdown",
		URITemplate: SkillURITemplate,
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		uri := req.Params.URI
		escaped, ok := strings.CutPrefix(uri, skillURIPrefix)
		if !ok {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		// The URI template's {name} is percent-encoded where the name
		// holds what a URI cannot (a blank, a non-ASCII letter).
		name, err := url.PathUnescape(escaped)
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: fmt.Sprintf("%s: %v; percent-encode the skill's name", uri, err)}
		}
		if err := siteread.ValidName(name); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
		sk, err := site.Skill(ctx, name)
		if errors.Is(err, siteread.ErrNoSkill) {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		if err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "text/markdown", Text: sk.Markdown}}}, nil
	})
	s.AddResource(&mcp.Resource{
		Name:        "llms.txt",
		Title:       "The catalog for language models",
		Description: "llms.txt: every skill with a link to its Markdown, and the site's agent endpoints.",
		MIMEType:    "text/plain",
		URI:         LLMSURI,
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		b, err := site.LLMS(ctx)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, mcp.ResourceNotFoundError(req.Params.URI)
		}
		if err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: LLMSURI, MIMEType: "text/plain", Text: string(b)}}}, nil
	})
	return s
}

// skillText is get_skill's answer: the Markdown, then the files.
func skillText(sk *siteread.Skill, offset int) (string, error) {
	md := sk.Markdown
	if offset < 0 || offset > len(md) || (offset > 0 && (offset == len(md) || !utf8.RuneStart(md[offset]))) {
		return "", fmt.Errorf("offset is %d, and the skill's Markdown has %d bytes; give an offset a previous answer ended with, or none", offset, len(md))
	}
	part := md[offset:]
	if len(part) > MaxSkillText {
		cut := strings.LastIndexByte(part[:MaxSkillText], '\n') + 1
		if cut < MaxSkillText/2 { // a long line: cut it, between characters
			for cut = MaxSkillText; cut > 0 && !utf8.RuneStart(part[cut]); cut-- {
			}
		}
		next := offset + cut
		data, _ := json.Marshal(SkillInput{Name: sk.Name, Offset: next})
		return fmt.Sprintf("%s\n---\n\nThis is bytes %d to %d of the %d of %s (page: %s). Read on with get_skill %s; "+
			"query_skill answers questions about the skill without reading it whole. The skill's files are listed after its last part.\n",
			part[:cut], offset, next, len(md), sk.MarkdownURL, sk.Page, data), nil
	}
	var b strings.Builder
	b.WriteString(part)
	if !strings.HasSuffix(part, "\n") {
		b.WriteByte('\n')
	}
	if offset > 0 {
		fmt.Fprintf(&b, "\n---\n\nThis is bytes %d to %d, the last, of %s (page: %s).\n", offset, len(md), sk.MarkdownURL, sk.Page)
	} else {
		fmt.Fprintf(&b, "\n---\n\nThis is %s (page: %s).\n", sk.MarkdownURL, sk.Page)
	}
	if len(sk.Files) == 0 {
		return b.String(), nil
	}
	b.WriteString("\nFiles of the skill:\n\n")
	for _, f := range sk.Files {
		line, _ := json.Marshal(f.Path)
		fmt.Fprintf(&b, "- %s", line)
		switch {
		case f.Bytes >= 0:
			fmt.Fprintf(&b, " (%d bytes)", f.Bytes)
		case f.Size != "":
			fmt.Fprintf(&b, " (%s)", f.Size)
		}
		if f.URL != "" {
			fmt.Fprintf(&b, ": %s", f.URL)
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

func ptr[T any](v T) *T { return &v }
