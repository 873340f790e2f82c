package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/skilldex/skilldex/internal/testutil"
)

// loadCatalog is the catalog served under load: alpha is edited again and
// again (its description carries the revision marker), beta never changes,
// and gamma is added and removed (from stage/, outside the sources).
const loadCatalog = `
-- src/alpha/SKILL.md --
---
name: alpha
description: Alpha skill at rev0000 of the load test.
---
Alpha body rev0000.
-- src/beta/SKILL.md --
---
name: beta
description: Beta skill, which never changes.
---
Beta body.
-- stage/gamma/SKILL.md --
---
name: gamma
description: Gamma skill, added and removed while serving.
---
Gamma body.
`

// gammaMark is in every listing of the catalog while gamma is in it.
const gammaMark = "Gamma skill, added and removed"

// loadState is what the sources hold after one step of the load test.
type loadState struct {
	rev   int  // alpha's revision marker
	gamma bool // gamma is published
}

// loadSteps are the states of the sources, one change apart. Each change
// is a single rename, so every build sees exactly one of these states; the
// server must then serve each build whole.
var loadSteps = []loadState{
	{0, false}, {1, false}, {2, false}, {2, true}, {3, true}, {4, true},
	{4, false}, {5, false}, {5, true}, {6, true}, {6, false}, {7, false},
}

// An observation is what one response says about the build it came from:
// alpha's revision (-1: the response does not show it) and whether gamma
// is published (-1: it does not show that).
type observation struct{ rev, gamma int }

// matches reports whether state s could have produced o.
func (o observation) matches(s loadState) bool {
	return (o.rev < 0 || o.rev == s.rev) && (o.gamma < 0 || (o.gamma == 1) == s.gamma)
}

var revRe = regexp.MustCompile(`rev(\d{4})`)

// skilldex serve under load: clients request pages, feeds, API files,
// assets and the live-reload endpoints on loopback while the sources
// change (alpha edited, gamma added and removed) and the server rebuilds.
// Every response must be a whole file of one build: 200 (404 only for
// gamma while it is out), complete HTML with the CSP, valid JSON, and one
// revision per page. Across one client's requests the builds seen must
// never go back in time: a client that saw build g can never afterwards be
// served a file of a build before g, which is what a site swapped file by
// file (a torn read) serves. Live reload must announce every change, and
// once serve returns its goroutines, descriptors and temporary site must
// be gone.
//
// It runs under -short too: it is the one test that requests pages while
// a rebuild runs, which `make test` must race.
func TestServeUnderLoad(t *testing.T) {
	root := testutil.WriteTxtar(t, t.TempDir(), loadCatalog)
	src, stage := filepath.Join(root, "src"), filepath.Join(root, "stage")
	// serve's temporary site goes here, so the test can see it removed.
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)

	// The baseline comes after everything the process starts once and
	// keeps (the first build's lazily started runtime and library
	// goroutines), so a warm-up build runs first.
	if code, _, stderr := runCLI(t, "build", src, "-o", filepath.Join(root, "warm")); code != exitOK {
		t.Fatalf("warm-up build: exit %d: %s", code, stderr)
	}
	baseG, baseFD := runtime.NumGoroutine(), openFDs(t)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", src, "--port", "0", "--base-url", "https://example.com/repo/"}, strings.NewReader(""), io.Discard, &stderr)
	}()
	var base string
	waitUntil(t, "the server to start", func() bool {
		m := regexp.MustCompile(`serving on (http://127\.0\.0\.1:\d+)/repo/`).FindStringSubmatch(stderr.String())
		if m != nil {
			base = m[1]
		}
		return m != nil
	}, &stderr)

	tr := &http.Transport{MaxIdleConnsPerHost: 32}
	client := &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

	// Live reload: listeners that stay open through every change and
	// through shutdown, which must end their streams.
	const listeners = 3
	var reloads [listeners]atomic.Int32
	streamsEnded := make(chan struct{}, listeners)
	for i := range listeners {
		res, err := client.Get(base + "/__skilldex/events")
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != 200 {
			t.Fatalf("events: %d", res.StatusCode)
		}
		go func() {
			defer func() { res.Body.Close(); streamsEnded <- struct{}{} }()
			sc := bufio.NewScanner(res.Body)
			for sc.Scan() {
				if sc.Text() == "event: reload" {
					reloads[i].Add(1)
				}
			}
		}()
	}

	// applied is the last step whose change has begun: no response can
	// come from a later build.
	var applied atomic.Int32
	var stop atomic.Bool
	var served, failures atomic.Int64
	var errMu sync.Mutex
	var errs []string
	fail := func(format string, args ...any) {
		failures.Add(1)
		errMu.Lock()
		defer errMu.Unlock()
		if len(errs) < 20 {
			errs = append(errs, fmt.Sprintf(format, args...))
		}
	}

	urls := []string{
		"/repo/", "/repo/skills/alpha/", "/repo/feed.xml", "/repo/skills/gamma/",
		"/repo/api/v1/index.json", "/repo/skills/alpha/", "/repo/api/v1/skills/alpha.json",
		"/repo/assets/style.css", "/__skilldex/reload.js", "/repo/skills/beta/",
	}
	const clients, maxPerClient = 16, 4000
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			lo := 0 // the earliest step this client may still be served
			for i := 0; i < maxPerClient && !stop.Load(); i++ {
				u := urls[(c+i)%len(urls)]
				if i%97 == 0 {
					// A page opened and closed: the events endpoint
					// under churn.
					u = "/__skilldex/events"
				}
				o, ok := fetch(client, base+u, fail)
				hi := int(applied.Load())
				served.Add(1)
				if !ok || (o.rev < 0 && o.gamma < 0) {
					continue
				}
				g := lo
				for g <= hi && !o.matches(loadSteps[g]) {
					g++
				}
				if g > hi {
					fail("GET %s: served %+v, which no build from step %d (%+v) to %d (%+v) has: a file of an older build after a newer one", u, o, lo, loadSteps[lo], hi, loadSteps[hi])
					continue
				}
				lo = g
			}
		})
	}

	// The editor: one change per step, each a single rename, each waited
	// for until the server serves it and every listener heard a reload.
	start := time.Now()
	alpha := filepath.Join(src, "alpha", "SKILL.md")
	for step := 1; step < len(loadSteps); step++ {
		prev, next := loadSteps[step-1], loadSteps[step]
		applied.Store(int32(step))
		switch {
		case next.rev != prev.rev:
			b, err := os.ReadFile(alpha)
			if err != nil {
				t.Fatal(err)
			}
			b = revRe.ReplaceAll(b, fmt.Appendf(nil, "rev%04d", next.rev))
			staged := filepath.Join(stage, "alpha.md")
			if err := os.WriteFile(staged, b, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(staged, alpha); err != nil {
				t.Fatal(err)
			}
		case next.gamma:
			if err := os.Rename(filepath.Join(stage, "gamma"), filepath.Join(src, "gamma")); err != nil {
				t.Fatal(err)
			}
		default:
			if err := os.Rename(filepath.Join(src, "gamma"), filepath.Join(stage, "gamma")); err != nil {
				t.Fatal(err)
			}
		}
		waitUntil(t, fmt.Sprintf("step %d (%+v) to be served", step, next), func() bool {
			o, ok := fetch(client, base+"/repo/api/v1/index.json", func(string, ...any) {})
			return ok && o.matches(next)
		}, &stderr)
		waitUntil(t, fmt.Sprintf("the reload after step %d", step), func() bool {
			for i := range reloads {
				if int(reloads[i].Load()) < step {
					return false
				}
			}
			return true
		}, &stderr)
	}
	stop.Store(true)
	wg.Wait()
	elapsed := time.Since(start)
	rebuilds := strings.Count(stderr.String(), "rebuilt in")
	t.Logf("%d clients, %d requests in %s, %d changes, %d rebuilds, %d reload events per listener",
		clients, served.Load(), elapsed.Round(time.Millisecond), len(loadSteps)-1, rebuilds, reloads[0].Load())
	if n := failures.Load(); n > 0 {
		t.Errorf("%d bad responses of %d; the first:\n%s", n, served.Load(), strings.Join(errs, "\n"))
	}
	if rebuilds < len(loadSteps)-1 {
		t.Errorf("%d rebuilds for %d changes", rebuilds, len(loadSteps)-1)
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
	// serve must end the open event streams itself, not wait for pages to
	// close them.
	for range listeners {
		select {
		case <-streamsEnded:
		case <-time.After(10 * time.Second):
			t.Fatal("an event stream stayed open after serve returned")
		}
	}
	tr.CloseIdleConnections()
	if left, _ := filepath.Glob(filepath.Join(tmp, "skilldex-serve-*")); len(left) > 0 {
		t.Errorf("serve left its temporary site: %v", left)
	}
	settle := func(what string, now func() int, limit int) {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for now() > limit && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if n := now(); n > limit {
			buf := make([]byte, 1<<20)
			buf = buf[:runtime.Stack(buf, true)]
			t.Errorf("%d %s left after serve returned, %d allowed (the baseline); goroutines:\n%s", n, what, limit, buf)
		}
	}
	settle("goroutines", runtime.NumGoroutine, baseG)
	if baseFD >= 0 {
		// A little slack for descriptors the runtime opens once and keeps.
		settle("open descriptors", func() int { return openFDs(t) }, baseFD+2)
	}
	t.Logf("after shutdown: %d goroutines (baseline %d), %d descriptors (baseline %d)", runtime.NumGoroutine(), baseG, openFDs(t), baseFD)
}

// fetch GETs u and checks the response is whole: a 200 (or a 404 page for
// gamma), complete HTML with the CSP, valid JSON or XML, one revision of
// alpha throughout. It returns what the body says about its build.
func fetch(c *http.Client, u string, fail func(string, ...any)) (observation, bool) {
	o := observation{-1, -1}
	if strings.HasSuffix(u, "/__skilldex/events") {
		res, err := c.Get(u)
		if err != nil {
			fail("GET %s: %v", u, err)
			return o, false
		}
		defer res.Body.Close()
		line, _ := bufio.NewReader(res.Body).ReadString('\n')
		if res.StatusCode != 200 || line != ": connected\n" {
			fail("GET %s: %d %q", u, res.StatusCode, line)
			return o, false
		}
		return o, true
	}
	res, err := c.Get(u)
	if err != nil {
		fail("GET %s: %v", u, err)
		return o, false
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		fail("GET %s: reading the body: %v", u, err)
		return o, false
	}
	gammaPage := strings.HasSuffix(u, "/skills/gamma/")
	switch {
	case res.StatusCode == 200:
	case res.StatusCode == 404 && gammaPage:
		o.gamma = 0
	default:
		fail("GET %s: status %d: %.200s", u, res.StatusCode, body)
		return o, false
	}
	if len(body) == 0 {
		fail("GET %s: empty body", u)
		return o, false
	}
	ct := res.Header.Get("Content-Type")
	switch {
	case strings.HasPrefix(ct, "text/html"):
		if msg := wholePage(body); msg != "" {
			fail("GET %s: %s", u, msg)
			return o, false
		}
	case strings.HasSuffix(u, ".json"):
		if !json.Valid(body) {
			fail("GET %s: invalid JSON: %.200s", u, body)
			return o, false
		}
	case strings.HasSuffix(u, ".xml"):
		if !bytes.HasSuffix(bytes.TrimSpace(body), []byte("</feed>")) {
			fail("GET %s: truncated feed: ...%s", u, tail(body))
			return o, false
		}
	}
	if gammaPage {
		if res.StatusCode == 200 {
			o.gamma = 1
		}
		return o, true
	}
	revs := map[string]bool{}
	for _, m := range revRe.FindAllSubmatch(body, -1) {
		revs[string(m[1])] = true
	}
	if len(revs) > 1 {
		fail("GET %s: one page, several revisions %v", u, revs)
		return o, false
	}
	for r := range revs {
		fmt.Sscan(r, &o.rev)
	}
	// The listings show gamma while it is published; alpha's own files
	// show only alpha.
	if u := strings.TrimSuffix(u, "/"); strings.HasSuffix(u, "/repo") || strings.HasSuffix(u, ".xml") || strings.HasSuffix(u, "/index.json") {
		o.gamma = 0
		if bytes.Contains(body, []byte(gammaMark)) {
			o.gamma = 1
		}
	}
	return o, true
}

// wholePage says what is wrong with an HTML page served, or "".
func wholePage(b []byte) string {
	if _, err := html.Parse(bytes.NewReader(b)); err != nil {
		return "does not parse: " + err.Error()
	}
	if !bytes.HasSuffix(bytes.TrimSpace(b), []byte("</html>")) {
		return "truncated: ..." + tail(b)
	}
	if !bytes.Contains(b, []byte(`<meta http-equiv="Content-Security-Policy"`)) {
		return "no Content-Security-Policy meta"
	}
	if !bytes.Contains(b, []byte(`<script src="/__skilldex/reload.js"></script>`)) {
		return "no live-reload script"
	}
	return ""
}

func tail(b []byte) string {
	return string(b[max(0, len(b)-80):])
}

// openFDs counts this process's open descriptors, or -1 where the system
// does not list them.
func openFDs(t *testing.T) int {
	t.Helper()
	if runtime.GOOS != "linux" {
		return -1
	}
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return -1
	}
	return len(ents)
}

// waitUntil polls ok until it holds, failing the test after a generous
// deadline (the machine may be slow; nothing here is timed).
func waitUntil(t *testing.T, what string, ok func() bool, log *syncBuffer) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			if log != nil {
				t.Fatalf("timed out waiting for %s; stderr:\n%s", what, log.String())
			}
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}
