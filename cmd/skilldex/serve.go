package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
	"github.com/skilldex/skilldex/build/serve"
	"github.com/skilldex/skilldex/build/source"
	"github.com/skilldex/skilldex/internal/fswatch"
)

func newServeCmd() *cobra.Command {
	var f siteFlags
	var port int
	var host string
	var poll time.Duration
	cmd := &cobra.Command{
		Use:   "serve [SOURCE...]",
		Short: "Build the site, serve it on localhost, and rebuild and reload on every change",
		Long: `serve builds the site as build does, serves it on localhost, watches the
sources, rebuilds when a file changes, and reloads the pages open in a
browser. A rebuild that fails is reported and the previous site stays up.
After a rebuild, serve prints the errors and warnings of the skills it
read again, and the catalog's count of them when it changed.

The sources are watched with the system's file notifications (inotify on
Linux), which cost nothing while nothing changes; a rebuild reads again
only the skills whose files changed. File systems that send no
notifications leave edits unseen: network mounts (NFS, SMB, sshfs), some
container and virtual machine shared folders (Docker Desktop and Vagrant
mounts, WSL's /mnt/c). Serve such sources with --poll 1s, which looks at
every file each second instead. When the system's limit on watched
folders is reached, serve says how to raise it and polls.

The site is written to a temporary folder unless -o is given. Sources,
config file and flags work as for build.`,
		Example: `  skilldex serve                 # the embedded demo catalog
  skilldex serve skills/ --port 8080
  skilldex serve /mnt/share/skills --poll 1s   # a network mount`,
		RunE: func(cmd *cobra.Command, args []string) error {
			p, err := f.plan(cmd, args)
			if err != nil {
				return failure(err)
			}
			defer p.cleanup()
			stderr := cmd.ErrOrStderr()
			if poll < 0 {
				return failure(fmt.Errorf("--poll %s is not an interval; give one such as 1s, or leave --poll out to watch", poll))
			}
			// The port is taken before the first build, which takes
			// minutes for a large catalog: a port in use says so at once.
			// Browsers that connect meanwhile wait for the build.
			ln, err := listen(host, port)
			if err != nil {
				return failure(err)
			}
			defer ln.Close() // when serve fails before serving
			if !cmd.Flags().Changed("output") {
				dir, err := os.MkdirTemp("", "skilldex-serve-")
				if err != nil {
					return failure(err)
				}
				defer os.RemoveAll(dir)
				p.opt.Output = filepath.Join(dir, "site")
			}
			// The server is on localhost: links must stay on it whatever
			// the published base URL, so keep only its path.
			p.opt.Site.Base.Scheme, p.opt.Site.Base.Host = "", ""
			// Rebuilds redo only the skills whose files changed.
			p.opt.Cache = build.NewCache()
			ctx := cmd.Context()
			srv := &serve.Server{
				Dir:      p.opt.Output,
				BasePath: p.opt.Site.Base.Path,
				Watching: fswatch.Options{
					Roots: p.opt.Sources,
					// As discovery skips them, the output folder too:
					// the rebuilds' writes are no change.
					Skip: source.NewSkipper(source.Options{Exclude: append(slices.Clip(p.opt.Source.Exclude), p.opt.Output)}),
					Poll: poll,
				},
				Log: func(format string, args ...any) {
					// Quiet, serve prints only problems: the rebuilds
					// that failed, a fallback to polling.
					if f.quiet && !strings.Contains(format, "failed") && !strings.Contains(format, "polling") {
						return
					}
					fmt.Fprintf(stderr, time.Now().Format("15:04:05 ")+format+"\n", args...)
				},
			}
			// The config file is watched with the sources: an edit to it
			// plans the site again.
			config := configPath(f.configFile)
			if config != "" {
				srv.Watching.Roots = append(slices.Clip(srv.Watching.Roots), config)
			}
			if p.demo {
				// The unpacked demo never changes: nothing to watch.
				srv.Watching.Roots = nil
			}
			// Watching starts before the first build: a file saved
			// while it runs makes the watcher rebuild at once.
			if err := srv.Start(); err != nil {
				return failure(err)
			}
			res, err := f.build(cmd, p.opt)
			if err != nil {
				return failure(fmt.Errorf("first build: %w", err))
			}
			if !f.quiet {
				printSummary(stderr, res, p.opt.Output, p.opt.Site)
			}
			// The first build was a full one, with the default headroom;
			// the rebuilds get more (see TuneGC).
			serve.TuneGC()
			serve.CollectIdle()
			// Later builds are incremental: only what changed is rendered
			// and written.
			p.opt.Previous = res.Manifest
			var findings rebuildFindings
			findings.remember(res.Catalog)

			srv.Rebuild = func(ctx context.Context, changed []string) error {
				if config != "" && (changed == nil || slices.Contains(changed, config)) {
					if err := replan(cmd, &f, args, p, stderr); err != nil {
						return err
					}
					changed = nil // the sources or their options may have changed
				}
				// Told what changed, the load looks only there.
				p.opt.Changed = changed
				res, err := build.Build(ctx, p.opt)
				if res != nil && res.Catalog != nil {
					findings.print(stderr, res.Catalog, f.quiet, p.opt.Strict)
				}
				if err != nil {
					p.opt.Previous = nil // the folder may be half updated: rebuild it whole
					return err
				}
				p.opt.Previous = res.Manifest
				if !f.quiet {
					hits, misses := p.opt.Cache.Stats()
					fmt.Fprintf(stderr, "%s parsed again, %s unchanged; %s written, %s kept\n",
						plural(misses, "skill", "skills"), number(hits), plural(res.Written, "file", "files"), number(res.Kept))
				}
				return nil
			}
			// Requests live within ctx: when serve ends, the event
			// streams of open pages end too, instead of holding the
			// server (and its goroutines and sockets) open.
			ctx, stop := context.WithCancel(ctx)
			hs := &http.Server{
				Handler:           srv.Handler(),
				ReadHeaderTimeout: 10 * time.Second,
				BaseContext:       func(net.Listener) context.Context { return ctx },
			}
			// The address is printed even with --quiet: it is what serve
			// is for.
			fmt.Fprintf(stderr, "serving on http://%s%s (Ctrl-C to stop)\n", ln.Addr(), srv.BasePath)
			// serve returns only after the watcher and the server have
			// stopped: a rebuild still running would write into the
			// temporary site as it is removed.
			var wg sync.WaitGroup
			defer wg.Wait()
			defer stop() // runs before the wait: ends the goroutines below
			wg.Go(func() { srv.Watch(ctx) })
			wg.Go(func() {
				<-ctx.Done()
				shutdown, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				if hs.Shutdown(shutdown) != nil {
					hs.Close() // a request that would not end
				}
			})
			if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return failure(err)
			}
			return nil
		},
	}
	f.register(cmd, "")
	cmd.Flags().IntVar(&port, "port", 8484, "port to listen on (0: any free port)")
	cmd.Flags().StringVar(&host, "host", "127.0.0.1", "address to listen on")
	cmd.Flags().DurationVar(&poll, "poll", 0, "look for changes at this interval (such as 1s) instead of watching: for network mounts and shared folders that send no file notifications")
	return cmd
}

// rebuildFindings is what serve remembers of the findings of the last
// build, so that a rebuild prints what it changed rather than every
// finding of the catalog again.
type rebuildFindings struct {
	// keys are the skills' Keys: a skill with another key was parsed
	// again.
	keys map[string]bool
	// shown are the findings of each skill, by file, and global those of
	// the catalog: they change without the skill being parsed again when
	// a new skill shadows it. Compared as they are, not formatted, so
	// that a rebuild of a large catalog pays little for them.
	shown            map[string][]diag.Diagnostic
	global           []diag.Diagnostic
	errors, warnings int
}

// remember keeps what c found, for the next print.
func (r *rebuildFindings) remember(c *catalog.Catalog) {
	r.keys, r.shown = make(map[string]bool, len(c.All)), make(map[string][]diag.Diagnostic, len(c.All))
	for _, s := range c.All {
		if s.Key != "" {
			r.keys[s.Key] = true
		}
		r.shown[s.File()] = s.Diagnostics
	}
	r.global = c.Diagnostics
	s := c.Summarize()
	r.errors, r.warnings = s.Errors, s.Warnings
}

// print prints the errors and warnings of the skills c parsed again or
// whose findings changed since the last build, and the catalog's count of
// errors and warnings when it changed, so that a fix shows too; then it
// remembers c. Quiet, it prints the errors only, as build does.
func (r *rebuildFindings) print(w io.Writer, c *catalog.Catalog, quiet, strict bool) {
	p := findingsPrinter{w: w, color: useColor(w), warnings: !quiet || strict}
	if !slices.Equal(c.Diagnostics, r.global) {
		p.print(c.Diagnostics)
	}
	for _, s := range c.All {
		if s.Key != "" && !r.keys[s.Key] || !slices.Equal(s.Diagnostics, r.shown[s.File()]) {
			p.print(s.Diagnostics)
		}
	}
	if sum := c.Summarize(); !quiet && (sum.Errors != r.errors || sum.Warnings != r.warnings) {
		fmt.Fprintf(w, "now %s, %s (was %s, %s)\n", plural(sum.Errors, "error", "errors"), plural(sum.Warnings, "warning", "warnings"),
			plural(r.errors, "error", "errors"), plural(r.warnings, "warning", "warnings"))
	}
	r.remember(c)
}

// configPath is the real path of the config file serve reads, or "" when
// it reads none.
func configPath(flag string) string {
	p := flag
	if p == "" {
		p = ConfigFile
	}
	real, err := filepath.EvalSymlinks(p)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return ""
	}
	return real
}

// replan reads the config file again after it changed, into p: what serve
// serves keeps its folder, cache and address; a source added or removed
// is built, but the watch stays on the sources serve started with.
func replan(cmd *cobra.Command, f *siteFlags, args []string, p *buildPlan, stderr io.Writer) error {
	np, err := f.plan(cmd, args)
	if err != nil {
		return err
	}
	if np.demo {
		np.cleanup()
		return fmt.Errorf("%s is gone; put it back, or restart serve", ConfigFile)
	}
	if !slices.Equal(np.opt.Sources, p.opt.Sources) {
		fmt.Fprintf(stderr, "the sources changed in %s: restart serve to watch the new ones\n", ConfigFile)
	}
	np.opt.Output, np.opt.Cache, np.opt.Previous = p.opt.Output, p.opt.Cache, p.opt.Previous
	np.opt.Site.Base.Scheme, np.opt.Site.Base.Host = "", ""
	p.opt = np.opt
	return nil
}

// listen takes the port serve listens on, and says in words why it
// cannot.
func listen(host string, port int) (net.Listener, error) {
	if port < 0 || port > 65535 {
		return nil, fmt.Errorf("--port %d is not a port; give one from 1 to 65535, or 0 for any free port", port)
	}
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	ln, err := net.Listen("tcp", addr)
	switch {
	case err == nil:
		return ln, nil
	case errors.Is(err, syscall.EADDRINUSE):
		return nil, fmt.Errorf("port %d on %s is in use, by another skilldex serve or another server; stop it, or choose another port with --port (0: any free port)", port, host)
	case errors.Is(err, syscall.EACCES):
		return nil, fmt.Errorf("port %d needs privileges to listen on; choose a port above 1023 with --port", port)
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return nil, fmt.Errorf("--host %s is not an address of this machine; give 127.0.0.1 (this machine only) or 0.0.0.0 (every network)", host)
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return nil, fmt.Errorf("--host %s is not a known host name or an address; give 127.0.0.1 (this machine only) or 0.0.0.0 (every network)", host)
	}
	return nil, fmt.Errorf("cannot listen on %s: %v; choose another --host or --port", addr, err)
}
