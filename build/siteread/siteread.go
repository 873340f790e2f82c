// Package siteread reads a site skilldex built, from a folder or over
// HTTP(S) under any sub-path, as an agent does: file by file, fetching only
// what each answer needs. skilldex query --site and the MCP server
// (skilldex mcp) read sites through it, so that both follow one rule for
// every answer:
//
//   - a UASP query path with its own file (api/v1/skills/NAME/PATH.json)
//     is answered by that file;
//   - a path without one is answered from the longest prefix of it that
//     api/v1/skills/NAME/paths.json lists, else from the whole document
//     (api/v1/skills/NAME.json), by looking the rest of the path up in that
//     answer's value as the query engine does (Site.Query);
//   - filters, which no static file can hold, are applied to the value.
//
// Nothing here trusts a name: a skill name that is not one (a path, a
// URL) is refused before any file is read, folders are read through
// os.Root so that no link leads outside the site, and over HTTP no
// redirect leaves the site's host.
package siteread

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/skilldex/skilldex/build/api"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/index/jsonsearch"
)

// ErrNotSite is returned by Open for a folder or address that holds no
// site skilldex built.
var ErrNotSite = errors.New("not a skilldex site")

// MaxFileBytes bounds a file read from a site: no file skilldex writes
// for one skill or for the search index comes near it.
const MaxFileBytes = 64 << 20

// Site is a built site being read.
type Site struct {
	// Location is the folder or URL the site was opened from.
	Location string
	// URL is the address the site is published at, its path ending in
	// "/": the URL it was opened from, or for a folder the base URL it was
	// built with (from api/v1/openapi.json); nil when not known.
	URL *url.URL

	fetch func(ctx context.Context, sitePath string) ([]byte, error)
	dir   string // the folder, for a site read from one

	// publishes are the optional endpoints the site has, as its OpenAPI
	// description lists them ("/skills/{name}/SKILL.md", ...); nil when
	// it has no description.
	publishes map[string]bool

	mu     sync.Mutex
	cache  map[string][]byte // search index files by manifest id and path
	cached int               // bytes in cache
}

// Open opens the site at location: a folder, or an http:// or https://
// URL (the address of the site's home page). It checks that a skilldex
// site is there (a folder holds siteinfo.Marker; over HTTP the search
// index's manifest answers) and returns one error that says what to give
// instead when not.
func Open(ctx context.Context, location string) (*Site, error) {
	var s *Site
	var err error
	if strings.HasPrefix(location, "http://") || strings.HasPrefix(location, "https://") {
		s, err = openHTTP(ctx, location)
	} else {
		s, err = openDir(location)
	}
	if err != nil {
		return nil, err
	}
	if err := s.readDescription(ctx); err != nil {
		return nil, err
	}
	return s, nil
}

func openDir(dir string) (*Site, error) {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return nil, fmt.Errorf("%s is not a folder; give the folder skilldex build wrote (-o, default public) or the URL of a published site", dir)
	}
	if _, err := os.Stat(filepath.Join(dir, siteinfo.Marker)); err != nil {
		return nil, fmt.Errorf("%w: %s holds no %s; give the folder skilldex build wrote (-o, default public), or build it first", ErrNotSite, dir, siteinfo.Marker)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	fsys := root.FS()
	s := &Site{Location: dir, dir: dir}
	s.fetch = func(_ context.Context, sitePath string) ([]byte, error) {
		if !fs.ValidPath(sitePath) {
			return nil, fmt.Errorf("%s: %w", sitePath, fs.ErrNotExist)
		}
		f, err := fsys.Open(sitePath)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return readLimited(f, sitePath)
	}
	if _, err := fs.Stat(fsys, api.IndexPath); err != nil {
		return nil, fmt.Errorf("%w: %s has no %s (%v); build the site again", ErrNotSite, dir, api.IndexPath, err)
	}
	return s, nil
}

// client reads sites over HTTP: no redirect leaves the site's host, and
// no request takes more than a minute.
var client = &http.Client{
	Timeout: time.Minute,
	CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if len(via) >= 5 {
			return errors.New("too many redirects")
		}
		if req.URL.Host != via[0].URL.Host {
			return fmt.Errorf("a redirect to %s leaves the site", req.URL.Host)
		}
		return nil
	},
}

func openHTTP(ctx context.Context, location string) (*Site, error) {
	u, err := url.Parse(location)
	if err != nil || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("%s is not the URL of a site; give the address of its home page, such as https://acme.github.io/skills/", location)
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
		u.RawPath = ""
	}
	s := &Site{Location: location, URL: u}
	s.fetch = func(ctx context.Context, sitePath string) ([]byte, error) {
		target := u.String() + siteinfo.EscapePath(sitePath)
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("User-Agent", "skilldex (+https://github.com/skilldex/skilldex)")
		resp, err := client.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
			return nil, fmt.Errorf("%s: %w", target, fs.ErrNotExist)
		case resp.StatusCode != http.StatusOK:
			return nil, fmt.Errorf("%s: %s", target, resp.Status)
		}
		return readLimited(resp.Body, target)
	}
	// The search index's manifest is small and every site has one.
	data, err := s.fetch(ctx, "search/manifest.json")
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s has no search/manifest.json; give the address of the site's home page (where index.html is)", ErrNotSite, u)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read the site at %s: %v", u, err)
	}
	var m jsonsearch.Manifest
	if json.Unmarshal(data, &m) != nil || m.Version == 0 {
		return nil, fmt.Errorf("%w: %ssearch/manifest.json is not a skilldex search index", ErrNotSite, u)
	}
	return s, nil
}

func readLimited(r io.Reader, name string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s is larger than %d MB", name, MaxFileBytes>>20)
	}
	return data, nil
}

// readDescription reads api/v1/openapi.json, whose servers say where a
// site read from a folder is published and whose paths say which optional
// endpoints it has. A site without one is read all the same.
func (s *Site) readDescription(ctx context.Context) error {
	data, err := s.fetch(ctx, api.OpenAPIPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("cannot read %s of %s: %v", api.OpenAPIPath, s.Location, err)
	}
	var d struct {
		Servers []struct {
			URL string `json:"url"`
		} `json:"servers"`
		Paths map[string]json.RawMessage `json:"paths"`
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return nil
	}
	s.publishes = map[string]bool{}
	for p := range d.Paths {
		s.publishes[p] = true
	}
	if s.URL == nil && len(d.Servers) > 0 {
		if u, err := url.Parse(d.Servers[0].URL + "/"); err == nil && (u.Scheme == "https" || u.Scheme == "http") && u.Host != "" {
			s.URL = u
		}
	}
	return nil
}

// Fetch returns the bytes of the file at sitePath (slash-separated,
// relative to the site's root); an error wrapping fs.ErrNotExist when the
// site has no such file.
func (s *Site) Fetch(ctx context.Context, sitePath string) ([]byte, error) {
	return s.fetch(ctx, sitePath)
}

// Link returns where people and agents find the file at sitePath: its URL
// when the site's address is known, else for a folder the file's own path
// as a file:// URL, else the site path itself.
func (s *Site) Link(sitePath string) string {
	if s.URL != nil {
		return s.URL.String() + siteinfo.EscapePath(sitePath)
	}
	if s.dir != "" {
		if abs, err := filepath.Abs(filepath.Join(s.dir, filepath.FromSlash(siteinfo.FileOf(sitePath)))); err == nil {
			return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
		}
	}
	return sitePath
}

// ValidName returns an error saying why name cannot be a skill's name:
// it is empty, not UTF-8, a path or a URL, or it breaks
// siteinfo.NameProblem, the rule a build publishes names by. A name that
// only breaks the spec's pattern ("My Skill", "C# tools") is published
// with a warning, and passes.
func ValidName(name string) error {
	switch {
	case name == "":
		return errors.New("no skill name given; search_skills finds names")
	case !utf8.ValidString(name):
		return errors.New("the skill name is not valid UTF-8")
	case strings.ContainsAny(name, `/\`):
		return fmt.Errorf("%q is not a skill name but a path or a URL; give the name as search_skills gives it, such as pdf-tools", name)
	}
	if why := siteinfo.NameProblem(name); why != "" {
		return fmt.Errorf("%q cannot be a skill's name: %s; give the name as search_skills gives it", name, why)
	}
	return nil
}
