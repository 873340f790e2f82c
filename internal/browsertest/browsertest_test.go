package browsertest_test

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/skilldex/skilldex/internal/browsertest"
)

// The demo site and the browser are made once, by the first test that needs
// them, and shared: starting Chromium and building take most of the time.
var shared struct {
	once    sync.Once
	err     error
	dir     string
	srv     *browsertest.Server
	browser *browsertest.Browser
}

// base is where the site is served, as a GitHub project site would be.
const base = "/skills/"

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.browser != nil {
		shared.browser.Close()
	}
	if shared.srv != nil {
		shared.srv.Close()
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	if corpusSite.srv != nil {
		corpusSite.srv.Close()
	}
	if corpusSite.dir != "" {
		os.RemoveAll(corpusSite.dir)
	}
	os.Exit(code)
}

// demo returns the server of the demo site and the shared browser; it skips
// t when there is no Chromium (and fails it under CI).
func demo(t *testing.T) (*browsertest.Server, *browsertest.Browser) {
	t.Helper()
	path := browsertest.Require(t)
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "skilldex-browsertest-")
		if shared.err != nil {
			return
		}
		shared.srv, shared.err = browsertest.Serve(shared.dir+"/site", base)
		if shared.err != nil {
			return
		}
		if shared.err = browsertest.BuildDemo(context.Background(), shared.srv.Dir, shared.srv.URL); shared.err != nil {
			shared.err = fmt.Errorf("building the demo site: %w", shared.err)
			return
		}
		shared.browser, shared.err = browsertest.Start(path, shared.dir+"/profile")
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.srv, shared.browser
}

// check fails t with err, and with the problems tab recorded so far.
func check(t *testing.T, tab *browsertest.Tab, err error) {
	t.Helper()
	for _, p := range tab.Problems() {
		t.Errorf("%s", p)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// TestEveryPage loads every HTML page of the demo site, one after another in
// one tab, on a phone-sized screen: none may open a dialog, throw, log an
// error (a CSP violation, a failed load), ask another origin for anything,
// or be wider than the screen (a page that scrolls sideways).
func TestEveryPage(t *testing.T) {
	srv, b := demo(t)
	pages, err := browsertest.Pages(srv.Dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) < 10 {
		t.Fatalf("the demo site has %d HTML pages, want at least 10: %q", len(pages), pages)
	}
	tab := browsertest.NewTab(t, b, srv.Origin)
	check(t, tab, tab.Do(chromedp.EmulateViewport(phoneWidth, 800)))
	for _, p := range pages {
		name := strings.TrimSuffix(p, "/")
		if name == "" {
			name = "home"
		}
		t.Run(name, func(t *testing.T) {
			err := tab.Visit(srv.Page(p))
			if err == nil && p == "search/" {
				// The search client fetches its index after load; its
				// status line says when it is ready (or why not).
				err = tab.Wait(`document.getElementById('search-status').textContent !== ''`)
			}
			check(t, tab, err)
			title, err := browsertest.Eval[string](tab, `document.title`)
			if err != nil {
				t.Fatal(err)
			}
			if title == "" {
				t.Errorf("%s has no <title>", p)
			}
			wide, err := browsertest.Eval[[]string](tab, overflowJS)
			if err != nil {
				t.Fatal(err)
			}
			if len(wide) > 0 {
				t.Errorf("the page is wider than a %dpx screen; these elements stick out: %s", phoneWidth, strings.Join(wide, ", "))
			}
		})
	}
}

// phoneWidth is the width, in CSS pixels, of a small phone's screen.
const phoneWidth = 360

// overflowJS lists the elements that make the page scroll sideways: those
// whose right edge is past the viewport and that no scrolling box clips.
const overflowJS = `(() => {
	const width = document.documentElement.clientWidth;
	if (document.documentElement.scrollWidth <= width) return [];
	const clipped = (el) => {
		for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
			if (getComputedStyle(e).overflowX !== 'visible') return true;
		}
		return false;
	};
	const out = [];
	for (const el of document.querySelectorAll('body *')) {
		const r = el.getBoundingClientRect();
		if (r.right > width + 0.5 && !clipped(el)) {
			out.push(el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className ? '.' + String(el.className).trim().replace(/\s+/g, '.') : '') + ' (right edge ' + Math.round(r.right) + 'px)');
		}
	}
	return out.length ? out.slice(0, 8) : ['(none found, but scrollWidth is ' + document.documentElement.scrollWidth + 'px)'];
})()`

// result is one option of the search page's result list.
type result struct {
	Name     string   `json:"name"`
	Href     string   `json:"href"`
	Selected bool     `json:"selected"`
	Labels   []string `json:"labels"`
}

// resultsJS reads the result list of the search page.
const resultsJS = `[...document.querySelectorAll('#search-results .search-result')].map(li => ({
	name: li.querySelector('.search-name').textContent,
	href: li.querySelector('a').href,
	selected: li.querySelector('a') === document.activeElement,
	labels: [...li.querySelectorAll('.search-label')].map(l => l.textContent),
}))`

func results(t *testing.T, tab *browsertest.Tab) []result {
	t.Helper()
	rs, err := browsertest.Eval[[]result](tab, resultsJS)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func names(rs []result) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.Name
	}
	return out
}

// activeID returns the id of the focused element.
func activeID(t *testing.T, tab *browsertest.Tab) string {
	t.Helper()
	id, err := browsertest.Eval[string](tab, `document.activeElement ? document.activeElement.id : ''`)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// waitResults waits until the search page shows results.
const waitResults = `document.querySelector('#search-results .search-result')`

// TestSearchKeyboard searches the way a keyboard user does: "/" on the home
// page focuses the header's search box, Enter lands on the search page with
// the query, ArrowDown moves the focus to the first result's link, the
// arrows move along the results and back to the box, and Enter opens the
// focused result.
func TestSearchKeyboard(t *testing.T) {
	srv, b := demo(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	check(t, tab, tab.Visit(srv.URL))

	check(t, tab, tab.Keys("/"))
	if id := activeID(t, tab); id != "sd-q" {
		t.Fatalf(`after "/" on the home page the focus is on #%s, want the header's search box #sd-q`, id)
	}
	const query = "release notes"
	check(t, tab, tab.Keys(query))
	if v, _ := browsertest.Eval[string](tab, `document.getElementById('sd-q').value`); v != query {
		t.Fatalf("the header's search box holds %q after typing %q", v, query)
	}

	check(t, tab, tab.Keys(kb.Enter))
	href, err := tab.WaitURL(func(u string) bool { return strings.Contains(u, base+"search/") })
	check(t, tab, err)
	if q := queryOf(t, href).Get("q"); q != query {
		t.Errorf("Enter in the header's search box went to %s: q=%q, want %q", href, q, query)
	}
	check(t, tab, tab.Wait(waitResults))
	if v, _ := browsertest.Eval[string](tab, `document.getElementById('search-q').value`); v != query {
		t.Errorf("the search page's box holds %q, want the query %q", v, query)
	}
	rs := results(t, tab)
	if len(rs) == 0 || rs[0].Name != "release-notes" {
		t.Fatalf("results for %q are %q, want release-notes first", query, names(rs))
	}

	if id := activeID(t, tab); id != "search-q" {
		t.Errorf("on the search page the focus is on #%s, want the search box #search-q (autofocus); pressing \"/\"", id)
		check(t, tab, tab.Keys("/"))
	}
	check(t, tab, tab.Keys(kb.ArrowDown))
	rs = results(t, tab)
	if !rs[0].Selected {
		t.Fatalf("ArrowDown did not focus the first result: %+v", rs)
	}
	if len(rs) > 1 {
		check(t, tab, tab.Keys(kb.ArrowDown))
		if rs := results(t, tab); !rs[1].Selected {
			t.Errorf("a second ArrowDown did not focus the second result: %+v", rs)
		}
		check(t, tab, tab.Keys(kb.ArrowUp))
	}
	check(t, tab, tab.Keys(kb.ArrowUp))
	if id := activeID(t, tab); id != "search-q" {
		t.Errorf("ArrowUp on the first result left the focus on #%s, want the search box", id)
	}
	check(t, tab, tab.Keys(kb.ArrowDown))
	if rs := results(t, tab); !rs[0].Selected {
		t.Fatalf("ArrowDown from the box again did not focus the first result: %+v", rs)
	}

	check(t, tab, tab.Keys(kb.Enter))
	want := srv.Page("skills/release-notes/")
	href, err = tab.WaitURL(func(u string) bool { return !strings.Contains(u, "/search/") })
	check(t, tab, err)
	if href != want || href != rs[0].Href {
		t.Errorf("Enter on the focused result went to %s, want %s (the result links to %s)", href, want, rs[0].Href)
	}
	if h1, _ := browsertest.Eval[string](tab, `document.querySelector('h1').textContent`); h1 != "release-notes" {
		t.Errorf("the skill page's <h1> is %q, want release-notes", h1)
	}
}

func queryOf(t *testing.T, href string) url.Values {
	t.Helper()
	u, err := url.Parse(href)
	if err != nil {
		t.Fatal(err)
	}
	return u.Query()
}

// TestSearchURL loads search pages from their URL, as a shared link does.
func TestSearchURL(t *testing.T) {
	srv, b := demo(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	for _, tc := range []struct {
		query  string
		first  string // the first result's name; "" for no result
		status string // the status line holds this
	}{
		{query: "release notes", first: "release-notes", status: "match"},
		{query: "csv", first: "csv-profiler", status: "match"},
		{query: "mermaid", first: "mermaid-diagrams", status: "match"},
		{query: "zzqxj", status: "No skill matches."},
	} {
		t.Run(tc.query, func(t *testing.T) {
			check(t, tab, tab.Visit(srv.Page("search/?q="+url.QueryEscape(tc.query))))
			check(t, tab, tab.Wait(`/match/i.test(document.getElementById('search-status').textContent)`))
			status, _ := browsertest.Eval[string](tab, `document.getElementById('search-status').textContent`)
			if !strings.Contains(status, tc.status) {
				t.Errorf("status %q, want it to contain %q", status, tc.status)
			}
			if v, _ := browsertest.Eval[string](tab, `document.getElementById('search-q').value`); v != tc.query {
				t.Errorf("the search box holds %q, want %q from the URL", v, tc.query)
			}
			rs := results(t, tab)
			switch {
			case tc.first == "" && len(rs) > 0:
				t.Errorf("results %q, want none", names(rs))
			case tc.first != "" && (len(rs) == 0 || rs[0].Name != tc.first):
				t.Errorf("results %q, want %s first", names(rs), tc.first)
			}
		})
	}
}

// TestSearchFacet narrows a search with a facet: the results and the URL
// change, the query stays in the URL, the filtered URL loads as it was
// shared, and Back returns to the unfiltered results.
func TestSearchFacet(t *testing.T) {
	srv, b := demo(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	const query = "notes"
	check(t, tab, tab.Visit(srv.Page("search/?q="+query)))
	check(t, tab, tab.Wait(waitResults+` && document.querySelector('#search-facets input[type=checkbox]')`))
	before := results(t, tab)
	if len(before) < 2 {
		t.Fatalf("results for %q are %q, want at least two to filter", query, names(before))
	}

	// Pick a value of the Type facet that some results have and some not.
	var facet struct {
		ID, Value string
		Want      []string
	}
	for _, id := range []string{"type", "format"} {
		// Each value with what its label shows, which the cards show too.
		values, err := browsertest.Eval[[][2]string](tab, fmt.Sprintf(`[...document.querySelectorAll('#search-facets input[name=%q]')].map(i => [i.value, i.parentElement.textContent.replace(/\(\d+\)\s*$/, '').trim()])`, id))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range values {
			var want []string
			for _, r := range before {
				if contains(r.Labels, v[1]) {
					want = append(want, r.Name)
				}
			}
			if len(want) > 0 && len(want) < len(before) {
				facet.ID, facet.Value, facet.Want = id, v[0], want
				break
			}
		}
		if facet.ID != "" {
			break
		}
	}
	if facet.ID == "" {
		t.Fatalf("no type or format facet value splits the results %+v", before)
	}

	// Formats show as people name them, in the facet and on the cards.
	formats, err := browsertest.Eval[[]string](tab, `[...document.querySelectorAll('#search-facets input[name=format]')].map(i => i.parentElement.textContent.replace(/\(\d+\)\s*$/, '').trim())`)
	check(t, tab, err)
	if !contains(formats, "SKILL.md") || contains(formats, "skill-md") {
		t.Errorf("the format facet shows %q, want SKILL.md for skill-md", formats)
	}
	for _, r := range before {
		if contains(r.Labels, "skill-md") {
			t.Errorf("result %s is labelled %q, want SKILL.md, not skill-md", r.Name, r.Labels)
		}
	}

	sel := fmt.Sprintf(`#search-facets input[name=%q][value=%q]`, facet.ID, facet.Value)
	check(t, tab, tab.Do(chromedp.Click(chromedp.CSS(sel))))
	check(t, tab, tab.Wait(fmt.Sprintf(`document.querySelectorAll('#search-results .search-result').length === %d`, len(facet.Want))))
	after := results(t, tab)
	if got := names(after); strings.Join(got, " ") != strings.Join(facet.Want, " ") {
		t.Errorf("with %s=%s the results are %q, want %q", facet.ID, facet.Value, got, facet.Want)
	}
	href, err := browsertest.Eval[string](tab, `location.href`)
	check(t, tab, err)
	q := queryOf(t, href)
	if q.Get("q") != query || q.Get(facet.ID) != facet.Value {
		t.Errorf("with %s=%s checked the URL is %s, want q=%s and %s=%s", facet.ID, facet.Value, href, query, facet.ID, facet.Value)
	}

	// The filtered URL, loaded afresh, shows the same results, box checked.
	check(t, tab, tab.Visit(href))
	check(t, tab, tab.Wait(waitResults))
	if got := names(results(t, tab)); strings.Join(got, " ") != strings.Join(facet.Want, " ") {
		t.Errorf("%s loaded afresh shows %q, want %q", href, got, facet.Want)
	}
	if on, _ := browsertest.Eval[bool](tab, fmt.Sprintf(`document.querySelector(%q).checked`, sel)); !on {
		t.Errorf("%s loaded afresh: the %s=%s box is not checked", href, facet.ID, facet.Value)
	}

	// Back (history) returns to the unfiltered results: go to the
	// unfiltered URL, check the box, then go back.
	check(t, tab, tab.Visit(srv.Page("search/?q="+query)))
	check(t, tab, tab.Wait(waitResults+` && document.querySelector('#search-facets input[type=checkbox]')`))
	check(t, tab, tab.Do(chromedp.Click(chromedp.CSS(sel))))
	check(t, tab, tab.Wait(fmt.Sprintf(`document.querySelectorAll('#search-results .search-result').length === %d`, len(facet.Want))))
	_, err = browsertest.Eval[chromedp.Void](tab, `history.back()`)
	check(t, tab, err)
	check(t, tab, tab.Wait(fmt.Sprintf(`!location.search.includes(%q) && document.querySelectorAll('#search-results .search-result').length === %d`, facet.ID+"=", len(before))))
	if on, _ := browsertest.Eval[bool](tab, fmt.Sprintf(`document.querySelector(%q).checked`, sel)); on {
		t.Errorf("after Back the %s=%s box is still checked", facet.ID, facet.Value)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestThemeToggle checks the theme button: hidden without JavaScript,
// shown with it; a click switches documentElement's data-theme (and the
// colours), and the choice survives a reload.
func TestThemeToggle(t *testing.T) {
	srv, b := demo(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	check(t, tab, tab.EmulateColorScheme("light"))
	check(t, tab, tab.Visit(srv.Page("skills/csv-profiler/")))
	_, err := browsertest.Eval[chromedp.Void](tab, `localStorage.clear()`)
	check(t, tab, err)
	check(t, tab, tab.Visit(srv.Page("skills/csv-profiler/")))
	check(t, tab, tab.Do(chromedp.WaitVisible(chromedp.ID("sd-theme"))))

	type state struct {
		Theme      string `json:"theme"`
		Pressed    string `json:"pressed"`
		Label      string `json:"label"`
		Background string `json:"background"`
	}
	read := func() state {
		t.Helper()
		s, err := browsertest.Eval[state](tab, `({
			theme: document.documentElement.dataset.theme || '',
			pressed: document.getElementById('sd-theme').getAttribute('aria-pressed'),
			label: document.getElementById('sd-theme').textContent,
			background: getComputedStyle(document.body).backgroundColor,
		})`)
		check(t, tab, err)
		return s
	}
	light := read()
	if light.Theme != "" || light.Pressed != "false" {
		t.Errorf("with no saved theme and a light system: %+v, want no data-theme and aria-pressed=false", light)
	}
	for _, step := range []struct {
		action string
		theme  string
	}{
		{"click", "dark"},
		{"reload", "dark"},
		{"click", "light"},
		{"reload", "light"},
	} {
		if step.action == "click" {
			check(t, tab, tab.Do(chromedp.Click(chromedp.ID("sd-theme"))))
		} else {
			check(t, tab, tab.Visit(srv.Page("skills/csv-profiler/")))
			check(t, tab, tab.Do(chromedp.WaitVisible(chromedp.ID("sd-theme"))))
		}
		s := read()
		if s.Theme != step.theme {
			t.Errorf("after %s: data-theme=%q, want %q", step.action, s.Theme, step.theme)
		}
		if wantPressed := fmt.Sprint(step.theme == "dark"); s.Pressed != wantPressed {
			t.Errorf("after %s to %s: aria-pressed=%q, want %q", step.action, step.theme, s.Pressed, wantPressed)
		}
		if dark := step.theme == "dark"; dark == (s.Background == light.Background) {
			t.Errorf("after %s to %s: the body's background is %s, and %s in the light theme", step.action, step.theme, s.Background, light.Background)
		}
	}
}

// TestSearchSourceAndLicenseFacets: the search page's filters start with
// the Source facet and list licenses as SPDX identifiers; a source given
// in the URL narrows the results to its skills, and "Show more" is hidden
// once every result is shown.
func TestSearchSourceAndLicenseFacets(t *testing.T) {
	srv, b := demo(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	check(t, tab, tab.Visit(srv.Page("search/?source=workspace")))
	check(t, tab, tab.Wait(waitResults))
	legends, err := browsertest.Eval[[]string](tab, `[...document.querySelectorAll('#search-facets legend')].map(l => l.textContent)`)
	check(t, tab, err)
	if len(legends) == 0 || legends[0] != "Source" || !contains(legends, "License") {
		t.Errorf("the filters are %q, want Source first and License among them", legends)
	}
	licenses, err := browsertest.Eval[[]string](tab, `[...document.querySelectorAll('#search-facets input[name=license]')].map(i => i.value)`)
	check(t, tab, err)
	if strings.Join(licenses, " ") != "MIT Apache-2.0" {
		t.Errorf("license filters %q, want MIT and Apache-2.0", licenses)
	}
	if got := names(results(t, tab)); strings.Join(got, " ") != "meeting-notes skillbag-get-skills" {
		t.Errorf("source=workspace shows %q, want the workspace's two skills", got)
	}
	if on, _ := browsertest.Eval[bool](tab, `document.querySelector('#search-facets input[name=source][value=workspace]').checked`); !on {
		t.Error("the workspace box is not checked")
	}
	if shown, _ := browsertest.Eval[bool](tab, `getComputedStyle(document.querySelector('.search-more')).display !== 'none'`); shown {
		t.Error(`"Show more" is shown with every result on the page`)
	}
}

// TestSearchSyntax types the query syntax into the search page: an
// excluded word, a filter on a facet value, a phrase; and opens the help
// that lists it.
func TestSearchSyntax(t *testing.T) {
	srv, b := demo(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	for _, tc := range []struct {
		query string
		want  []string
		// first: want are the first results, not all (other skills
		// mention notes in their bodies or UASP documents)
		first bool
	}{
		{query: "notes", want: []string{"release-notes", "meeting-notes"}, first: true},
		{query: "notes -release", want: []string{"meeting-notes"}, first: true},
		{query: "type:cli", want: []string{"agent-browser"}},
		{query: `"commit message"`, want: []string{"commit-message", "release-notes"}},
		{query: "+csv data", want: []string{"csv-profiler"}},
	} {
		t.Run(tc.query, func(t *testing.T) {
			check(t, tab, tab.Visit(srv.Page("search/?q="+url.QueryEscape(tc.query))))
			check(t, tab, tab.Wait(`/match/i.test(document.getElementById('search-status').textContent)`))
			got := names(results(t, tab))
			if tc.first && len(got) > len(tc.want) {
				if slices.Contains(got, "release-notes") && strings.Contains(tc.query, "-release") {
					t.Errorf("results %q hold the excluded release-notes", got)
				}
				got = got[:len(tc.want)]
			}
			if strings.Join(got, " ") != strings.Join(tc.want, " ") {
				t.Errorf("results %q, want %q", got, tc.want)
			}
		})
	}
	check(t, tab, tab.Visit(srv.Page("search/")))
	if open, _ := browsertest.Eval[bool](tab, `document.getElementById('search-help').open`); open {
		t.Error("the search help is open before it is asked for")
	}
	check(t, tab, tab.Do(chromedp.Click(chromedp.CSS(`#search-help summary`))))
	text, err := browsertest.Eval[string](tab, `document.getElementById('search-help').open ? document.getElementById('search-help').innerText : ''`)
	check(t, tab, err)
	for _, want := range []string{`"pull request"`, "-pdf", "+helm", "type:cli", "tag:python", "source:acme/skills"} {
		if !strings.Contains(text, want) {
			t.Errorf("the open search help lacks %q: %q", want, text)
		}
	}
}

// TestSearchStatusNotes: the search page's status says what skilldex
// search notes: a word written as a filter of no filter's name, and,
// when nothing matches with filters ticked, that they leave skills out.
func TestSearchStatusNotes(t *testing.T) {
	srv, b := demo(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	for page, want := range map[string]string{
		"search/?q=tpye:cli":               "tpye:cli is no filter, so it is searched as words; did you mean type:cli?",
		"search/?q=csv&source=workspace":   "No skill matches. The ticked filters leave some skills out: untick them to search every skill.",
		"search/?q=csv+-Tags:%22a+b%22+zz": `-Tags:"a b" is no filter, so it is searched as words; did you mean -tag:"a b"?`,
	} {
		check(t, tab, tab.Visit(srv.Page(page)))
		check(t, tab, tab.Wait(`/match/i.test(document.getElementById('search-status').textContent)`))
		status, err := browsertest.Eval[string](tab, `document.getElementById('search-status').textContent`)
		check(t, tab, err)
		if !strings.Contains(status, want) {
			t.Errorf("%s: status %q, want it to say %q", page, status, want)
		}
	}
}

// TestShowMoreFocus: "Show more" moves the focus to the first result it
// added, below which the button then is, so that a keyboard or a screen
// reader goes on reading there.
func TestShowMoreFocus(t *testing.T) {
	srv := corpus(t)
	_, b := demo(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	check(t, tab, tab.Visit(srv.Page("search/?q=python")))
	check(t, tab, tab.Wait(waitResults))
	check(t, tab, tab.Do(chromedp.Click(chromedp.CSS(`.search-more`))))
	check(t, tab, tab.Wait(`document.querySelectorAll('#search-results .search-result').length > 20`))
	focused, err := browsertest.Eval[string](tab, `document.activeElement.closest('.search-result')?.id || document.activeElement.outerHTML.slice(0, 80)`)
	check(t, tab, err)
	if focused != "search-result-20" {
		t.Errorf("after Show more the focus is on %s, want the 21st result, search-result-20", focused)
	}
}
