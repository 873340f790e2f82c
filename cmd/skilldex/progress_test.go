package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skilldex/skilldex/build"
)

// fakeBuild drives a progressView as a build of 10,000 skills would, on a
// clock the test moves: each stage takes its time in ticks of tickEvery,
// its count growing evenly.
func fakeBuild(v *progressView, tickEvery time.Duration) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	v.now = func() time.Time { return now }
	v.buildStart, v.logged = now, now
	var done, total int
	v.count = func() (int, int) { return done, total }
	stages := []struct {
		name  string
		total int
		takes time.Duration
	}{
		{build.StageDiscover, 0, 300 * time.Millisecond},
		{build.StageParse, 10000, 8 * time.Second},
		{build.StageSkills, 10000, 4 * time.Second},
		{"search", 0, 1200 * time.Millisecond},
		{"pages", 0, 40 * time.Millisecond},
		{"api", 0, 500 * time.Millisecond},
	}
	for _, s := range stages {
		done, total = 0, s.total
		v.onStage(s.name, s.total)
		for t := time.Duration(0); t < s.takes; {
			step := min(tickEvery, s.takes-t)
			t += step
			now = now.Add(step)
			done = int(int64(s.total) * int64(t) / int64(s.takes))
			v.tick()
		}
	}
	v.finish()
}

// TestProgressOnTerminal: on a terminal, one line is rewritten with the
// count, and each stage leaves a line with its own duration.
func TestProgressOnTerminal(t *testing.T) {
	var buf bytes.Buffer
	v := &progressView{w: &buf, tty: true, stageLines: true}
	fakeBuild(v, 2*time.Second)
	out := buf.String()
	for _, want := range []string{
		"\r\x1b[Kparsing 5,000/10,000 skills",
		"\r\x1b[Kwriting 10,000/10,000 skills",
		"\r\x1b[Kfound 10,000 skills                   300ms\n",
		"\r\x1b[Kparsed 10,000 skills                     8s\n",
		"\r\x1b[Kwrote 10,000 skills                      4s\n",
		"\r\x1b[Kwrote the search index                 1.2s\n",
		"\r\x1b[Kwrote the catalog pages                40ms\n",
		"\r\x1b[Kwrote the API and discovery files     500ms\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the terminal lacks %q:\n%q", want, out)
		}
	}
	if !strings.HasSuffix(out, "500ms\n") {
		t.Errorf("the progress line is not cleared at the end:\n%q", out)
	}
}

// TestProgressOffTerminal: in a log, a line every logEvery at most, none
// of the terminal's control sequences, and the stages' lines only when
// verbose.
func TestProgressOffTerminal(t *testing.T) {
	for _, verbose := range []bool{false, true} {
		var buf bytes.Buffer
		v := &progressView{w: &buf, stageLines: true, verbose: verbose}
		fakeBuild(v, time.Second)
		out := buf.String()
		if strings.Contains(out, "\x1b") || strings.Contains(out, "\r") {
			t.Errorf("verbose %v: control sequences in a log:\n%q", verbose, out)
		}
		want := []string{
			"parsing 6,250/10,000 skills (5.3s)",
			"writing 5,000/10,000 skills (10.3s)",
		}
		if verbose {
			// A stage's line counts as one: the next comes logEvery after.
			want = []string{
				"found 10,000 skills                   300ms",
				"parsing 6,250/10,000 skills (5.3s)",
				"parsed 10,000 skills                     8s",
				"wrote 10,000 skills                      4s",
				"wrote the search index                 1.2s",
				"wrote the catalog pages                40ms",
				"wrote the API and discovery files     500ms",
			}
		}
		if got := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("verbose %v: the log is\n%s\nwant\n%s", verbose, out, strings.Join(want, "\n"))
		}
	}
}

// TestProgressShortBuildOffTerminal: a build shorter than logEvery prints
// nothing in a log.
func TestProgressShortBuildOffTerminal(t *testing.T) {
	var buf bytes.Buffer
	v := &progressView{w: &buf, stageLines: true}
	now := time.Now()
	v.now = func() time.Time { return now }
	v.buildStart, v.logged = now, now
	v.count = func() (int, int) { return 1, 2 }
	v.onStage(build.StageParse, 2)
	now = now.Add(logEvery - time.Millisecond)
	v.tick()
	v.finish()
	if buf.Len() > 0 {
		t.Errorf("a short build printed %q", buf.String())
	}
}

func TestNumber(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 10000: "10,000", 1234567: "1,234,567", -4210: "-4,210"} {
		if got := number(n); got != want {
			t.Errorf("number(%d) = %q, want %q", n, got, want)
		}
	}
	for n, want := range map[int]string{0: "0 files", 1: "1 file", 2: "2 files", 12000: "12,000 files"} {
		if got := plural(n, "file", "files"); got != want {
			t.Errorf("plural(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestColor: colour only on a terminal, and never with NO_COLOR or
// TERM=dumb; /dev/null, a pipe and a file are no terminal.
func TestColor(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	cases := []struct {
		terminal bool
		getenv   func(string) string
		want     bool
	}{
		{true, env("TERM", "xterm-256color"), true},
		{true, env("NO_COLOR", "1"), false},
		{true, env("TERM", "dumb"), false},
		{false, env(), false},
	}
	for i, c := range cases {
		if got := wantColor(c.terminal, c.getenv); got != c.want {
			t.Errorf("case %d: colour %v, want %v", i, got, c.want)
		}
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	file, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	for name, out := range map[string]io.Writer{"/dev/null": null, "a pipe": w, "a file": file, "a buffer": &bytes.Buffer{}} {
		if isTerminal(out) {
			t.Errorf("%s is taken for a terminal", name)
		}
	}
}
