package browsertest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Timeout bounds each action a Tab runs (a navigation, a wait for an
// element, a key press): generous, since the machine may be busy, and
// reached only when something is broken.
var Timeout = 30 * time.Second

// A Kind names a sort of problem a tab records.
type Kind string

// The kinds of problem a tab records.
const (
	Dialog    Kind = "dialog"    // alert, confirm, prompt or beforeunload; dismissed
	Exception Kind = "exception" // an uncaught exception or unhandled rejection
	Console   Kind = "console"   // console.error or console.assert
	Log       Kind = "log"       // a browser log entry of level error: CSP violations, failed loads
	Request   Kind = "request"   // a request to another origin; blocked
	// Accessibility is a WCAG 2.2 A or AA rule that axe-core finds broken
	// on a page a tab loaded (see Tab.CheckAccessibility).
	Accessibility Kind = "accessibility"
)

// A Problem is something wrong that a page did.
type Problem struct {
	Kind Kind
	// Page is the URL of the page shown when it happened.
	Page string
	// Text says what happened, in the browser's words where it has them.
	Text string
}

func (p Problem) String() string { return fmt.Sprintf("%s on %s: %s", p.Kind, p.Page, p.Text) }

// A Tab is one browser tab. It records the problems of the pages it shows
// (see Problems) and blocks every request whose URL is not on its origin.
// Use a tab from one goroutine at a time.
type Tab struct {
	ctx    context.Context
	cancel func()
	origin string
	axe    string // axe-core's script when pages are checked, else ""
	// noScripts is set while the tab's pages run no script (see
	// DisableScripts): Settle then cannot wait for a page's timers.
	noScripts bool

	mu       sync.Mutex
	page     string                     // URL of the main frame's document
	problems []Problem                  // since the last Problems
	inflight map[network.RequestID]bool // requests sent and not finished
}

// NewTab opens a tab that allows requests to origin ("http://127.0.0.1:4242",
// see Server.Origin) and to no other. Close closes it.
func (b *Browser) NewTab(origin string) (*Tab, error) {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("browsertest: origin %q is not scheme://host[:port]", origin)
	}
	t := &Tab{origin: u.Scheme + "://" + u.Host, page: "about:blank", inflight: map[network.RequestID]bool{}}
	t.ctx, t.cancel = chromedp.NewContext(b.ctx, chromedp.WithListener(t.listen))
	// The first Do opens the tab; the tab lives as long as t.ctx.
	if err := chromedp.Do(t.ctx); err != nil {
		t.cancel()
		return nil, fmt.Errorf("browsertest: opening a tab: %w", err)
	}
	err = t.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, fetch.Enable, fetch.EnableParams{
			Patterns: []*fetch.RequestPattern{{URLPattern: "*"}},
		})
		return err
	}))
	if err != nil {
		t.cancel()
		return nil, fmt.Errorf("browsertest: intercepting requests: %w", err)
	}
	return t, nil
}

// NewTab opens a tab for tb that allows requests to origin only, and closes
// it when tb ends. When tb ends, the problems the tab recorded and that
// were not taken with Problems fail tb. Every page the tab loads is
// checked with axe-core when it is installed (see AxeSource), which it
// must be when the environment variable CI is set.
func NewTab(tb testing.TB, b *Browser, origin string) *Tab {
	tb.Helper()
	t, err := b.NewTab(origin)
	if err != nil {
		tb.Fatal(err)
	}
	if src, err := AxeSource(); err == nil {
		t.CheckAccessibility(src)
	} else if os.Getenv("CI") != "" {
		t.Close()
		tb.Fatalf("%v (CI is set, so the accessibility checks must run)", err)
	}
	tb.Cleanup(func() {
		for _, p := range t.Problems() {
			tb.Errorf("%s", p)
		}
		t.Close()
	})
	return t
}

// Close closes the tab.
func (t *Tab) Close() { t.cancel() }

// CheckAccessibility makes the tab check every page it loads from now on
// (Visit, WaitURL) with axe-core, whose script is src (see AxeSource), and
// record each violation as a problem of kind Accessibility.
func (t *Tab) CheckAccessibility(src string) { t.axe = src }

// checkLoaded runs the checks a loaded page gets.
func (t *Tab) checkLoaded() error {
	if t.axe == "" {
		return nil
	}
	if t.noScripts {
		// axe-core waits on timers, which a page without scripts never
		// fires: the page runs scripts again for the check only. Its own
		// scripts were skipped at load and stay skipped.
		if err := t.DisableScripts(false); err != nil {
			return err
		}
		defer t.DisableScripts(true) //nolint:errcheck // a gone tab fails the next call anyway
	}
	vs, err := t.Axe(t.axe)
	if err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, v := range vs {
		t.problems = append(t.problems, Problem{Kind: Accessibility, Page: v.Page, Text: v.describe()})
	}
	return nil
}

// Context returns the tab's chromedp context, for chromedp.Run and
// chromedp.Do. It has no deadline: Do and Run bound each call by Timeout.
func (t *Tab) Context() context.Context { return t.ctx }

// Do runs actions in the tab, one after another, within Timeout.
func (t *Tab) Do(actions ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(t.ctx, Timeout)
	defer cancel()
	return chromedp.Do(ctx, actions...)
}

// Run runs one action in tab within Timeout and returns its value.
func Run[T any](tab *Tab, a chromedp.Action[T]) (T, error) {
	ctx, cancel := context.WithTimeout(tab.ctx, Timeout)
	defer cancel()
	return chromedp.Run(ctx, a)
}

// Eval evaluates a JavaScript expression in tab's page and returns its value
// decoded as T; a promise is awaited.
func Eval[T any](tab *Tab, expr string) (T, error) {
	return Run(tab, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
}

// Visit loads url and waits until the page settled (see Settle). An HTTP
// status of 400 or more is an error.
func (t *Tab) Visit(url string) error {
	resp, err := Run(t, chromedp.NavigateResponse(url))
	if err != nil {
		return fmt.Errorf("visiting %s: %w", url, err)
	}
	if resp != nil && resp.Status >= 400 {
		return fmt.Errorf("visiting %s: HTTP %d %s", url, resp.Status, resp.StatusText)
	}
	if err := t.Settle(); err != nil {
		return err
	}
	return t.checkLoaded()
}

// Settle waits until the page finished loading and, after its scripts had
// a turn, no request is in flight: whatever it fetches on load has come.
func (t *Tab) Settle() error {
	ctx, cancel := context.WithTimeout(t.ctx, Timeout)
	defer cancel()
	quiet := chromedp.Evaluate[string](`new Promise(r => requestAnimationFrame(() => setTimeout(() => r(document.readyState), 0)))`, chromedp.EvalAwaitPromise)
	if t.noScripts {
		// A page that runs no script has no timer to wait for either.
		quiet = chromedp.Evaluate[string](`document.readyState`)
	}
	for idle := 0; idle < 2; {
		if t.noScripts && idle > 0 {
			pause(ctx)
		}
		state, err := chromedp.Run(ctx, quiet)
		if err != nil {
			if ctx.Err() != nil {
				return fmt.Errorf("settling %s: %w (requests in flight: %d)", t.Page(), err, t.busy())
			}
			idle = 0 // a navigation replaced the document: ask the new one
			pause(ctx)
			continue
		}
		if state == "complete" && t.busy() == 0 {
			idle++
		} else {
			idle = 0
		}
	}
	return nil
}

// WaitURL waits until the tab shows a loaded page whose URL satisfies ok,
// for actions that navigate without waiting (a key press, a click), and
// returns that URL.
func (t *Tab) WaitURL(ok func(url string) bool) (string, error) {
	ctx, cancel := context.WithTimeout(t.ctx, Timeout)
	defer cancel()
	probe := chromedp.Evaluate[string](`new Promise(r => setTimeout(() => r(document.readyState === 'complete' ? location.href : ''), 10))`, chromedp.EvalAwaitPromise)
	if t.noScripts {
		probe = chromedp.Evaluate[string](`document.readyState === 'complete' ? location.href : ''`)
	}
	for {
		if t.noScripts {
			pause(ctx)
		}
		href, err := chromedp.Run(ctx, probe)
		if ctx.Err() != nil {
			return "", fmt.Errorf("waiting for the URL (now %s): %w", t.Page(), ctx.Err())
		}
		if err == nil && href != "" && ok(href) {
			if err := t.Settle(); err != nil {
				return href, err
			}
			return href, t.checkLoaded()
		}
		if err != nil {
			pause(ctx) // between two documents: let the next one come
		}
	}
}

// Page returns the URL of the page the tab shows.
func (t *Tab) Page() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.page
}

// Problems returns the problems recorded since the last call, oldest first.
func (t *Tab) Problems() []Problem {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.problems
	t.problems = nil
	return p
}

func (t *Tab) busy() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.inflight)
}

func (t *Tab) add(kind Kind, text string) {
	t.problems = append(t.problems, Problem{Kind: kind, Page: t.page, Text: text})
}

// local reports whether a request to rawURL stays on the tab's origin.
// URLs that fetch nothing from a network (data:, blob:, about:) count as
// local: the Content Security Policy governs them, and a violation shows
// up as a log entry.
func (t *Tab) local(rawURL string) bool {
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	switch u.Scheme {
	case "data", "blob", "about":
		return true
	}
	return u.Scheme+"://"+u.Host == t.origin
}

// listen runs in the tab's event loop, in the order the browser sent the
// events. It must return quickly and send no command itself, so the
// answers to paused requests and dialogs go from goroutines.
func (t *Tab) listen(ev any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch ev := ev.(type) {
	case *page.EventFrameNavigated:
		if ev.Frame != nil && ev.Frame.ParentID == "" {
			t.page = ev.Frame.URL
		}
	case *page.EventJavascriptDialogOpening:
		t.add(Dialog, fmt.Sprintf("%s dialog %q", ev.Type, ev.Message))
		go t.call(func(ctx context.Context) error {
			_, err := chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
			return err
		})
	case *runtime.EventExceptionThrown:
		t.add(Exception, exceptionText(ev.ExceptionDetails))
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			t.add(Console, "console."+string(ev.Type)+": "+argsText(ev.Args)+stackPlace(ev.StackTrace))
		}
	case *log.EventEntryAdded:
		if e := ev.Entry; e != nil && e.Level == log.EntryLevelError {
			text := string(e.Source) + ": " + e.Text
			if e.URL != "" && !strings.Contains(e.Text, e.URL) {
				text += " (" + e.URL + ")"
			}
			t.add(Log, text)
		}
	case *network.EventRequestWillBeSent:
		if ev.Request == nil {
			return
		}
		// An event stream (skilldex serve's live reload) stays open
		// as long as the page: it is never a load to wait for.
		if ev.Type != network.ResourceTypeEventSource {
			t.inflight[ev.RequestID] = true
		}
		if !t.local(ev.Request.URL) {
			t.add(Request, ev.Request.Method+" "+ev.Request.URL+" (blocked)")
		}
	case *network.EventLoadingFinished:
		delete(t.inflight, ev.RequestID)
	case *network.EventLoadingFailed:
		delete(t.inflight, ev.RequestID)
	case *fetch.EventRequestPaused:
		id, local := ev.RequestID, ev.Request != nil && t.local(ev.Request.URL)
		go t.call(func(ctx context.Context) error {
			if local {
				_, err := chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: id})
				return err
			}
			_, err := chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: id, ErrorReason: network.ErrorReasonBlockedByClient})
			return err
		})
	}
}

// call sends a command from outside the event loop. It fails only when the
// tab has gone, when there is nothing left to answer.
func (t *Tab) call(f func(ctx context.Context) error) {
	ctx, cancel := context.WithTimeout(t.ctx, Timeout)
	defer cancel()
	if err := f(ctx); err != nil && !errors.Is(err, context.Canceled) && t.ctx.Err() == nil {
		t.mu.Lock()
		t.add(Log, "browsertest: answering the browser: "+err.Error())
		t.mu.Unlock()
	}
}

// exceptionText formats an uncaught exception as DevTools shows it, with
// the place it was thrown.
func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "(no details)"
	}
	text := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		text += " " + d.Exception.Description
	} else if d.Exception != nil && len(d.Exception.Value) > 0 {
		text += " " + string(d.Exception.Value)
	}
	place := d.URL
	if place == "" && d.StackTrace != nil && len(d.StackTrace.CallFrames) > 0 {
		place = d.StackTrace.CallFrames[0].URL
	}
	if place != "" && !strings.Contains(text, place) {
		text += fmt.Sprintf(" (at %s:%d:%d)", place, d.LineNumber+1, d.ColumnNumber+1)
	}
	return text
}

// argsText formats the arguments of a console call.
func argsText(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		switch {
		case a == nil:
		case a.Type == runtime.RemoteObjectTypeString && len(a.Value) > 0:
			var s string
			if err := json.Unmarshal(a.Value, &s); err != nil {
				s = string(a.Value)
			}
			parts = append(parts, s)
		case a.Description != "":
			parts = append(parts, a.Description)
		case len(a.Value) > 0:
			parts = append(parts, string(a.Value))
		default:
			parts = append(parts, string(a.Type))
		}
	}
	return strings.Join(parts, " ")
}

// stackPlace returns " (at URL:line:column)" for the top of a stack.
func stackPlace(s *runtime.StackTrace) string {
	if s == nil || len(s.CallFrames) == 0 {
		return ""
	}
	f := s.CallFrames[0]
	return fmt.Sprintf(" (at %s:%d:%d)", f.URL, f.LineNumber+1, f.ColumnNumber+1)
}

// pause waits a moment before a condition is checked again.
func pause(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Millisecond):
	}
}

// Wait waits until the JavaScript expression expr is truthy in the page
// the tab shows now (a navigation ends the wait with an error).
func (t *Tab) Wait(expr string) error {
	_, err := Run(t, chromedp.Poll[chromedp.Void](expr,
		chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(Timeout)))
	if err != nil {
		return fmt.Errorf("waiting on %s for %s: %w", t.Page(), expr, err)
	}
	return nil
}

// EmulateColorScheme makes the tab's pages see prefers-color-scheme as
// scheme, "light" or "dark" ("" gives the system's back). It lasts across
// navigations.
func (t *Tab) EmulateColorScheme(scheme string) error {
	params := emulation.SetEmulatedMediaParams{}
	if scheme != "" {
		params.Features = []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}
	}
	return t.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, emulation.SetEmulatedMedia, params)
		return err
	}))
}

// DisableScripts stops (or, with false, lets again) the pages of the tab
// from running scripts, as a browser with JavaScript turned off does; the
// tests' own expressions (Eval) still run. It lasts across navigations.
func (t *Tab) DisableScripts(disabled bool) error {
	return t.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		_, err := cdp.Call(ctx, target, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: disabled})
		if err == nil {
			t.noScripts = disabled
		}
		return err
	}))
}

// Keys types keys into the focused element as a person's keyboard does:
// each key is one keydown event, which carries the key's text, and one
// keyup. A page that cancels the keydown thus stops the text too, as in a
// real browser (chromedp.KeyEvent sends the text as a separate event,
// which a cancelled keydown does not stop). Name special keys with the
// constants of package github.com/chromedp/chromedp/kb (kb.Enter,
// kb.ArrowDown).
func (t *Tab) Keys(keys string) error {
	return t.Do(chromedp.Func(func(ctx context.Context, target *chromedp.Target) error {
		for _, r := range keys {
			var down, up *input.DispatchKeyEventParams
			for _, ev := range kb.Encode(r) {
				switch ev.Type {
				case input.DispatchKeyEventTypeKeyDown:
					down = ev
				case input.DispatchKeyEventTypeChar:
					if down != nil {
						down.Text, down.UnmodifiedText = ev.Text, ev.UnmodifiedText
					}
				case input.DispatchKeyEventTypeKeyUp:
					up = ev
				}
			}
			if down == nil || up == nil {
				return fmt.Errorf("browsertest: no key for %q", r)
			}
			if down.Text == "" {
				down.Type = input.DispatchKeyEventTypeRawKeyDown
			}
			for _, ev := range []*input.DispatchKeyEventParams{down, up} {
				if _, err := cdp.Call(ctx, target, input.DispatchKeyEvent, *ev); err != nil {
					return err
				}
			}
		}
		return nil
	}))
}
