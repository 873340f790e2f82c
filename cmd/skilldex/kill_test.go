package main

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skilldex/skilldex/internal/catalogen"
)

// When the test binary runs with this variable set, it is skilldex: the
// kill test starts it as a real process so that it can kill it.
const asCLI = "SKILLDEX_TEST_AS_CLI"

func init() {
	if os.Getenv(asCLI) == "1" {
		args := strings.Split(os.Getenv("SKILLDEX_TEST_ARGS"), "\n")
		os.Exit(run(context.Background(), args, os.Stdin, os.Stdout, os.Stderr))
	}
}

// TestKilledBuildLeavesSiteIntact kills a build with SIGKILL while it is
// writing, the worst interruption there is (no deferred clean-up runs), and
// checks that the site from the previous build is untouched, then that the
// next build succeeds and replaces it.
func TestKilledBuildLeavesSiteIntact(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a few hundred skills")
	}
	dir := t.TempDir()
	small, large := filepath.Join(dir, "small"), filepath.Join(dir, "large")
	if err := catalogen.Generate(small, 3, 1); err != nil {
		t.Fatal(err)
	}
	if err := catalogen.Generate(large, 400, 2); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "public")
	if code, _, errs := runCLI(t, "build", small, "-o", out); code != 0 {
		t.Fatalf("first build: exit %d: %s", code, errs)
	}
	before := snapshot(t, out)

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), asCLI+"=1", "SKILLDEX_TEST_ARGS="+strings.Join([]string{"build", large, "-o", out}, "\n"))
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// Kill it once it has started writing its new site beside the old one.
	deadline := time.Now().Add(2 * time.Minute)
	for !writing(t, dir) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the build never started writing")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	after := snapshot(t, out)
	if len(after) != len(before) {
		t.Fatalf("the site had %d files and has %d after the killed build", len(before), len(after))
	}
	for p, data := range before {
		if !bytes.Equal(after[p], data) {
			t.Errorf("%s changed under a killed build", p)
		}
	}
	if code, _, errs := runCLI(t, "build", large, "-o", out); code != 0 {
		t.Fatalf("build after the kill: exit %d: %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(out, "skills")); err != nil {
		t.Fatal(err)
	}
	if writing(t, dir) {
		t.Error("the killed build's temporary folder is still there after the next build")
	}
}

// writing reports whether a build's temporary site folder exists in dir.
func writing(t *testing.T, dir string) bool {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".public.skilldex-") {
			return true
		}
	}
	return false
}

func snapshot(t *testing.T, root string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(root, p)
		files[rel] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
