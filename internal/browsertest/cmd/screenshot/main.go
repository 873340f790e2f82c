// Command screenshot saves full-page PNG screenshots of a skilldex site in
// headless Chromium, in the light and the dark colour scheme and at a
// desktop and a phone width, for people to look at:
//
//	go run ./internal/browsertest/cmd/screenshot -out /tmp/shots
//	go run ./internal/browsertest/cmd/screenshot -site public -base /skills/ -out /tmp/shots
//
// Without -site it builds the demo catalog (content/) first. Each page is
// saved as NAME-SCHEME-WIDTH.png (home-dark-390.png); the problems the
// pages had (exceptions, console errors, requests to other origins) are
// printed, and make the command exit with status 1.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/chromedp/chromedp"

	"github.com/skilldex/skilldex/internal/browsertest"
)

func main() {
	site := flag.String("site", "", "the built site folder (default: build the demo catalog into a temporary folder)")
	base := flag.String("base", "/skills/", "the base path the site was built for, and is served under")
	out := flag.String("out", "shots", "the folder to write the PNG files to")
	pages := flag.String("pages", "home=,skill=skills/release-notes/", "comma-separated NAME=SITE-PATH pairs of the pages to take")
	widths := flag.String("widths", "1280,390", "comma-separated viewport widths in CSS pixels")
	screen := flag.Bool("screen", false, "take what the first screen shows (900 px high) instead of the whole page")
	flag.Parse()
	if err := run(*site, *base, *out, *pages, *widths, *screen); err != nil {
		fmt.Fprintln(os.Stderr, "screenshot:", err)
		os.Exit(1)
	}
}

func run(site, base, out, pages, widths string, screen bool) error {
	path, err := browsertest.Chromium()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "skilldex-screenshot-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	dir := site
	if dir == "" {
		dir = filepath.Join(tmp, "site")
	}
	srv, err := browsertest.Serve(dir, base)
	if err != nil {
		return err
	}
	defer srv.Close()
	if site == "" {
		if err := browsertest.BuildDemo(context.Background(), dir, srv.URL); err != nil {
			return fmt.Errorf("building the demo: %w", err)
		}
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	b, err := browsertest.Start(path, filepath.Join(tmp, "profile"))
	if err != nil {
		return err
	}
	defer b.Close()
	tab, err := b.NewTab(srv.Origin)
	if err != nil {
		return err
	}
	defer tab.Close()

	var ws []int64
	for _, w := range strings.Split(widths, ",") {
		var n int64
		if _, err := fmt.Sscan(strings.TrimSpace(w), &n); err != nil || n < 200 {
			return fmt.Errorf("-widths: %q is not a width of at least 200", w)
		}
		ws = append(ws, n)
	}
	problems := 0
	for _, pair := range strings.Split(pages, ",") {
		name, sitePath, ok := strings.Cut(strings.TrimSpace(pair), "=")
		if !ok || name == "" {
			return fmt.Errorf("-pages: %q is not NAME=SITE-PATH", pair)
		}
		for _, scheme := range []string{"light", "dark"} {
			for _, w := range ws {
				if err := tab.EmulateColorScheme(scheme); err != nil {
					return err
				}
				if err := tab.Do(chromedp.EmulateViewport(w, 900)); err != nil {
					return err
				}
				if err := tab.Visit(srv.Page(sitePath)); err != nil {
					return err
				}
				shot := chromedp.FullScreenshot(100)
				if screen {
					shot = chromedp.CaptureScreenshot()
				}
				png, err := browsertest.Run(tab, shot)
				if err != nil {
					return err
				}
				file := filepath.Join(out, fmt.Sprintf("%s-%s-%d.png", name, scheme, w))
				if err := os.WriteFile(file, png, 0o644); err != nil {
					return err
				}
				fmt.Println(file)
				for _, p := range tab.Problems() {
					fmt.Fprintln(os.Stderr, p)
					problems++
				}
			}
		}
	}
	if problems > 0 {
		return fmt.Errorf("%d problems on the pages", problems)
	}
	return nil
}
