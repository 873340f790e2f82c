package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
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
	if got, want := session.InitializeResult().ServerInfo.Version, thisVersion().Module; got != want {
		t.Errorf("the server's version %q, want %q, as skilldex version says", got, want)
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

// initializeLine is a client's first message, on a line of its own.
const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// demoSite builds the demo catalog's site and returns its folder.
func demoSite(t *testing.T) string {
	t.Helper()
	site := filepath.Join(t.TempDir(), "site")
	if code := run(context.Background(), []string{"build", "-q", "-o", site}, nil, io.Discard, io.Discard); code != 0 {
		t.Fatalf("build: exit %d", code)
	}
	return site
}

// TestMCPAnswersPipedRequests: a client that writes its requests and
// closes the input at once (printf ... | skilldex mcp) gets every answer.
// The SDK cancels what is in flight when its input ends, which lost
// answers in most runs before the end was held back.
func TestMCPAnswersPipedRequests(t *testing.T) {
	site := demoSite(t)
	input := strings.Join([]string{
		initializeLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_skills","arguments":{"query":"csv"}}}`,
		// The input's last bytes, with no line break.
		`{"jsonrpc": "2.0", "id": "four", "method": "tools/call", "params": {"name": "query_skill", "arguments": {"query": "csv-profiler:meta.type"}}}`,
	}, "\n")
	for range 5 {
		var stdout, stderr bytes.Buffer
		if code := run(context.Background(), []string{"mcp", "--site", site}, strings.NewReader(input), &stdout, &stderr); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr.String())
		}
		var ids []string
		for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Result json.RawMessage `json:"result"`
			}
			if err := json.Unmarshal([]byte(line), &m); err != nil || m.Result == nil {
				t.Fatalf("not an answer: %s", line)
			}
			ids = append(ids, string(m.ID))
		}
		slices.Sort(ids) // tools are called concurrently
		if got := strings.Join(ids, " "); got != `"four" 1 2 3` {
			t.Fatalf("answers to %s, want 1, 2, 3 and \"four\"", got)
		}
	}
}

// TestMCPAnswersBadInput: input that is no JSON-RPC message is answered
// with an error, and the session goes on; the SDK's transport ended it at
// the first such line, and skilldex mcp exited with status 2. A batch is
// answered message by message, also where the protocol has none.
func TestMCPAnswersBadInput(t *testing.T) {
	site := demoSite(t)
	input := strings.Join([]string{
		initializeLine,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{not json`,
		`{"jsonrpc":"2.0","id":2,"method":"ping"}`,
		`[]`,
		`42`,
		`"jsonrpc":"1.0"`,
		`{"jsonrpc":"1.0","id":9,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":10,"method":"ping"}, {"id":11,"method":"ping"}, [{"jsonrpc":"2.0","id":12,"method":"ping"}]]`,
		`[{"jsonrpc":"2.0","id":13,"method":"ping"}, {"jsonrpc":"2.0","id":13,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":3,"method":"ping"}{"jsonrpc":"2.0","id":4,"method":"ping"}`,
		// Pretty-printed: MCP's stdio has a message a line.
		`{"jsonrpc":"2.0","id":14,`,
		`"method":"ping"}`,
		`{"jsonrpc":"2.0","id":6,"method":"ping"}`,
		`{"jsonrpc":"2.0","ID":15,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":5,"method":`,
	}, "\n")
	want := map[string]string{ // id: "result", or the error code
		"1": "result", "2": "result", "3": "result", "4": "result", "6": "result", "9": "-32600",
		"10": "result", "11": "-32600", "13": "result",
	}
	// Errors without an id: bad JSON three times ({not json, and the
	// ':' after the strings "jsonrpc" and "method"), two lines ending
	// inside a message; [], 42, the strings "jsonrpc" and "method", the
	// batch inside a batch.
	wantErrors := map[int64]int{-32700: 5, -32600: 5}
	for name, in := range map[string]func() io.Reader{
		"at once":       func() io.Reader { return strings.NewReader(input) },
		"byte for byte": func() io.Reader { return iotest.OneByteReader(strings.NewReader(input)) },
	} {
		var stdout, stderr bytes.Buffer
		start := time.Now()
		if code := run(context.Background(), []string{"mcp", "--site", site}, in(), &stdout, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr.String())
		}
		if d := time.Since(start); d > answerWait/2 {
			t.Errorf("%s: the server took %v to end: it waited for an answer that does not come", name, d)
		}
		got := map[string]string{}
		errs := map[int64]int{}
		for _, line := range strings.Split(strings.TrimSpace(stdout.String()), "\n") {
			var m struct {
				ID     json.RawMessage `json:"id"`
				Result json.RawMessage `json:"result"`
				Error  *struct {
					Code    int64  `json:"code"`
					Message string `json:"message"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(line), &m); err != nil {
				t.Fatalf("%s: not a message: %s", name, line)
			}
			switch {
			case m.Error != nil:
				if m.Error.Message == "" {
					t.Errorf("%s: an error without a message: %s", name, line)
				}
				if string(m.ID) == "null" {
					errs[m.Error.Code]++
				} else {
					got[string(m.ID)] = strconv.FormatInt(m.Error.Code, 10)
				}
			case m.Result != nil:
				got[string(m.ID)] = "result"
			}
		}
		if !maps.Equal(got, want) {
			t.Errorf("%s: answers %v, want %v\n%s", name, got, want, stdout.String())
		}
		if !maps.Equal(errs, wantErrors) {
			t.Errorf("%s: errors without an id %v, want %v\n%s", name, errs, wantErrors, stdout.String())
		}
	}
}

// TestResponseIDs: the server's answers are found however they are
// spread over writes and lines, in batches too; requests are not answers.
func TestResponseIDs(t *testing.T) {
	var out jsonValues
	var ids []string
	for _, chunk := range []string{
		`{"id":1,"result":{}}` + "\n" + `{"id":2,"res`,
		`ult":{"text": "a } and a \" and ]"}}`,
		"\n{\n  \"id\": \"3\",\n  \"error\": {}\n}",
		`{"method":"n"}{"id":4,"method":"a"}{"id":null,"result":{}}`,
		`[{"id":5,"result":1},{"id":6,"error":{}},{"method":"n"}]`,
		`{"id":7,`,
	} {
		out.feed([]byte(chunk), func(v []byte) {
			for _, id := range responseIDs(v) {
				ids = append(ids, responseKey(id))
			}
		})
	}
	if got := strings.Join(ids, " "); got != "n1 n2 s3 n5 n6" || string(out.buf) != `{"id":7,` {
		t.Errorf("ids %s, partial %q; want n1 n2 s3 n5 n6 and {\"id\":7,", got, out.buf)
	}
}

// TestRequestKeys: a request's id and the id of the SDK's answer to it
// have one key, however the request writes it.
func TestRequestKeys(t *testing.T) {
	for _, id := range []string{`7`, `7.0`, `7e0`, `7.5`, `-3`, `"7"`, `"x y"`, `9007199254740993`} {
		msg, err := jsonrpc.DecodeMessage([]byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`))
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		req := msg.(*jsonrpc.Request)
		answer, err := jsonrpc.EncodeMessage(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)})
		if err != nil {
			t.Fatal(err)
		}
		written := responseIDs(answer)
		if len(written) != 1 || requestKey(req.ID) != responseKey(written[0]) {
			t.Errorf("id %s: request key %s, the answer %s", id, requestKey(req.ID), answer)
		}
	}
}

// TestMCPAnswersEachLine: a message is answered once its line has come,
// without waiting for more input, also after a line that ended inside a
// message (which swallowed the next message when a message could span
// lines), and after a line too long for the SDK, which ended the session.
func TestMCPAnswersEachLine(t *testing.T) {
	site := demoSite(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int)
	go func() {
		done <- run(context.Background(), []string{"mcp", "--site", site}, inR, outW, io.Discard)
		outW.Close()
	}()
	// Answers are read as they come, as a client does: a pipe holds
	// none.
	answers := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			answers <- sc.Text()
		}
		close(answers)
	}()
	send := func(line string) {
		t.Helper()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	expect := func(want string) {
		t.Helper()
		select {
		case line := <-answers:
			if !strings.Contains(line, want) {
				t.Fatalf("answer %.200s, want one holding %s", line, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no answer holding %s within 10 s", want)
		}
	}
	send(initializeLine)
	expect(`"id":1,"result"`)
	send(`{"jsonrpc":"2.0","id":2,"method":"ping","params":`)
	expect(`"code":-32700`)
	send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	expect(`"id":3,"result"`)
	send(`{"jsonrpc":"2.0","id":4,"method":"ping","params":{"x":"` + strings.Repeat("x", maxMessage) + `"}}`)
	expect(`"code":-32600`)
	send(`{"jsonrpc":"2.0","id":5,"method":"ping"}`)
	expect(`"id":5,"result"`)
	inW.Close()
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
}
