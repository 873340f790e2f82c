package browsertest

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// A Server serves a site folder over HTTP on 127.0.0.1 under a base path,
// the way GitHub Pages serves a project site under /<repo>/: a folder's
// index.html answers for the folder, a folder asked for without its slash
// is redirected to it, and a missing file gets the site's 404.html with
// status 404.
type Server struct {
	// Origin is the scheme, host and port, such as http://127.0.0.1:4242.
	Origin string
	// Base is the path the site lives under, such as /skills/.
	Base string
	// URL is Origin + Base: the address of the site's home page, and the
	// base URL to build the site with.
	URL string
	// Dir is the site folder. It may be written after Serve returns (build
	// the site with URL as its base URL).
	Dir string

	srv *http.Server
	ln  net.Listener
}

// Serve starts serving dir under base ("/skills/"; "" or "/" for the root)
// on a free port of 127.0.0.1. Close stops it.
func Serve(dir, base string) (*Server, error) {
	base = "/" + strings.Trim(base, "/") + "/"
	if base == "//" {
		base = "/"
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("browsertest: %w", err)
	}
	origin := "http://" + ln.Addr().String()
	s := &Server{Origin: origin, Base: base, URL: origin + base, Dir: dir, ln: ln}
	s.srv = &http.Server{Handler: s}
	go s.srv.Serve(ln) //nolint:errcheck // ends with ErrServerClosed at Close
	return s, nil
}

// NewServer serves dir under base for tb and stops when tb ends.
func NewServer(tb testing.TB, dir, base string) *Server {
	tb.Helper()
	s, err := Serve(dir, base)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(s.Close)
	return s
}

// Close stops the server.
func (s *Server) Close() { s.srv.Close() }

// Page returns the absolute URL of a site path ("search/?q=x" ->
// http://127.0.0.1:4242/skills/search/?q=x).
func (s *Server) Page(sitePath string) string { return s.URL + strings.TrimPrefix(sitePath, "/") }

// ServeHTTP serves the site.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	w.Header().Set("Cache-Control", "no-cache")
	p := path.Clean(r.URL.Path)
	if strings.HasSuffix(r.URL.Path, "/") && p != "/" {
		p += "/"
	}
	if p+"/" == s.Base {
		http.Redirect(w, r, s.Base, http.StatusMovedPermanently)
		return
	}
	if !strings.HasPrefix(p, s.Base) {
		s.notFound(w, r)
		return
	}
	rel := strings.TrimPrefix(p, s.Base)
	file := filepath.Join(s.Dir, filepath.FromSlash(rel))
	info, err := os.Stat(file)
	switch {
	case err != nil:
		s.notFound(w, r)
		return
	case info.IsDir() && !strings.HasSuffix(p, "/"):
		target := p + "/"
		if r.URL.RawQuery != "" {
			target += "?" + r.URL.RawQuery
		}
		http.Redirect(w, r, target, http.StatusMovedPermanently)
		return
	case info.IsDir():
		file = filepath.Join(file, "index.html")
		if _, err := os.Stat(file); err != nil {
			s.notFound(w, r)
			return
		}
	}
	http.ServeFile(w, r, file)
}

// notFound answers with the site's 404.html, as GitHub Pages does.
func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	body, err := os.ReadFile(filepath.Join(s.Dir, "404.html"))
	if errors.Is(err, fs.ErrNotExist) {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		w.Write(body) //nolint:errcheck // the client went away
	}
}
