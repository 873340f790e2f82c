package main

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

// TestServeReadsConfigAgain: serve watches its config file, and an edit
// to it (the title here) reaches the pages without a restart.
func TestServeReadsConfigAgain(t *testing.T) {
	root := testutil.WriteTxtar(t, t.TempDir(), `
-- skilldex.yaml --
title: First title
sources: [skills]
-- skills/alpha/SKILL.md --
---
name: alpha
description: The one skill of the catalog.
---
# Alpha
`)
	config := filepath.Join(root, "skilldex.yaml")
	t.Setenv("TMPDIR", t.TempDir())
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"serve", "--config", config, "--port", "0"}, strings.NewReader(""), io.Discard, &stderr)
	}()
	defer func() { cancel(); <-done }()
	var base string
	waitUntil(t, "the server to start", func() bool {
		m := regexp.MustCompile(`serving on (http://127\.0\.0\.1:\d+/)`).FindStringSubmatch(stderr.String())
		if m != nil {
			base = m[1]
		}
		return m != nil
	}, &stderr)
	home := func() string {
		res, err := http.Get(base)
		if err != nil {
			return ""
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return string(b)
	}
	if !strings.Contains(home(), "First title") {
		t.Fatalf("home page: %q", home())
	}
	if err := os.WriteFile(config, []byte("title: Second title\nsources: [skills]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the new title", func() bool { return strings.Contains(home(), "Second title") }, &stderr)
	// A config that cannot be read fails the rebuild, and says why; the
	// site stays.
	if err := os.WriteFile(config, []byte("title: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the config's error", func() bool { return strings.Contains(stderr.String(), "rebuild failed") }, &stderr)
	if !strings.Contains(stderr.String(), "skilldex.yaml") || !strings.Contains(home(), "Second title") {
		t.Errorf("after a broken config: stderr %q", stderr.String())
	}
}
