package browsertest_test

import (
	"context"
	"fmt"
	"math"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/serve"
	"github.com/skilldex/skilldex/internal/browsertest"
	"github.com/skilldex/skilldex/internal/fswatch"
)

// TestLiveReloadKeepsScroll serves a site as skilldex serve does, scrolls
// a long page down, edits its skill, and checks that the page reloaded
// with the edit and is scrolled where it was: someone reading what they
// write keeps their place.
func TestLiveReloadKeepsScroll(t *testing.T) {
	path := browsertest.Require(t)
	axe := browsertest.RequireAxe(t)
	src := t.TempDir()
	var body strings.Builder
	for i := range 60 {
		fmt.Fprintf(&body, "## Step %d\n\nParagraph %d of a long skill, long enough to scroll through on any screen.\n\n", i, i)
	}
	skill := filepath.Join(src, "long", "SKILL.md")
	write := func(marker string) {
		t.Helper()
		text := "---\nname: long\ndescription: A long skill, scrolled while it is edited.\n---\n# Long\n\n" + body.String() + marker + "\n"
		if err := os.MkdirAll(filepath.Dir(skill), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(skill, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("First draft.")
	opt := build.Options{LoadOptions: build.LoadOptions{Sources: []string{src}}, Output: filepath.Join(t.TempDir(), "site")}
	if _, err := build.Build(context.Background(), opt); err != nil {
		t.Fatal(err)
	}
	srv := &serve.Server{
		Dir:      opt.Output,
		BasePath: "/",
		Watching: fswatch.Options{Roots: []string{src}},
		Rebuild: func(ctx context.Context, _ []string) error {
			_, err := build.Build(ctx, opt)
			return err
		},
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go srv.Watch(ctx)
	hs := httptest.NewServer(srv.Handler())
	defer hs.Close()
	defer cancel() // ends the page's event stream before the server closes

	b, err := browsertest.Start(path, filepath.Join(t.TempDir(), "profile"))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	tab := browsertest.NewTab(t, b, hs.URL)
	tab.CheckAccessibility(axe)
	check(t, tab, tab.Do(chromedp.EmulateViewport(phoneWidth, 640)))
	check(t, tab, tab.Visit(hs.URL+"/skills/long/"))
	check(t, tab, tab.Wait(`document.body.scrollHeight > 3 * innerHeight`))
	// Listening for reloads: the event stream is open.
	for srv.Clients() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	// Chromium restores the position of a page reloaded as it was; not
	// every browser does, and none can when the new page is not yet as
	// long when it loads. The script keeps the position itself, which
	// the test checks with the browser's own restoration turned off.
	const y = 1500
	top, err := browsertest.Eval[float64](tab, fmt.Sprintf(`history.scrollRestoration = 'manual', window.scrollTo(0, %d), window.beforeReload = true, scrollY`, y))
	check(t, tab, err)
	if math.Abs(top-y) > 1 {
		t.Fatalf("scrolled to %v, want %d", top, y)
	}

	write("Second draft.")
	// The page navigates meanwhile: a failed evaluation is one in the
	// old page or between the two, and the next one asks the new page.
	reloaded := `!window.beforeReload && document.readyState === 'complete' && document.body.textContent.includes('Second draft.')`
	for deadline := time.Now().Add(browsertest.Timeout); ; time.Sleep(20 * time.Millisecond) {
		if ok, err := browsertest.Eval[bool](tab, reloaded); err == nil && ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the page did not reload with the edit")
		}
	}
	check(t, tab, tab.Settle())
	after, err := browsertest.Eval[float64](tab, `scrollY`)
	check(t, tab, err)
	if math.Abs(after-y) > 1 {
		t.Errorf("after the reload the page is scrolled to %v, want %d (where it was)", after, y)
	}
}
