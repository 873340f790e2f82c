package siteinfo

import (
	"strings"
	"testing"
)

func TestLinks(t *testing.T) {
	cases := []struct {
		base, path, link, url string
	}{
		{"", "skills/a/", "/skills/a/", "/skills/a/"},
		{"https://acme.github.io/repo", "skills/a/", "/repo/skills/a/", "https://acme.github.io/repo/skills/a/"},
		{"https://acme.github.io/repo/", "", "/repo/", "https://acme.github.io/repo/"},
		{"/sub", "skills/技能/", "/sub/skills/%E6%8A%80%E8%83%BD/", "/sub/skills/%E6%8A%80%E8%83%BD/"},
		{"https://example.com", "tags/a b/", "/tags/a%20b/", "https://example.com/tags/a%20b/"},
		// Dots in a path that is no host name.
		{"v1.2/docs", "", "/v1.2/docs/", "/v1.2/docs/"},
		{"docs.v2/", "", "/docs.v2/", "/docs.v2/"},
	}
	for _, c := range cases {
		i, err := New("T", c.base)
		if err != nil {
			t.Fatal(err)
		}
		if got := i.Link(c.path); got != c.link {
			t.Errorf("Link(%q) with base %q = %q, want %q", c.path, c.base, got, c.link)
		}
		if got := i.URL(c.path); got != c.url {
			t.Errorf("URL(%q) with base %q = %q, want %q", c.path, c.base, got, c.url)
		}
	}
	for _, bad := range []string{"ftp://x/", "https://", "https://x/?q=1", "https://x/#f", "acme.github.io/skills", "example.com", "not a url", "/a b/"} {
		if _, err := New("", bad); err == nil {
			t.Errorf("New(%q) accepted", bad)
		}
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Machine Learning": "machine-learning", "C++": "c-plus-plus", "C#": "c-sharp", "c": "c",
		"real-time": "real-time", "数据": "数据", "  ": "term-2020", "#run/always": "sharp-run-always",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestForCatalog(t *testing.T) {
	derived := func(n int) CatalogSize { return CatalogSize{Skills: n, Pending: n} }
	given := func(n, paths int) CatalogSize { return CatalogSize{Skills: n, Docs: n, Paths: n * paths} }
	under := PathFileBudget / DerivedPathFiles
	for _, tc := range []struct {
		paths, legacy string
		size          CatalogSize
		wantPaths     string
		wantLegacy    bool
		wantChoice    string
	}{
		{"", "", derived(1), QueryPathsAll, true, "api.paths auto chose all: about 40 answer files, within the budget of 50,000"},
		{"", "", derived(under), QueryPathsAll, false, "api.paths auto chose all: about 50,000 answer files"},
		{"", "", derived(under + 1), QueryPathsSections, false, "api.paths auto chose sections: every path would take about 50,040 answer files, over the budget of 50,000"},
		// Documents already known count as they are: few paths keep all
		// for a catalog the estimate would put over, many put a small
		// catalog over.
		{QueryPathsAuto, "auto", given(under+1, 9), QueryPathsAll, false, "api.paths auto chose all: 12,510 answer files"},
		{"", "", given(100, 500), QueryPathsSections, true, "api.paths auto chose sections: every path would take 50,100 answer files"},
		{"", "", CatalogSize{Skills: 3, Docs: 1, Paths: 10, Pending: 1}, QueryPathsAll, true, "api.paths auto chose all: about 51 answer files"},
		{QueryPathsAll, "true", derived(100000), QueryPathsAll, true, ""},
		{QueryPathsSections, "false", derived(3), QueryPathsSections, false, ""},
		{QueryPathsNone, "", derived(3), QueryPathsNone, true, ""},
	} {
		i, err := New("", "/")
		if err != nil {
			t.Fatal(err)
		}
		i.QueryPaths, i.LegacyDiscovery = tc.paths, tc.legacy
		got := i.ForCatalog(tc.size)
		if got.QueryPaths != tc.wantPaths || got.PublishesLegacyDiscovery() != tc.wantLegacy {
			t.Errorf("paths %q legacy %q, %+v: got %q, %v; want %q, %v", tc.paths, tc.legacy, tc.size,
				got.QueryPaths, got.PublishesLegacyDiscovery(), tc.wantPaths, tc.wantLegacy)
		}
		if (tc.wantChoice == "") != (got.QueryPathsChoice == "") || !strings.HasPrefix(got.QueryPathsChoice, tc.wantChoice) {
			t.Errorf("paths %q, %+v: choice %q, want %q", tc.paths, tc.size, got.QueryPathsChoice, tc.wantChoice)
		}
		if i.QueryPaths != tc.paths || i.LegacyDiscovery != tc.legacy {
			t.Errorf("ForCatalog changed its receiver")
		}
	}
}

// EscapePath's short cut for plain paths gives what escaping each segment
// gives, for every byte a path may hold.
func TestEscapePathShortCut(t *testing.T) {
	paths := []string{"", "skills/pdf-tools/", "a/b/c.json", "Tag_1.x~y", "search/p/ax6b.json"}
	for c := 0; c < 256; c++ {
		paths = append(paths, "skills/a"+string(rune(c))+"b/", string([]byte{byte(c)}))
	}
	for _, p := range paths {
		if got, want := EscapePath(p), escapeSegments(p); got != want {
			t.Errorf("EscapePath(%q) = %q, escaping each segment gives %q", p, got, want)
		}
	}
}
