// Package mcpclient drives an MCP server over stdio with a real MCP
// client, the official TypeScript SDK (the npm package
// @modelcontextprotocol/sdk, which agents' hosts are built on), for tests
// of skilldex mcp.
//
// The SDK is pinned in testdata/package.json and package-lock.json and
// installed by
//
//	npm ci --prefix internal/mcpclient/testdata
//
// which .ci/run does; it runs on the machine's Node.js (20 or newer, as
// its engines field asks 18). Without them the tests are skipped, except
// when the environment variable CI is set: there they fail, so that CI
// cannot pass by skipping.
package mcpclient

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// Client is the installed SDK and the Node.js that runs it.
type Client struct {
	Node   string // the node binary
	Script string // testdata/client.mjs
}

// ErrNotInstalled is returned by Find when npm ci has not been run.
var ErrNotInstalled = errors.New("mcpclient: the MCP TypeScript SDK is not installed; run npm ci --prefix internal/mcpclient/testdata")

// Find returns the client of the folder dir (this package's testdata).
func Find(dir string) (*Client, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("mcpclient: node is not installed (Node.js 18 or newer runs the MCP TypeScript SDK): %w", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err != nil {
		return nil, ErrNotInstalled
	}
	script, err := filepath.Abs(filepath.Join(dir, "client.mjs"))
	if err != nil {
		return nil, err
	}
	return &Client{Node: node, Script: script}, nil
}

// Require returns the client installed beside this package. Without it, it
// skips tb, or fails it when the environment variable CI is set.
func Require(tb testing.TB) *Client {
	tb.Helper()
	_, file, _, _ := runtime.Caller(0)
	c, err := Find(filepath.Join(filepath.Dir(file), "testdata"))
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("%v (CI is set, so the MCP client tests must run)", err)
		}
		tb.Skipf("skipping: %v", err)
	}
	return c
}

// Call is a tool call of a scenario.
type Call struct {
	Label     string         `json:"label"`
	Tool      string         `json:"tool"`
	Arguments map[string]any `json:"arguments"`
}

// Scenario is what the client does: start the server with Command, Args
// and Env, list its tools, resource templates and resources, make the
// calls, read the resources, and close.
type Scenario struct {
	Command   string            `json:"command"`
	Args      []string          `json:"args"`
	Env       map[string]string `json:"env"`
	Calls     []Call            `json:"calls"`
	Resources []string          `json:"resources"`
}

// Result is what the client got.
type Result struct {
	Server struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"server"`
	Tools []struct {
		Name        string         `json:"name"`
		InputSchema map[string]any `json:"inputSchema"`
	} `json:"tools"`
	Templates    []string              `json:"templates"`
	ResourceList []string              `json:"resourceList"`
	Calls        map[string]CallResult `json:"calls"`
	Resources    map[string]struct {
		Text     string `json:"text"`
		MIMEType string `json:"mimeType"`
		Error    string `json:"error"`
	} `json:"resources"`
}

// CallResult is the result of a tool call, or the protocol's refusal.
type CallResult struct {
	IsError    bool            `json:"isError"`
	Text       string          `json:"text"`
	Structured json.RawMessage `json:"structured"`
	Error      string          `json:"error"`
}

// Run plays the scenario.
func (c *Client) Run(ctx context.Context, s Scenario) (*Result, error) {
	f, err := os.CreateTemp("", "mcpclient-*.json")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	if err := json.NewEncoder(f).Encode(s); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, c.Node, c.Script, f.Name())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("node client.mjs: %v\n%s", err, stderr.String())
	}
	var r Result
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		return nil, fmt.Errorf("node client.mjs printed %q: %v\n%s", stdout.String(), err, stderr.String())
	}
	return &r, nil
}
