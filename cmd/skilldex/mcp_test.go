package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPBuildsTheCatalog: without --site, mcp builds the catalog (here
// the demo, as there is no skilldex.yaml) into a temporary folder, serves
// it, and leaves nothing behind.
func TestMCPBuildsTheCatalog(t *testing.T) {
	cwd := t.TempDir()
	t.Chdir(cwd)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	done := make(chan int)
	go func() {
		code := run(context.Background(), []string{"mcp"}, inR, outW, &stderr)
		outW.Close()
		done <- code
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	session, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := session.CallTool(context.Background(), &mcp.CallToolParams{Name: "query_skill", Arguments: map[string]any{"query": "csv-profiler:meta.type"}})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; res.IsError || !strings.Contains(text, `"value": "hybrid"`) {
		t.Errorf("query_skill on the demo: %s", text)
	}
	session.Close()
	if code := <-done; code != 0 {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "8 skills") {
		t.Errorf("stderr: %s", stderr.String())
	}
	for _, dir := range []string{cwd, tmp} {
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("%s holds %v after the server ended", dir, entries)
		}
	}
}

// TestMCPStartErrors: a folder or address without a site gives one clear
// error at start, exit 2.
func TestMCPStartErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--site", t.TempDir()}, "holds no .skilldex-site"},
		{[]string{"mcp", "--site", "http://127.0.0.1:1/skills/"}, "cannot read the site at http://127.0.0.1:1/skills/"},
		{[]string{"mcp", "extra"}, "skilldex mcp takes no arguments"},
	} {
		code, out, errs := runCLI(t, c.args...)
		if code != exitFailure || out != "" || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and one line with %q", c.args, code, out, errs, c.want)
		}
	}
}
