package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/internal/testutil"
)

// rawWords are what the file system and the standard library say, which
// never reach a user alone: each error says what was wrong in the user's
// words, and what to do.
var rawWords = []string{"stat ", "open ", "no such file or directory", "strconv.", "parse \"", "zip: ", "accepts ", "arg(s)", "required flag"}

// TestErrorMessages runs each mistake a user can make and checks the
// message: it names what was wrong and says what to do, with no system
// call's text, and the exit status is 2.
func TestErrorMessages(t *testing.T) {
	dir := testutil.WriteTxtar(t, t.TempDir(), cliCatalog)
	ok := filepath.Join(dir, "ok")
	notZip := filepath.Join(dir, "ok", "SKILL.md")
	missing := filepath.Join(dir, "missing")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"search", "--index", missing, "pdf"},
			"--index " + missing + " does not exist; give a site folder skilldex build wrote, its search/bleve folder, or its search/bleve.zip"},
		{[]string{"search", "--index", notZip, "pdf"},
			"--index " + notZip + " is neither a folder nor a ZIP archive of a search index; give a site folder"},
		{[]string{"build", "--config", filepath.Join(dir, "skilldex.yaml"), "-o", filepath.Join(dir, "o1")},
			"--config " + filepath.Join(dir, "skilldex.yaml") + " does not exist; give the path of a skilldex.yaml, or run skilldex init to make one"},
		{[]string{"build", ok, "--cpuprofile", filepath.Join(missing, "cpu.prof"), "-o", filepath.Join(dir, "o2")},
			"cannot write --cpuprofile " + filepath.Join(missing, "cpu.prof") + ": the folder " + missing + " does not exist; create it or choose another path"},
		{[]string{"pack", ok, "-o", filepath.Join(notZip, "ok.skill")},
			"cannot write " + filepath.Join(notZip, "ok.skill") + ": " + notZip + " is not in a folder: a part of its path is a file; choose another -o"},
		{[]string{"build", ok, "--base-url", "::bad", "-o", filepath.Join(dir, "o3")},
			`base URL "::bad" is not a URL: missing protocol scheme; give a URL such as https://acme.github.io/skills/`},
		{[]string{"query", "--site", dir, "a:b"},
			"give the folder skilldex build wrote (-o, default public), or build it first"},
		{[]string{"convert", ok}, "say what to convert to: --to uasp (a UASP document, as YAML) or --to markdown"},
		{[]string{"convert", "--to", "uasp"}, "skilldex convert needs one skill: its folder, its SKILL.md or a NAME.uasp.yaml; usage: skilldex convert --to uasp|markdown"},
		{[]string{"pack"}, "skilldex pack needs one skill folder; usage: skilldex pack DIR [-o NAME.skill]"},
		{[]string{"pack", "a", "b"}, "skilldex pack takes one skill folder, not 2 arguments (a b); usage: skilldex pack DIR"},
		{[]string{"search"}, "skilldex search needs words to search for; usage: skilldex search"},
		{[]string{"query"}, "skilldex query needs a query such as 'agent-browser:commands.click'; usage: skilldex query"},
		{[]string{"biuld"}, "unknown command \"biuld\" for \"skilldex\"\n\nDid you mean this?\n\tbuild\nskilldex help lists the commands"},
		{[]string{"serve", "--port", "x"}, `--port "x" is not a whole number; skilldex serve --help lists the flags`},
		{[]string{"serve", ok, "--poll", "-1s", "--port", "0"}, "--poll -1s is not an interval; give one such as 1s, or leave --poll out to watch"},
		{[]string{"serve", "--poll", "often"}, `--poll "often" is not`},
		{[]string{"search", "--limit", "many", "x"}, `--limit "many" is not a whole number; skilldex search --help lists the flags`},
		{[]string{"build", "--nope"}, "unknown flag --nope; skilldex build --help lists the flags"},
		{[]string{"build", "-o"}, "--output needs a value; skilldex build --help lists the flags"},
		{[]string{"build", ok, "-o", ""}, "-o is empty; give the folder to write the site to, such as -o public"},
		{[]string{"build", ok, "--base-url", "acme.github.io/skills", "-o", filepath.Join(dir, "o4")},
			`base URL "acme.github.io/skills" starts with a host but no https://, so it would be a path on the site (did you mean https://acme.github.io/skills/?)`},
		{[]string{"validate", "-x"}, "unknown flag -x; skilldex validate --help lists the flags"},
		{[]string{"search", "-v", "x"}, "unknown flag -v: skilldex search has no --verbose (skilldex --version prints the version); skilldex search --help lists the flags"},
		{[]string{"validate", missing}, "source " + missing + " does not exist"},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(t, c.args...)
		if code != exitFailure {
			t.Errorf("%v: exit %d, want 2", c.args, code)
		}
		if !strings.HasPrefix(stderr, "skilldex: ") || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: stderr\n%s\nwant\nskilldex: %s", c.args, stderr, c.want)
		}
		for _, w := range rawWords {
			if strings.Contains(stderr, w) {
				t.Errorf("%v: stderr has the raw %q:\n%s", c.args, w, stderr)
			}
		}
	}
}

// TestPackSaysEachFindingOnce: a skill past the archive limits was
// reported twice, by the check of the files (with the default limits) and
// by the limits of the run; each finding is printed once, and counts
// have their noun in the right number.
func TestPackSaysEachFindingOnce(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big")
	if err := os.MkdirAll(big, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"SKILL.md": "---\nspec: usk/1.0\nname: big\ndescription: A USK skill of more files than a package holds.\nversion: 1.0.0\n---\nBody.\n"}
	for i := range 55 {
		files[fmt.Sprintf("f%02d.txt", i)] = "x\n"
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(big, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"pack", big, "-o", dir + "/"},
		{"pack", "--strict", big, "-o", dir + "/"},
		{"pack", "--archive-max-files", "10", big, "-o", dir + "/"},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitFindings {
			t.Errorf("%v: exit %d, want 1\n%s", args, code, stderr)
		}
		seen := map[string]bool{}
		for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
			if seen[line] {
				t.Errorf("%v: %q printed twice", args, line)
			}
			seen[line] = true
		}
		if n := strings.Count(stderr, "56 files"); n > 1 {
			t.Errorf("%v: the skill's 56 files are reported %d times:\n%s", args, n, stderr)
		}
	}
	small := filepath.Join(dir, "one")
	os.MkdirAll(small, 0o755)
	os.WriteFile(filepath.Join(small, "SKILL.md"), []byte("---\nname: one\ndescription: One file, to pack.\n---\nBody.\n"), 0o644)
	if code, out, stderr := runCLI(t, "pack", small, "-o", dir+"/"); code != exitOK || !strings.Contains(out, "packed one (1 file, ") {
		t.Errorf("pack of one file: exit %d, %q %s", code, out, stderr)
	}
}
