package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// AxeTags are the axe-core rule tags the pages are checked against: WCAG
// 2.0, 2.1 and 2.2 at levels A and AA.
var AxeTags = []string{"wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa"}

// A Violation is one accessibility rule that elements of a page break.
type Violation struct {
	Rule   string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"` // CSS selectors of the elements, with axe's summary of what is wrong
	Page   string   `json:"-"`
}

func (v Violation) String() string { return v.describe() + " on " + v.Page }

// maxNodes bounds the elements a violation lists: a rule broken by every
// search result says it once, with a count.
const maxNodes = 4

// describe says what is broken and where, without the page.
func (v Violation) describe() string {
	nodes := v.Nodes
	more := ""
	if len(nodes) > maxNodes {
		more = fmt.Sprintf("; and %d more", len(nodes)-maxNodes)
		nodes = nodes[:maxNodes]
	}
	return fmt.Sprintf("%s (%s): %s: %s%s", v.Rule, v.Impact, v.Help, strings.Join(nodes, "; "), more)
}

// axeSource caches axe-core's script (see AxeSource).
var axeSource struct {
	once sync.Once
	src  string
	err  error
}

// AxeSource returns axe-core's script, installed by npm ci in this
// package's folder (package.json pins the version): $AXE_CORE when set,
// else node_modules/axe-core/axe.min.js beside this file.
func AxeSource() (string, error) {
	axeSource.once.Do(func() {
		path := os.Getenv("AXE_CORE")
		if path == "" {
			_, file, _, ok := runtime.Caller(0)
			if !ok {
				axeSource.err = fmt.Errorf("browsertest: cannot tell where the package's folder is; set $AXE_CORE to axe.min.js")
				return
			}
			path = filepath.Join(filepath.Dir(file), "node_modules", "axe-core", "axe.min.js")
		}
		b, err := os.ReadFile(path)
		if err != nil {
			axeSource.err = fmt.Errorf("browsertest: axe-core not installed (%v): run npm ci in internal/browsertest", err)
			return
		}
		axeSource.src = string(b)
	})
	return axeSource.src, axeSource.err
}

// RequireAxe returns axe-core's script. Without it, it skips tb, or fails
// it when the environment variable CI is set, as Require does for the
// browser.
func RequireAxe(tb testing.TB) string {
	tb.Helper()
	src, err := AxeSource()
	if err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("%v (CI is set, so the accessibility checks must run)", err)
		}
		tb.Skipf("skipping accessibility check: %v", err)
	}
	return src
}

// axeRun runs axe on the document and returns its violations, each node
// as its selector and axe's summary of what to fix.
const axeRun = `axe.run(document, {runOnly: {type: 'tag', values: %s}, resultTypes: ['violations']})
  .then(r => r.violations.map(v => ({id: v.id, impact: v.impact || '', help: v.help,
    nodes: v.nodes.map(n => n.target.join(' ') + ' — ' + (n.failureSummary || '').replace(/\s+/g, ' ').trim())})))`

// Axe checks the page the tab shows with axe-core (src is its script, see
// AxeSource) and returns the violations of AxeTags' rules. The script is
// evaluated through the debugger, so the page's Content Security Policy
// stays as it is and sees no script it did not ask for.
func (t *Tab) Axe(src string) ([]Violation, error) {
	var out []Violation
	tags := `["` + strings.Join(AxeTags, `","`) + `"]`
	err := t.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		// axe defines itself on window once per document.
		loaded, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`typeof window.axe === 'object'`))
		if err != nil {
			return err
		}
		if !loaded {
			if _, err := chromedp.Run(ctx, chromedp.Evaluate[*cdpruntime.RemoteObject](src)); err != nil {
				return fmt.Errorf("injecting axe-core: %w", err)
			}
		}
		out, err = chromedp.Run(ctx, chromedp.Evaluate[[]Violation](fmt.Sprintf(axeRun, tags), chromedp.EvalAwaitPromise))
		return err
	}))
	if err != nil {
		return nil, fmt.Errorf("axe on %s: %w", t.Page(), err)
	}
	page := t.Page()
	for i := range out {
		out[i].Page = page
	}
	return out, nil
}
