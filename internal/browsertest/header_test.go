package browsertest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/skilldex/skilldex/internal/browsertest"
)

// header is what a person sees of the header.
type header struct {
	Height     float64 `json:"height"`
	MenuButton bool    `json:"menuButton"` // the menu's summary
	Links      int     `json:"links"`      // the navigation's links
	Shown      int     `json:"shown"`      // of them, those shown
	InHeader   int     `json:"inHeader"`   // of them, those inside the header's box
	Form       bool    `json:"form"`       // the header's search form
	SearchLink bool    `json:"searchLink"` // the search icon
}

// headerJS reads the header. checkVisibility is false for what a closed
// details element hides.
const headerJS = `(() => {
	const box = document.querySelector('.sd-header').getBoundingClientRect();
	const shown = el => !!el && el.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true});
	const links = [...document.querySelectorAll('.sd-nav a')];
	return {
		height: box.height,
		menuButton: shown(document.querySelector('.sd-menu > summary')),
		links: links.length,
		shown: links.filter(shown).length,
		inHeader: links.filter(a => {
			const r = a.getBoundingClientRect();
			return shown(a) && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
		}).length,
		form: shown(document.querySelector('.sd-tools form')),
		searchLink: shown(document.querySelector('.sd-search-link')),
	};
})()`

// maxPhoneHeader is the most, in CSS pixels, the header may take of a
// phone's screen.
const maxPhoneHeader = 64

// TestHeaderSize measures the header on a phone (390 px) and a desktop
// (1280 px), in both colour schemes: on the phone it is one row of at
// most 64 px, the navigation folded behind the menu button and the search
// form replaced by its icon; on the desktop every link shows in the
// header's one row beside the search form, and no menu button does.
func TestHeaderSize(t *testing.T) {
	srv, b := demo(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	for _, scheme := range []string{"light", "dark"} {
		check(t, tab, tab.EmulateColorScheme(scheme))
		for _, width := range []int64{390, 1280} {
			check(t, tab, tab.Do(chromedp.EmulateViewport(width, 800)))
			for _, p := range []string{"", "skills/release-notes/", "search/"} {
				t.Run(fmt.Sprintf("%s/%d/%s", scheme, width, p), func(t *testing.T) {
					check(t, tab, tab.Visit(srv.Page(p)))
					h, err := browsertest.Eval[header](tab, headerJS)
					check(t, tab, err)
					if h.Links < 7 {
						t.Fatalf("the header has %d navigation links: %+v", h.Links, h)
					}
					searchPage := p == "search/"
					if width < 600 {
						if h.Height > maxPhoneHeader || !h.MenuButton || h.Shown != 0 || h.Form || h.SearchLink == searchPage {
							t.Errorf("at %d px: %+v; want at most %d px tall, a menu button, no link shown, no form, and a search icon except on the search page",
								width, h, maxPhoneHeader)
						}
						return
					}
					if h.Height > maxPhoneHeader || h.MenuButton || h.Shown != h.Links || h.InHeader != h.Links || h.Form == searchPage || h.SearchLink {
						t.Errorf("at %d px: %+v; want one row with every link in it, no menu button, and the search form except on the search page", width, h)
					}
				})
			}
		}
	}
}

// TestMenuWithoutJavaScript opens the phone's menu in a browser that runs
// no script: a tap on the menu button shows every link, in the screen,
// and a link leads where it says.
func TestMenuWithoutJavaScript(t *testing.T) {
	srv, b := demo(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	check(t, tab, tab.Do(chromedp.EmulateViewport(390, 800)))
	check(t, tab, tab.DisableScripts(true))
	check(t, tab, tab.Visit(srv.Page("skills/release-notes/")))
	if ran, _ := browsertest.Eval[bool](tab, `!document.getElementById('sd-theme').hidden`); ran {
		t.Fatal("the page's script ran: the theme button shows")
	}
	check(t, tab, tab.Do(chromedp.Click(chromedp.CSS(".sd-menu > summary"))))
	h, err := browsertest.Eval[header](tab, headerJS)
	check(t, tab, err)
	if h.Shown != h.Links || h.Height > maxPhoneHeader {
		t.Fatalf("after a tap on the menu button: %+v; want every link shown, below a header that did not grow", h)
	}
	inScreen, err := browsertest.Eval[bool](tab, `[...document.querySelectorAll('.sd-nav a')].every(a => {
		const r = a.getBoundingClientRect();
		return r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight && r.height >= 24;
	})`)
	check(t, tab, err)
	if !inScreen {
		t.Error("a menu link is off the screen or less than 24 px tall")
	}
	check(t, tab, tab.Do(chromedp.Click(chromedp.CSS(`.sd-nav a[href$="/tags/"]`))))
	_, err = tab.WaitURL(func(u string) bool { return strings.HasSuffix(u, base+"tags/") })
	check(t, tab, err)
}

// TestHeaderKeyboard walks the header with the Tab key: on a desktop the
// navigation's links come after the brand, though they live in a closed
// details element; on a phone the menu button does, Enter opens the menu,
// its first link is next, and Escape closes it back to its button.
func TestHeaderKeyboard(t *testing.T) {
	srv, b := demo(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	focused := func() string {
		t.Helper()
		s, err := browsertest.Eval[string](tab, `(() => { const e = document.activeElement;
			return e.tagName.toLowerCase() + (e.className ? '.' + e.className.split(' ')[0] : '') + ':' + e.textContent.trim(); })()`)
		check(t, tab, err)
		return s
	}
	for _, c := range []struct {
		width int64
		want  []string // what each Tab focuses, after the skip link
	}{
		{1280, []string{"a.sd-brand:Demo skills", "a:Skills", "a:Search", "a:Plugins", "a:Tags"}},
		{390, []string{"a.sd-brand:Demo skills", "summary.sd-icon-button:Menu"}},
	} {
		check(t, tab, tab.Do(chromedp.EmulateViewport(c.width, 800)))
		check(t, tab, tab.Visit(srv.Page("tags/")))
		check(t, tab, tab.Keys(kb.Tab))
		if got := focused(); !strings.HasPrefix(got, "a.sd-skip") {
			t.Fatalf("at %d px the first Tab focuses %s, want the skip link", c.width, got)
		}
		for _, want := range c.want {
			check(t, tab, tab.Keys(kb.Tab))
			if got := focused(); got != want {
				t.Fatalf("at %d px Tab focuses %s, want %s", c.width, got, want)
			}
		}
	}
	// At 390 px the menu button has the focus.
	check(t, tab, tab.Keys(kb.Enter))
	check(t, tab, tab.Keys(kb.Tab))
	if got := focused(); got != "a:Skills" {
		t.Fatalf("after Enter on the menu button and Tab, %s has the focus, want the first link", got)
	}
	check(t, tab, tab.Keys(kb.Escape))
	open, err := browsertest.Eval[bool](tab, `document.querySelector('.sd-menu').open`)
	check(t, tab, err)
	if got := focused(); open || got != "summary.sd-icon-button:Menu" {
		t.Errorf("after Escape the menu is open=%v and %s has the focus, want it closed and its button focused", open, got)
	}
}

// TestInstallCommandWithoutBaseURL loads a skill page of a site built
// without an absolute base URL: the page's script writes the site's
// address, as the page is served, into the skills CLI's command; without
// JavaScript the command is hidden and prose says what to type.
func TestInstallCommandWithoutBaseURL(t *testing.T) {
	_, b := demo(t)
	dir := filepath.Join(t.TempDir(), "site")
	srv := browsertest.NewServer(t, dir, "/catalog/")
	if err := browsertest.BuildDemo(context.Background(), dir, srv.Base); err != nil {
		t.Fatal(err)
	}
	if page, err := os.ReadFile(filepath.Join(dir, "skills", "release-notes", "index.html")); err != nil || strings.Contains(string(page), srv.Origin) {
		t.Fatalf("the page names the address it was built for (%v)", err)
	}
	tab := browsertest.NewTab(t, b, srv.Origin)
	type install struct {
		CLI     string `json:"cli"`
		Zip     string `json:"zip"`
		Command bool   `json:"command"` // the CLI's command shows
		Prose   bool   `json:"prose"`   // the prose in its place shows
	}
	const installJS = `(() => {
		const shown = el => !!el && el.checkVisibility();
		const cli = document.getElementById('sd-install-cli');
		return {
			cli: cli.textContent,
			zip: document.getElementById('sd-install-zip').textContent,
			command: shown(cli),
			prose: shown(cli.parentElement.parentElement.querySelector('[data-without-site]')),
		};
	})()`
	check(t, tab, tab.Visit(srv.Page("skills/release-notes/")))
	got, err := browsertest.Eval[install](tab, installJS)
	check(t, tab, err)
	if want := "npx skills add " + srv.URL + " --skill release-notes"; got.CLI != want || !got.Command || got.Prose {
		t.Errorf("with JavaScript: %+v, want the command %q shown and no prose", got, want)
	}
	if want := srv.URL + "skills/release-notes/release-notes.skill &&"; !strings.Contains(got.Zip, want) {
		t.Errorf("with JavaScript the manual command is %q, want it to hold %q", got.Zip, want)
	}
	check(t, tab, tab.DisableScripts(true))
	check(t, tab, tab.Visit(srv.Page("skills/release-notes/")))
	got, err = browsertest.Eval[install](tab, installJS)
	check(t, tab, err)
	if got.Command || !got.Prose || strings.Contains(got.CLI, "://") {
		t.Errorf("without JavaScript: %+v, want the prose shown in place of the command, and no address made up", got)
	}
	// The home page's command for the whole catalog too.
	check(t, tab, tab.Visit(srv.Page("")))
	home, err := browsertest.Eval[[]bool](tab, `[document.getElementById('sd-addall'), document.querySelector('.sd-addall [data-without-site]')].map(e => !!e && e.checkVisibility())`)
	check(t, tab, err)
	if len(home) != 2 || home[0] || !home[1] {
		t.Errorf("without JavaScript the home page shows [command, prose] = %v, want the prose alone", home)
	}
}

// TestFiltersFoldOnAPhone checks that the facets of the home and search
// pages, which stand before the skills on a narrow screen, start folded
// there (a "Filters" summary opens them), and are shown, with no summary,
// on a desktop; without JavaScript they stay open.
func TestFiltersFoldOnAPhone(t *testing.T) {
	srv, b := demo(t)
	const filtersJS = `(() => {
		const d = document.querySelector('.sd-filters');
		const shown = el => !!el && el.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true});
		return {open: d.open, summary: shown(d.querySelector('summary')), facet: shown(d.querySelector('h2, #search-facets fieldset, li'))};
	})()`
	type filters struct {
		Open    bool `json:"open"`
		Summary bool `json:"summary"`
		Facet   bool `json:"facet"` // a facet's heading or value is shown
	}
	for _, page := range []struct{ name, path, ready string }{
		{"home", "", ""},
		{"search", "search/?q=release", `document.querySelector('#search-facets fieldset')`},
	} {
		for _, c := range []struct {
			width   int64
			scripts bool
			want    filters
		}{
			{390, true, filters{Open: false, Summary: true, Facet: false}},
			{390, false, filters{Open: true, Summary: true, Facet: true}},
			{1280, true, filters{Open: true, Summary: false, Facet: true}},
		} {
			if !c.scripts && page.ready != "" {
				continue // the search page's facets come from its script
			}
			t.Run(fmt.Sprintf("%s-%d-scripts=%v", page.name, c.width, c.scripts), func(t *testing.T) {
				tab := browsertest.NewTab(t, b, srv.Origin)
				check(t, tab, tab.Do(chromedp.EmulateViewport(c.width, 900)))
				if !c.scripts {
					check(t, tab, tab.DisableScripts(true))
				}
				err := tab.Visit(srv.Page(page.path))
				if err == nil && page.ready != "" {
					err = tab.Wait(page.ready)
				}
				check(t, tab, err)
				got, err := browsertest.Eval[filters](tab, filtersJS)
				check(t, tab, err)
				if got != c.want {
					t.Errorf("filters %+v, want %+v", got, c.want)
				}
			})
		}
	}
}

// TestFiltersBesideTheSkills: at every width around the one where the
// filters fold (48rem, 768 px), the first skill shows in the first
// screen: beside the filters when they are open, below them folded.
// At exactly 768 px the filters were shown whole above the skills, their
// toggle hidden, the first skill 1,700 to 2,300 px down.
func TestFiltersBesideTheSkills(t *testing.T) {
	srv, b := demo(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	const height = 900
	for _, width := range []int64{600, 767, 768, 769, 1024} {
		check(t, tab, tab.Do(chromedp.EmulateViewport(width, height)))
		for _, p := range []string{"", "search/?q=notes"} {
			check(t, tab, tab.Visit(srv.Page(p)))
			top, err := browsertest.Eval[float64](tab, `new Promise((resolve) => {
				const first = () => document.querySelector('.sd-card, .search-result');
				const wait = () => first() ? resolve(first().getBoundingClientRect().top) : setTimeout(wait, 20);
				wait();
			})`)
			check(t, tab, err)
			if top > height {
				t.Errorf("at %d px, /%s: the first skill is %.0f px down, below the first screen", width, p, top)
			}
		}
	}
}

// TestSkillPageJumpLinks: in one column, where the install box, the
// contents and the details come after the instructions, the skill page's
// header links to each; in two columns, where they stand beside the
// instructions, it does not.
func TestSkillPageJumpLinks(t *testing.T) {
	srv, b := demo(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	type jump struct {
		Shown   bool
		Targets []string // the ids linked to that the page has
		Links   int
	}
	for _, width := range []int64{390, 1280} {
		check(t, tab, tab.Do(chromedp.EmulateViewport(width, 800)))
		check(t, tab, tab.Visit(srv.Page("skills/release-notes/")))
		j, err := browsertest.Eval[jump](tab, `(() => {
			const nav = document.querySelector('.sd-jump');
			const links = nav ? [...nav.querySelectorAll('a')] : [];
			return {
				shown: !!nav && getComputedStyle(nav).display !== 'none',
				targets: links.map((a) => a.hash.slice(1)).filter((id) => document.getElementById(id)),
				links: links.length,
			};
		})()`)
		check(t, tab, err)
		if width < 600 && (!j.Shown || strings.Join(j.Targets, " ") != "sd-install sd-toc sd-details" || j.Links != 3) {
			t.Errorf("at %d px: %+v; want links shown to the install box, the contents and the details", width, j)
		}
		if width >= 1280 && j.Shown {
			t.Errorf("at %d px the jump links show beside the aside they lead to", width)
		}
	}
}
