// Package serve serves a built site on localhost while its sources are
// edited: it watches the source folders, rebuilds when a file changes, and
// tells open pages to reload. It is the engine of `skilldex serve`; the
// site it serves is exactly what `skilldex build` writes, plus one script
// injected into HTML responses for live reload.
package serve

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strings"
	"sync"
	"time"

	"github.com/skilldex/skilldex/internal/fswatch"
)

// Prefix is where the server's own endpoints live; no site path starts
// with it.
const Prefix = "/__skilldex/"

// reloadScript reloads the page after each rebuild, and reconnects after
// the server restarts. It is a file, not inline, so the pages' CSP allows
// it. The reader keeps their place: the scroll position is saved before
// the reload and restored once the new page has loaded (its styles and
// images too), whatever the browser restores on its own.
const reloadScript = `(() => {
  const key = 'skilldex-scroll:' + location.pathname + location.search;
  let saved = null;
  try {
    saved = JSON.parse(sessionStorage.getItem(key));
    sessionStorage.removeItem(key);
  } catch {}
  if (Array.isArray(saved)) {
    history.scrollRestoration = 'manual';
    const restore = () => {
      scrollTo(saved[0], saved[1]);
      history.scrollRestoration = 'auto';
    };
    if (document.readyState === 'complete') restore();
    else addEventListener('load', restore, {once: true});
  }
  const es = new EventSource(` + "`" + Prefix + "events`" + `);
  es.addEventListener('reload', () => {
    try {
      sessionStorage.setItem(key, JSON.stringify([scrollX, scrollY]));
    } catch {}
    location.reload();
  });
})();
`

// Server serves Dir under BasePath and reloads pages after each Rebuild.
type Server struct {
	// Dir is the site folder. Rebuild replaces its content; requests read
	// it afresh each time.
	Dir string
	// BasePath is the path the site lives under, such as "/" or "/repo/".
	BasePath string
	// Rebuild builds the site again into Dir, given the real paths of
	// the files and folders that changed since the last build (nil: not
	// known, anything may have; see build.LoadOptions.Changed). No
	// request reads Dir while it runs, so every request gets a file of
	// one whole build. It must replace files (build.Build renames each
	// into place) rather than rewrite them: a file being sent when it
	// starts is read to its end afterwards.
	Rebuild func(ctx context.Context, changed []string) error
	// Watching says what to watch (the sources), what to leave out (the
	// folders discovery skips, the output folder) and how.
	Watching fswatch.Options
	// Log receives one line per event (rebuilds, errors).
	Log func(format string, args ...any)

	// building is held for writing while Rebuild runs and for reading
	// while a request finds and opens its file.
	building sync.RWMutex

	watcher *fswatch.Watcher

	mu      sync.Mutex
	clients map[chan struct{}]bool
	builds  int
}

// Handler serves the site, the reload script and the reload events.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc(Prefix+"reload.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		fmt.Fprint(w, reloadScript)
	})
	mux.HandleFunc(Prefix+"events", s.events)
	mux.HandleFunc("/", s.site)
	return mux
}

// events streams a "reload" server-sent event after every rebuild.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	flusher, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	if s.clients == nil {
		s.clients = map[chan struct{}]bool{}
	}
	s.clients[ch] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.clients, ch)
		s.mu.Unlock()
	}()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprint(w, ": connected\n\n")
	flusher.Flush()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-ch:
			fmt.Fprint(w, "event: reload\ndata: {}\n\n")
			flusher.Flush()
		}
	}
}

// Clients returns how many pages are listening for reloads.
func (s *Server) Clients() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.clients)
}

func (s *Server) notify() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.clients {
		select {
		case ch <- struct{}{}:
		default: // a reload is already pending for this page
		}
	}
}

// site serves a file of the site, like a static host: "x/" serves
// "x/index.html", a missing file serves 404.html with status 404.
func (s *Server) site(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	// The file is found, opened and (a page) read while no rebuild runs,
	// so that it comes from one whole build: a rebuild updates the folder
	// file by file, and a request between two of its renames would
	// otherwise get a file of the new build after one of the old, or a
	// 500 for a file removed between its stat and its read. It is sent
	// after the lock is released, so that a slow client never holds up a
	// rebuild; the open file keeps its content, since rebuilds replace
	// files rather than rewrite them (see Server.Rebuild).
	s.building.RLock()
	f, err := s.resolve(r.URL.Path)
	s.building.RUnlock()
	switch {
	case err != nil:
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	case f.redirect != "":
		http.Redirect(w, r, f.redirect, f.status)
		return
	case f.file == nil && f.page == nil:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	if f.file != nil {
		defer f.file.Close()
		http.ServeContent(w, r, f.info.Name(), f.info.ModTime(), f.file)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(f.status)
	if r.Method != http.MethodHead {
		w.Write(Inject(f.page))
	}
}

// A found is what a request gets: a redirect, an HTML page read whole
// (with its status), an open file (with status 200), or, when all are
// empty, a plain 404.
type found struct {
	redirect string
	status   int
	page     []byte
	file     *os.File
	info     fs.FileInfo
}

// resolve finds the file of the site at urlPath. The caller holds the read
// lock and closes the file.
func (s *Server) resolve(urlPath string) (found, error) {
	base := s.BasePath
	if base == "" {
		base = "/"
	}
	if !strings.HasPrefix(urlPath, base) {
		if urlPath == "/" || urlPath+"/" == base {
			return found{redirect: base, status: http.StatusFound}, nil
		}
		return s.notFound()
	}
	rel := strings.TrimPrefix(urlPath, base)
	clean := path.Clean("/" + rel)[1:]
	if clean == "" {
		clean = "."
	}
	if !fs.ValidPath(clean) {
		return s.notFound()
	}
	full := filepath.Join(s.Dir, filepath.FromSlash(clean))
	st, err := os.Stat(full)
	if err == nil && st.IsDir() {
		if !strings.HasSuffix(urlPath, "/") {
			return found{redirect: urlPath + "/", status: http.StatusMovedPermanently}, nil
		}
		full = filepath.Join(full, "index.html")
		st, err = os.Stat(full)
	}
	if err != nil || !st.Mode().IsRegular() {
		return s.notFound()
	}
	f, err := open(full, http.StatusOK)
	if errors.Is(err, fs.ErrNotExist) {
		return s.notFound() // removed by something other than a rebuild
	}
	return f, err
}

// notFound is the site's 404.html with status 404, or a plain 404 when the
// site has none.
func (s *Server) notFound() (found, error) {
	f, err := open(filepath.Join(s.Dir, "404.html"), http.StatusNotFound)
	if errors.Is(err, fs.ErrNotExist) {
		return found{}, nil
	}
	return f, err
}

// open reads a page whole, or opens any other file to be sent.
func open(full string, status int) (found, error) {
	if strings.HasSuffix(full, ".html") {
		page, err := os.ReadFile(full)
		if err != nil {
			return found{}, err
		}
		if page == nil {
			page = []byte{} // an empty page is still a page, not a 404
		}
		return found{status: status, page: page}, nil
	}
	f, err := os.Open(full)
	if err != nil {
		return found{}, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return found{}, err
	}
	return found{status: status, file: f, info: info}, nil
}

// Inject adds the reload script to an HTML page, before </body> or at the
// end when the page has none.
func Inject(page []byte) []byte {
	tag := []byte(`<script src="` + Prefix + `reload.js"></script>`)
	if i := bytes.LastIndex(page, []byte("</body>")); i >= 0 {
		return append(append(append([]byte{}, page[:i]...), tag...), page[i:]...)
	}
	return append(append([]byte{}, page...), tag...)
}

// Start begins watching the sources: a change from then on makes Watch
// rebuild. Serve starts before its first build, so that a file saved
// while that build runs is not missed.
func (s *Server) Start() error {
	if s.watcher != nil {
		return nil
	}
	opt := s.Watching
	if opt.Log == nil {
		opt.Log = s.logf
	}
	w, err := fswatch.Start(opt)
	if err != nil {
		return err
	}
	s.watcher = w
	return nil
}

// Watch rebuilds after each batch of changes to the sources, until ctx is
// done. Changes during a rebuild make another one.
func (s *Server) Watch(ctx context.Context) error {
	if err := s.Start(); err != nil {
		return err
	}
	defer s.watcher.Close()
	failed := false
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-s.watcher.Ready():
		}
		b := s.watcher.Take()
		if !b.All && len(b.Paths) == 0 {
			continue
		}
		changed := b.Paths
		if failed {
			// What the failed rebuild was told may not have reached
			// the site: look everywhere.
			changed = nil
		}
		start := time.Now()
		if err := s.rebuild(ctx, changed); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			failed = true
			s.logf("rebuild failed, still serving the previous site: %v", err)
			continue
		}
		failed = false
		s.mu.Lock()
		s.builds++
		s.mu.Unlock()
		s.logf("rebuilt in %s", time.Since(start).Round(time.Millisecond))
		s.notify()
		CollectIdle()
	}
}

// TuneGC sets the garbage collector of a process that rebuilds a site
// again and again, unless GOGC says otherwise; call it after the first,
// full build, whose peak memory it would raise. A rebuild allocates more
// than the live heap, nearly all of it garbage when it ends. With the heap
// allowed to grow by 200% past the live heap, and a collection after each
// build (CollectIdle), a rebuild runs without one; the price is a heap up
// to three times the live one during a rebuild, so a live heap past
// maxTunedHeap (a catalog of tens of thousands of skills) keeps the
// default. restore sets the collector back.
func TuneGC() (restore func()) {
	if os.Getenv("GOGC") != "" || liveHeap() > maxTunedHeap {
		return func() {}
	}
	old := debug.SetGCPercent(200)
	return func() { debug.SetGCPercent(old) }
}

// maxTunedHeap is the largest live heap TuneGC lets grow by 200%: past it,
// the memory a rebuild would take costs more than the time it saves.
var maxTunedHeap uint64 = 1 << 30 // a variable for tests

// liveHeap is the heap the last collection found live.
func liveHeap() uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

// CollectIdle starts a collection in the background. Serve calls it after
// each build, while it waits for the next edit, so that the next rebuild
// has the whole headroom TuneGC gives it.
func CollectIdle() { go runtime.GC() }

// rebuild runs Rebuild while no request reads the site.
func (s *Server) rebuild(ctx context.Context, changed []string) error {
	s.building.Lock()
	defer s.building.Unlock()
	return s.Rebuild(ctx, changed)
}

// Builds returns how many rebuilds succeeded.
func (s *Server) Builds() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.builds
}

func (s *Server) logf(format string, args ...any) {
	if s.Log != nil {
		s.Log(format, args...)
	}
}
