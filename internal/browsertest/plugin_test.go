package browsertest_test

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/skilldex/skilldex/internal/browsertest"
)

// TestPluginPagesAndFacet follows a reader of the corpus site (axe-checked
// on every page): from the plugins index to a plugin's page, whose skills
// and install commands it reads, then to the search page, where the Plugin
// facet keeps that plugin's skills only.
func TestPluginPagesAndFacet(t *testing.T) {
	srv := corpus(t)
	_, b := demo(t)
	browsertest.RequireAxe(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	const plugin = "kubernetes-operations"

	check(t, tab, tab.Visit(srv.Page("plugins/")))
	n, err := browsertest.Eval[int](tab, `document.querySelectorAll('main .sd-card').length`)
	check(t, tab, err)
	if n < 50 {
		t.Errorf("the plugins index lists %d plugins, want at least 50", n)
	}
	check(t, tab, tab.Do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`main a[href$="/plugins/%s/"]`, plugin)))))
	href, err := tab.WaitURL(func(u string) bool { return strings.HasSuffix(u, "/plugins/"+plugin+"/") })
	check(t, tab, err)
	if h1, _ := browsertest.Eval[string](tab, `document.querySelector('h1').textContent`); h1 != plugin {
		t.Errorf("%s: the <h1> is %q", href, h1)
	}
	skills, err := browsertest.Eval[[]string](tab, `[...document.querySelectorAll('main .sd-card h3 a')].map(a => a.textContent)`)
	check(t, tab, err)
	if !slices.Contains(skills, "k8s-manifest-generator") {
		t.Errorf("the page of %s lists %q, want k8s-manifest-generator among them", plugin, skills)
	}
	commands, err := browsertest.Eval[[]string](tab, `[...document.querySelectorAll('.sd-install pre code')].map(c => c.textContent)`)
	check(t, tab, err)
	if !slices.Contains(commands, "/plugin install "+plugin+"@claude-code-workflows") {
		t.Errorf("install commands %q", commands)
	}
	// The copy buttons show with JavaScript.
	if shown, _ := browsertest.Eval[bool](tab, `[...document.querySelectorAll('.sd-install button[data-copy]')].every(b => !b.hidden)`); !shown {
		t.Error("the install commands' copy buttons are hidden")
	}

	check(t, tab, tab.Visit(srv.Page("search/?q=kubernetes")))
	check(t, tab, tab.Wait(waitResults+` && document.querySelector('#search-facets input[name=plugin]')`))
	legends, err := browsertest.Eval[[]string](tab, `[...document.querySelectorAll('#search-facets legend')].map(l => l.textContent)`)
	check(t, tab, err)
	if !slices.Contains(legends, "Plugin") || !slices.Contains(legends, "Category") {
		t.Errorf("the filters are %q, want Plugin and Category among them", legends)
	}
	before := names(results(t, tab))
	// The facet lists the plugins with the most skills first: the others
	// are behind its "Show all".
	sel := fmt.Sprintf(`#search-facets input[name=plugin][value=%q]`, plugin)
	if shown, _ := browsertest.Eval[bool](tab, fmt.Sprintf(`!!document.querySelector(%q)`, sel)); !shown {
		_, err := browsertest.Eval[chromedp.Void](tab, `document.querySelector('#search-facets input[name=plugin]').closest('fieldset').querySelector('.search-facet-all').click()`)
		check(t, tab, err)
		check(t, tab, tab.Wait(fmt.Sprintf(`!!document.querySelector(%q)`, sel)))
	}
	check(t, tab, tab.Do(chromedp.Click(chromedp.CSS(sel))))
	// The filtered results replace the others: no more than the plugin's
	// skills.
	check(t, tab, tab.Wait(fmt.Sprintf(`location.search.includes('plugin=') && (n => n > 0 && n <= %d)(document.querySelectorAll('#search-results .search-result').length)`, len(skills))))
	rs := results(t, tab)
	after := names(rs)
	for _, r := range rs {
		if !slices.Contains(r.Labels, "plugin: "+plugin) {
			t.Errorf("the result %s is labelled %q, without its plugin", r.Name, r.Labels)
		}
	}
	if len(after) == 0 || len(after) >= len(before) {
		t.Errorf("with plugin=%s the results are %q (before: %q)", plugin, after, before)
	}
	for _, name := range after {
		if !slices.Contains(skills, name) {
			t.Errorf("with plugin=%s the results hold %s, which is not one of its skills %q", plugin, name, skills)
		}
	}
	// The query syntax says the same.
	check(t, tab, tab.Visit(srv.Page("search/?q="+strings.ReplaceAll("plugin:"+plugin+" kubernetes", " ", "+"))))
	check(t, tab, tab.Wait(waitResults))
	if got := names(results(t, tab)); !slices.Equal(got, after) {
		t.Errorf("plugin:%s kubernetes shows %q, the facet %q", plugin, got, after)
	}
}

// TestSearchMarksWhatEachResultCounted: a result marks the words it was
// ranked for, not every word some other result matched. On the corpus,
// "convert a word document to markdown" finds "xlsx", "mermaid" and
// "format" as related terms of the query's words; the first five results
// were ranked for "convert", "word", "document" and "markdown" alone, so
// none marks those (results further down may have counted one), and the
// first four, whose descriptions say Markdown, mark it.
func TestSearchMarksWhatEachResultCounted(t *testing.T) {
	tab := searchCorpus(t, "convert a word document to markdown")
	type card struct {
		Name   string
		Marked []string
	}
	cards, err := browsertest.Eval[[]card](tab, `[...document.querySelectorAll('#search-results li')].map(li => ({
	name: li.querySelector('.search-name').textContent,
	marked: [...li.querySelectorAll('mark')].map(m => m.textContent.toLowerCase()),
}))`)
	check(t, tab, err)
	if len(cards) < 5 {
		t.Fatalf("%d results, want at least 5", len(cards))
	}
	for i, c := range cards[:5] {
		for _, m := range c.Marked {
			if m == "xlsx" || m == "mermaid" || m == "format" || m == "comprehensive" {
				t.Errorf("%s marks %q, which it was not ranked for (marks %q)", c.Name, m, c.Marked)
			}
		}
		if i < 4 && !slices.Contains(c.Marked, "markdown") {
			t.Errorf("%s marks %q, want markdown among them", c.Name, c.Marked)
		}
	}
}

// TestSearchShowsCodeSpans: a description's `code spans` show as code in
// the search results, as on the site's pages, their text escaped
// ("<ViewTransition>" is text, not an element), and no backtick is left.
func TestSearchShowsCodeSpans(t *testing.T) {
	tab := searchCorpus(t, "react view transitions")
	type card struct {
		Name, Description string
		Code              []string
	}
	cards, err := browsertest.Eval[[]card](tab, `[...document.querySelectorAll('#search-results li')].map(li => ({
	name: li.querySelector('.search-name').textContent,
	description: li.querySelector('.search-description').textContent,
	code: [...li.querySelectorAll('.search-description code')].map(c => c.textContent),
}))`)
	check(t, tab, err)
	i := slices.IndexFunc(cards, func(c card) bool { return c.Name == "vercel-react-view-transitions" })
	if i < 0 {
		t.Fatalf("vercel-react-view-transitions is not among %d results", len(cards))
	}
	if c := cards[i]; !slices.Contains(c.Code, "<ViewTransition>") || !slices.Contains(c.Code, "addTransitionType") || strings.Contains(c.Description, "`") {
		t.Errorf("vercel-react-view-transitions: code %q in %q", c.Code, c.Description)
	}
}

// searchCorpus opens the corpus site's search page for query, once its
// results show.
func searchCorpus(t *testing.T, query string) *browsertest.Tab {
	t.Helper()
	srv := corpus(t)
	_, b := demo(t)
	tab := browsertest.NewTab(t, b, srv.Origin)
	check(t, tab, tab.Visit(srv.Page("search/?q="+url.QueryEscape(query))))
	check(t, tab, tab.Wait(waitResults))
	return tab
}
