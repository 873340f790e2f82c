package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skilldex/skilldex/internal/testutil"
)

// syncBuffer is a bytes.Buffer the server goroutines and the test share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestServeRebuildsOnEdit(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), cliCatalog)
	src := filepath.Join(dir, "ok")
	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", src, "--port", "0", "--base-url", "https://example.com/repo/"}, strings.NewReader(""), io.Discard, &stderr)
	}()
	wait := func(what string, re *regexp.Regexp) []string {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
			if m := re.FindStringSubmatch(stderr.String()); m != nil {
				return m
			}
		}
		cancel()
		t.Fatalf("timed out waiting for %s; stderr:\n%s", what, stderr.String())
		return nil
	}
	m := wait("the server", regexp.MustCompile(`serving on (http://\S+/repo/)`))
	res, err := http.Get(m[1] + "search/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	before, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Fatalf("GET the search manifest under the base path: %d", res.StatusCode)
	}

	skill := filepath.Join(src, "SKILL.md")
	b, _ := os.ReadFile(skill)
	os.WriteFile(skill, bytes.Replace(b, []byte("A valid skill"), []byte("An edited skill"), 1), 0o644)
	wait("a rebuild", regexp.MustCompile(`rebuilt in`))
	res, err = http.Get(m[1] + "search/manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	after, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if bytes.Equal(before, after) {
		t.Error("the served site did not change after the edit")
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("serve exited %d: %s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop when its context ended")
	}
}

// TestServePortFailsBeforeBuilding: a port that is no port, or one in
// use, fails serve at once, with what to do, before any build: nothing
// is written to the output folder and no build is reported.
func TestServePortFailsBeforeBuilding(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), cliCatalog)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	busy := strconv.Itoa(taken.Addr().(*net.TCPAddr).Port)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--port", "99999"}, "--port 99999 is not a port; give one from 1 to 65535, or 0 for any free port"},
		{[]string{"--port", "-1"}, "--port -1 is not a port"},
		{[]string{"--port", busy}, "port " + busy + " on 127.0.0.1 is in use, by another skilldex serve or another server; stop it, or choose another port with --port (0: any free port)"},
		{[]string{"--port", "0", "--host", "nosuch.invalid"}, "--host nosuch.invalid is not a known host name or an address"},
	}
	for _, c := range cases {
		out := filepath.Join(t.TempDir(), "site")
		args := append([]string{"serve", filepath.Join(dir, "ok"), "-o", out}, c.args...)
		code, _, stderr := runCLI(t, args...)
		if code != exitFailure || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", c.args, code, stderr, c.want)
		}
		if strings.Contains(stderr, "published") {
			t.Errorf("%v: built before failing:\n%s", c.args, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: wrote %s before failing", c.args, out)
		}
	}
}

// TestServeQuiet: with --quiet, serve prints its address and nothing
// else while it runs, rebuilds included.
func TestServeQuiet(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), cliCatalog)
	src := filepath.Join(dir, "ok")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", src, "--port", "0", "-q"}, strings.NewReader(""), io.Discard, &stderr)
	}()
	serving := regexp.MustCompile(`^serving on http://\S+/ \(Ctrl-C to stop\)\n$`)
	for deadline := time.Now().Add(20 * time.Second); !serving.MatchString(stderr.String()); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("serve -q printed %q; want only the address", stderr.String())
		}
	}
	skill := filepath.Join(src, "SKILL.md")
	b, _ := os.ReadFile(skill)
	os.WriteFile(skill, bytes.Replace(b, []byte("A valid skill"), []byte("An edited skill"), 1), 0o644)
	// The rebuild's files show up in the output folder; serve's output
	// must not grow meanwhile. There is no event to wait for but the
	// server's reply changing.
	url := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(stderr.String()), "serving on "), " (Ctrl-C to stop)")
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		res, err := http.Get(url + "skills/ok/")
		if err != nil {
			t.Fatal(err)
		}
		page, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if bytes.Contains(page, []byte("An edited skill")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the edit was never served")
		}
	}
	cancel()
	if code := <-done; code != exitOK {
		t.Errorf("serve exited %d", code)
	}
	if !serving.MatchString(stderr.String()) {
		t.Errorf("serve -q printed more than its address:\n%s", stderr.String())
	}
}

// TestServeRebuildFindings: after a rebuild, serve prints the errors and
// warnings of the skills it parsed again or whose findings changed (a
// skill shadowed by a new one), with file:line:col, and the catalog's
// count of errors and warnings when it changed, so that a fix shows too.
// A rebuild that changes no finding prints none.
func TestServeRebuildFindings(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), `
-- skills/alpha/SKILL.md --
---
name: alpha
description: The first skill.
---
# Alpha

Body.
-- skills/beta/SKILL.md --
---
name: beta
description: The second skill.
---
# Beta

Body.
`)
	src := filepath.Join(dir, "skills")
	ctx, cancel := context.WithCancel(context.Background())
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", src, "--port", "0"}, strings.NewReader(""), io.Discard, &stderr)
	}()
	defer func() {
		cancel()
		<-done
	}()
	// since waits for the lines of want in what serve printed after mark,
	// and returns what it printed.
	since := func(what string, mark int, want ...string) string {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			out := stderr.String()[mark:]
			missing := ""
			for _, re := range want {
				if !regexp.MustCompile(`(?m)^` + re).MatchString(out) {
					missing = re
					break
				}
			}
			if missing == "" {
				return out
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: timed out waiting for %q; serve printed:\n%s", what, missing, out)
			}
		}
	}
	if out := since("the first build", 0, `serving on `); strings.Contains(out, "warning:") {
		t.Fatalf("the first build warns:\n%s", out)
	}
	// skill puts a skill in place at once, as a rename: one change.
	skill := func(folder, frontmatter string) func() {
		return func() {
			tmp := filepath.Join(t.TempDir(), "SKILL.md")
			if err := os.WriteFile(tmp, []byte("---\n"+frontmatter+"---\n# Title\n\nBody.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Join(src, folder), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, filepath.Join(src, folder, "SKILL.md")); err != nil {
				t.Fatal(err)
			}
		}
	}
	move := func(from, to string) func() {
		return func() {
			if err := os.Rename(filepath.Join(src, from), filepath.Join(src, to)); err != nil {
				t.Fatal(err)
			}
		}
	}
	steps := []struct {
		name string
		do   func()
		want []string // regular expressions of lines
		not  string   // a regular expression no line matches
	}{
		{"a rename makes a warning", move("beta", "delta"),
			[]string{`skills/delta/SKILL\.md:\d+:\d+: warning: .*\[name-dir-mismatch\]$`, `now 0 errors, 1 warning \(was 0 errors, 0 warnings\)$`}, `error:`},
		{"a new skill shadows another", skill("gamma", "name: alpha\ndescription: Another first skill.\n"),
			[]string{`skills/alpha/SKILL\.md:\d+:\d+: warning: the name "alpha" is taken by skills/gamma/SKILL\.md.*\[name-shadowed\]$`, `now 0 errors, 3 warnings \(was 0 errors, 1 warning\)$`}, `skills/delta`},
		{"an error", skill("broken", "name: broken\n"),
			[]string{`skills/broken/SKILL\.md:\d+:\d+: error: .*\[description-missing\]$`, `now 1 error, 3 warnings \(was 0 errors, 3 warnings\)$`}, `warning:`},
		{"the error fixed", skill("broken", "name: broken\ndescription: Fixed.\n"),
			[]string{`now 0 errors, 3 warnings \(was 1 error, 3 warnings\)$`}, `error:|warning:`},
		{"no finding changed", skill("broken", "name: broken\ndescription: Fixed again.\n"),
			nil, `error:|warning:|now `},
		{"warnings fixed", move("delta", "beta"),
			[]string{`now 0 errors, 2 warnings \(was 0 errors, 3 warnings\)$`}, `error:|warning:`},
	}
	for _, s := range steps {
		mark := len(stderr.String())
		s.do()
		out := since(s.name, mark, append(s.want, `\d\d:\d\d:\d\d rebuilt in`)...)
		if regexp.MustCompile(`(?m)^.*(` + s.not + `)`).MatchString(out) {
			t.Errorf("%s: serve printed a line with %q:\n%s", s.name, s.not, out)
		}
	}
}
