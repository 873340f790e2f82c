package siteinfo

import "testing"

func TestLinks(t *testing.T) {
	cases := []struct {
		base, path, link, url string
	}{
		{"", "skills/a/", "/skills/a/", "/skills/a/"},
		{"https://acme.github.io/repo", "skills/a/", "/repo/skills/a/", "https://acme.github.io/repo/skills/a/"},
		{"https://acme.github.io/repo/", "", "/repo/", "https://acme.github.io/repo/"},
		{"/sub", "skills/技能/", "/sub/skills/%E6%8A%80%E8%83%BD/", "/sub/skills/%E6%8A%80%E8%83%BD/"},
		{"https://example.com", "tags/a b/", "/tags/a%20b/", "https://example.com/tags/a%20b/"},
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
	for _, bad := range []string{"ftp://x/", "https://", "https://x/?q=1", "https://x/#f"} {
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
	for _, tc := range []struct {
		paths, legacy string
		skills        int
		wantPaths     string
		wantLegacy    bool
	}{
		{"", "", 1, QueryPathsAll, true},
		{"", "", LargeCatalog, QueryPathsAll, true},
		{"", "", LargeCatalog + 1, QueryPathsNone, false},
		{QueryPathsAuto, "auto", LargeCatalog + 1, QueryPathsNone, false},
		{QueryPathsAll, "true", 100000, QueryPathsAll, true},
		{QueryPathsSections, "false", 3, QueryPathsSections, false},
		{QueryPathsNone, "", 3, QueryPathsNone, true},
	} {
		i, err := New("", "/")
		if err != nil {
			t.Fatal(err)
		}
		i.QueryPaths, i.LegacyDiscovery = tc.paths, tc.legacy
		got := i.ForCatalog(tc.skills)
		if got.QueryPaths != tc.wantPaths || got.PublishesLegacyDiscovery() != tc.wantLegacy {
			t.Errorf("paths %q legacy %q, %d skills: got %q, %v; want %q, %v", tc.paths, tc.legacy, tc.skills,
				got.QueryPaths, got.PublishesLegacyDiscovery(), tc.wantPaths, tc.wantLegacy)
		}
		if i.QueryPaths != tc.paths || i.LegacyDiscovery != tc.legacy {
			t.Errorf("ForCatalog changed its receiver")
		}
	}
}
