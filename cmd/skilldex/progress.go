package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/skilldex/skilldex/build"
)

// progressView shows a build's progress as it goes. On a terminal, one
// line is rewritten in place with the current stage and its count
// (parsing 4,210/10,000 skills) and, with stageLines, each stage leaves a
// line when it ends, with its own duration. Elsewhere (a CI log), it
// prints a plain line every logEvery at most, so that a short build
// prints none and a long one shows it is alive; with stageLines and
// verbose, each stage's line too.
type progressView struct {
	w          io.Writer
	tty        bool
	stageLines bool // a line for each stage as it ends
	verbose    bool
	now        func() time.Time
	count      func() (done, total int)

	mu         sync.Mutex
	stage      string
	total      int
	stageStart time.Time
	buildStart time.Time
	shown      string    // the line now on the terminal
	logged     time.Time // when the last line was printed (not a terminal)
	stop, done chan struct{}
}

// logEvery is how often at most a build off a terminal says how far it is.
const logEvery = 5 * time.Second

// newProgressView follows p, writing to w.
func newProgressView(w io.Writer, p *build.Progress, stageLines, verbose bool) *progressView {
	v := &progressView{w: w, tty: isTerminal(w), stageLines: stageLines, verbose: verbose, now: time.Now, count: p.Count}
	v.buildStart = v.now()
	v.logged = v.buildStart
	p.OnStage = v.onStage
	return v
}

// run redraws the count until finish: ten times a second on a terminal,
// once a second elsewhere (where a line is printed every logEvery at most).
func (v *progressView) run() {
	v.stop, v.done = make(chan struct{}), make(chan struct{})
	every := time.Second
	if v.tty {
		every = 100 * time.Millisecond
	}
	go func() {
		defer close(v.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-v.stop:
				return
			case <-t.C:
				v.tick()
			}
		}
	}()
}

// finish ends the last stage and clears the line on the terminal.
func (v *progressView) finish() {
	if v.stop != nil {
		close(v.stop)
		<-v.done
		v.stop = nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.endStage(0)
	v.clear()
}

func (v *progressView) onStage(stage string, total int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.endStage(total)
	v.stage, v.total, v.stageStart = stage, total, v.now()
	v.draw(running(stage, 0, total))
}

func (v *progressView) tick() {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.stage == "" {
		return
	}
	done, _ := v.count()
	line := running(v.stage, done, v.total)
	if v.tty {
		v.draw(line)
		return
	}
	if now := v.now(); now.Sub(v.logged) >= logEvery {
		fmt.Fprintf(v.w, "%s (%s)\n", line, duration(now.Sub(v.buildStart)))
		v.logged = now
	}
}

// endStage prints the line of the stage that ended, if any. next is the
// total of the stage that follows: discovery's count is the inputs that
// parsing then has.
func (v *progressView) endStage(next int) {
	if v.stage == "" {
		return
	}
	stage := v.stage
	v.stage = ""
	if !v.stageLines || !v.tty && !v.verbose {
		return
	}
	total := v.total
	if stage == build.StageDiscover {
		total = next
	}
	v.clear()
	fmt.Fprintf(v.w, "%-34s %8s\n", ended(stage, total), duration(v.now().Sub(v.stageStart)))
	v.logged = v.now()
}

// draw shows line in place of the one on the terminal.
func (v *progressView) draw(line string) {
	if !v.tty || line == v.shown {
		return
	}
	fmt.Fprint(v.w, "\r\x1b[K"+line)
	v.shown = line
}

// clear removes the line on the terminal.
func (v *progressView) clear() {
	if v.tty && v.shown != "" {
		fmt.Fprint(v.w, "\r\x1b[K")
		v.shown = ""
	}
}

// writerWhat names what each writer's catalog-wide stage writes.
var writerWhat = map[string]string{
	"search": "the search index",
	"pages":  "the catalog pages",
	"api":    "the API and discovery files",
}

// running says what a stage is doing.
func running(stage string, done, total int) string {
	switch stage {
	case build.StageDiscover:
		return "finding skills"
	case build.StageParse:
		return fmt.Sprintf("parsing %s/%s", number(done), plural(total, "skill", "skills"))
	case build.StageSkills:
		return fmt.Sprintf("writing %s/%s", number(done), plural(total, "skill", "skills"))
	}
	if what, ok := writerWhat[stage]; ok {
		return "writing " + what
	}
	return "writing " + stage
}

// ended says what a stage did.
func ended(stage string, total int) string {
	switch stage {
	case build.StageDiscover:
		return "found " + plural(total, "skill", "skills")
	case build.StageParse:
		return "parsed " + plural(total, "skill", "skills")
	case build.StageSkills:
		return "wrote " + plural(total, "skill", "skills")
	}
	if what, ok := writerWhat[stage]; ok {
		return "wrote " + what
	}
	return "wrote " + stage
}

// duration rounds d for people: 8ms, 310ms, 2.1s, 1m4s.
func duration(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// isTerminal reports whether w is a terminal: not a file, a pipe or
// /dev/null (which is a character device too).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// useColor reports whether to colour what goes to w (see wantColor).
func useColor(w io.Writer) bool { return wantColor(isTerminal(w), os.Getenv) }

// wantColor says whether to colour output: on a terminal, unless NO_COLOR
// is set (no-color.org) or the terminal says it has none (TERM=dumb).
func wantColor(terminal bool, getenv func(string) string) bool {
	return terminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}
