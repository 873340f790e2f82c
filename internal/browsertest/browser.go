// Package browsertest drives a real browser, headless Chromium, over a site
// that skilldex built, the way a person would use it: pages are served over
// HTTP under a base path (as a GitHub project site is), and every tab
// records what a person would call broken: JavaScript dialogs, uncaught
// exceptions, console errors (Content Security Policy violations included)
// and any request that leaves the site's origin, which the tab also blocks.
//
// Tests call New for a browser, Serve for the site and Browser.NewTab for a
// tab, then drive the tab with chromedp actions. Without a Chromium binary
// the tests are skipped, except when the environment variable CI is set:
// there a missing browser fails, so that CI cannot pass by skipping.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/chromedp/chromedp"
)

// candidates are the names Chromium is looked for under, after $CHROMIUM.
var candidates = []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"}

// ErrNoChromium is returned by Chromium when no browser binary is found.
var ErrNoChromium = errors.New("browsertest: no Chromium found ($CHROMIUM, /usr/bin/chromium, chromium, chromium-browser, google-chrome); install the Debian package chromium")

// Chromium returns the path of a Chromium binary: $CHROMIUM when set, else
// the first of /usr/bin/chromium, chromium, chromium-browser and
// google-chrome that exists.
func Chromium() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		path, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("browsertest: $CHROMIUM=%s: %w", p, err)
		}
		return path, nil
	}
	for _, name := range candidates {
		if path, err := exec.LookPath(name); err == nil {
			return path, nil
		}
	}
	return "", ErrNoChromium
}

// Require returns the path of Chromium. Without one it skips tb, or fails
// it when the environment variable CI is set.
func Require(tb testing.TB) string {
	tb.Helper()
	path, err := Chromium()
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("%v (CI is set, so the browser tests must run)", err)
		}
		tb.Skipf("skipping browser test: %v", err)
	}
	return path
}

// Flags are the Chromium command-line flags every browser starts with,
// besides chromedp's defaults and a fresh --user-data-dir. The
// background-networking flags keep Chromium from calling Google's
// services, which this machine cannot reach.
var Flags = []string{
	"headless",
	"no-sandbox",
	"disable-gpu",
	"disable-quic",
	"no-first-run",
	"disable-background-networking",
	"disable-component-update",
	"disable-sync",
	"disable-default-apps",
	"disable-domain-reliability",
	"disable-breakpad",
	"no-default-browser-check",
	"hide-scrollbars",
	"mute-audio",
}

// A Browser is one running Chromium process. Its tabs may be used one after
// another or from separate goroutines (one goroutine per tab).
type Browser struct {
	ctx    context.Context // the browser's chromedp context
	cancel func()
}

// Start runs the Chromium at execPath with a profile in userDataDir, which
// should be a fresh, empty folder. Close stops it.
func Start(execPath, userDataDir string) (*Browser, error) {
	opts := append([]chromedp.ExecAllocatorOption{}, chromedp.DefaultExecAllocatorOptions[:]...)
	for _, f := range Flags {
		opts = append(opts, chromedp.Flag(f, true))
	}
	opts = append(opts,
		chromedp.ExecPath(execPath),
		chromedp.UserDataDir(userDataDir),
		chromedp.WindowSize(1280, 900),
	)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelCtx := chromedp.NewContext(allocCtx)
	b := &Browser{ctx: ctx, cancel: func() { cancelCtx(); cancelAlloc() }}
	// The first Do starts the browser; its context must outlive this call,
	// so it gets no timeout of its own (chromedp binds the browser to it).
	if err := chromedp.Do(ctx); err != nil {
		b.Close()
		return nil, fmt.Errorf("browsertest: starting %s: %w", execPath, err)
	}
	return b, nil
}

// New starts a browser for tb (see Require for when it skips), with a
// fresh profile, and stops it when tb ends.
func New(tb testing.TB) *Browser {
	tb.Helper()
	path := Require(tb)
	b, err := Start(path, tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(b.Close)
	return b
}

// Close stops the browser and waits for its process to end.
func (b *Browser) Close() { b.cancel() }
