package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
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
