package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/skilldex/skilldex/internal/testutil"
)

// A step of a GitHub Actions job or composite action.
type ghStep struct {
	Name string            `yaml:"name"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
	With map[string]string `yaml:"with"`
}

// installLine is how the workflow and the action install skilldex: once,
// with go install, at a version they pin.
var installLine = regexp.MustCompile(`^go install "github\.com/skilldex/skilldex/cmd/skilldex@\$\{(SKILLDEX_VERSION|VERSION:-latest)\}"$`)

var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// runSteps runs the run: steps of steps in dir as GitHub's runner would
// (bash, -e and pipefail, the env of the workflow and the step), with
// skilldex from bin, the expressions replaced by values. The step that
// installs skilldex must be go install's, once; it is not run.
func runSteps(t *testing.T, steps []ghStep, env map[string]string, values map[string]string, bin, dir string) {
	t.Helper()
	installs := 0
	for _, s := range steps {
		if s.Run == "" {
			continue
		}
		if strings.Contains(s.Run, "go install") {
			installs++
			if !installLine.MatchString(strings.TrimSpace(s.Run)) {
				t.Errorf("the install step runs %q", s.Run)
			}
			continue
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s.Run)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		for _, e := range []map[string]string{env, s.Env} {
			for k, v := range e {
				v = expression.ReplaceAllStringFunc(v, func(x string) string {
					name := expression.FindStringSubmatch(x)[1]
					val, ok := values[name]
					if !ok {
						t.Errorf("step %q: no value for ${{ %s }}", s.Name, name)
					}
					return val
				})
				cmd.Env = append(cmd.Env, k+"="+v)
			}
		}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("step %q: %v\n%s", s.Name, err, out)
		}
	}
	if installs != 1 {
		t.Errorf("skilldex is installed %d times, want once", installs)
	}
}

// TestPagesWorkflowAndActionRun builds skilldex, makes a catalog with
// skilldex init in a git repository, and runs the steps of the Pages
// workflow init writes (the README's), then those of the action at the
// repository's root with its inputs: each validates and builds the site
// for the address it is given.
func TestPagesWorkflowAndActionRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds skilldex")
	}
	for _, tool := range []string{"bash", "git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s", tool)
		}
	}
	bin := t.TempDir()
	if out, err := exec.Command("go", "build", "-o", filepath.Join(bin, "skilldex"), ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	catalog := filepath.Join(t.TempDir(), "catalog")
	if code, _, stderr := runCLI(t, "init", catalog); code != exitOK {
		t.Fatalf("init: %s", stderr)
	}
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = catalog
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_AUTHOR_DATE=2026-03-01T12:00:00Z", "GIT_COMMITTER_DATE=2026-03-01T12:00:00Z")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "catalog")

	var workflow struct {
		Env  map[string]string
		Jobs map[string]struct {
			Steps []ghStep
		}
	}
	data, err := os.ReadFile(filepath.Join(catalog, ".github", "workflows", "pages.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &workflow); err != nil {
		t.Fatal(err)
	}
	runSteps(t, workflow.Jobs["build"].Steps, workflow.Env, map[string]string{"steps.pages.outputs.base_url": "https://acme.github.io/skills"}, bin, catalog)
	sitemap, err := os.ReadFile(filepath.Join(catalog, "public", "sitemap.xml"))
	if err != nil || !strings.Contains(string(sitemap), "https://acme.github.io/skills/skills/write-a-skill/") {
		t.Errorf("the workflow's site has no sitemap for its address: %v\n%s", err, sitemap)
	}

	var action struct {
		Inputs map[string]struct {
			Default string
		}
		Runs struct {
			Using string
			Steps []ghStep
		}
	}
	data, err = os.ReadFile(filepath.Join(testutil.ProjectRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"sources", "base-url", "strict", "output", "version"} {
		if _, ok := action.Inputs[in]; !ok {
			t.Errorf("action.yml has no input %s", in)
		}
	}
	if action.Runs.Using != "composite" {
		t.Errorf("action.yml runs %q, want composite", action.Runs.Using)
	}
	inputs := func(set map[string]string) map[string]string {
		v := map[string]string{}
		for name, in := range action.Inputs {
			v["inputs."+name] = in.Default
		}
		for name, val := range set {
			v["inputs."+name] = val
		}
		return v
	}
	runSteps(t, action.Runs.Steps, nil, inputs(map[string]string{"sources": "skills\n", "base-url": "https://acme.github.io/other/", "strict": "true", "output": "site"}), bin, catalog)
	sitemap, err = os.ReadFile(filepath.Join(catalog, "site", "sitemap.xml"))
	if err != nil || !strings.Contains(string(sitemap), "https://acme.github.io/other/skills/write-a-skill/") {
		t.Errorf("the action's site has no sitemap for its address: %v\n%s", err, sitemap)
	}
	// Without inputs nor a config file, the action publishes the
	// repository's skills, not skilldex's demo catalog.
	if err := os.Remove(filepath.Join(catalog, "skilldex.yaml")); err != nil {
		t.Fatal(err)
	}
	runSteps(t, action.Runs.Steps, nil, inputs(nil), bin, catalog)
	if _, err := os.Stat(filepath.Join(catalog, "public", "skills", "write-a-skill", "index.html")); err != nil {
		t.Errorf("the action without inputs did not build the repository's skills: %v", err)
	}
	if _, err := os.Stat(filepath.Join(catalog, "public", "skills", "csv-profiler")); err == nil {
		t.Error("the action without inputs published the demo catalog")
	}

	// A strict action fails on a warning.
	warn := filepath.Join(catalog, "skills", "warn", "SKILL.md")
	os.MkdirAll(filepath.Dir(warn), 0o755)
	os.WriteFile(warn, []byte("---\nname: warn\ndescription: A skill with a field no spec knows.\nargument-hint: x\n---\nBody.\n"), 0o644)
	validate := ""
	for _, s := range action.Runs.Steps {
		if s.Name == "Validate" {
			validate = s.Run
		}
	}
	strict := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", validate)
	strict.Dir = catalog
	strict.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "STRICT=true", "SOURCES=skills")
	if out, err := strict.CombinedOutput(); err == nil || !strings.Contains(string(out), "::error file=skills/warn/SKILL.md") {
		t.Errorf("the strict action's validation passed a warning: %v\n%s", err, out)
	}
}

// actionInputs are the inputs of the actions the Pages workflow uses, at
// the versions it pins, as their action.yml files declare them. An input
// an action does not have is only warned about on every run, and does
// nothing: upload-pages-artifact@v3 has no include-hidden-files, and v4
// drops every dot-file (.nojekyll, .well-known/) whatever it is given.
// Bumping a pin means reading that version's action.yml and this table.
var actionInputs = map[string][]string{
	"actions/checkout@v4":              {"repository", "ref", "token", "ssh-key", "ssh-known-hosts", "ssh-strict", "ssh-user", "persist-credentials", "path", "clean", "filter", "sparse-checkout", "sparse-checkout-cone-mode", "fetch-depth", "fetch-tags", "show-progress", "lfs", "submodules", "set-safe-directory", "github-server-url", "allow-unsafe-pr-checkout"},
	"actions/setup-go@v5":              {"go-version", "go-version-file", "check-latest", "token", "cache", "cache-dependency-path", "architecture"},
	"actions/configure-pages@v5":       {"static_site_generator", "generator_config_file", "token", "enablement"},
	"actions/upload-pages-artifact@v5": {"name", "path", "retention-days", "include-hidden-files"},
	"actions/deploy-pages@v4":          {"token", "timeout", "error_count", "reporting_interval", "artifact_name", "preview"},
}

// TestPagesWorkflowInputsExist: every action the workflow skilldex init
// writes is pinned at a version whose inputs actionInputs lists, and is
// given only those.
func TestPagesWorkflowInputsExist(t *testing.T) {
	data, err := initFS.ReadFile("initfs/pages.yml")
	if err != nil {
		t.Fatal(err)
	}
	var workflow struct {
		Jobs map[string]struct{ Steps []ghStep }
	}
	if err := yaml.Unmarshal(data, &workflow); err != nil {
		t.Fatal(err)
	}
	uses := 0
	for job, j := range workflow.Jobs {
		for _, s := range j.Steps {
			if s.Uses == "" {
				continue
			}
			uses++
			inputs, ok := actionInputs[s.Uses]
			if !ok {
				t.Errorf("%s: %s is not in actionInputs: read its action.yml and add its inputs", job, s.Uses)
				continue
			}
			for k := range s.With {
				if !slices.Contains(inputs, k) {
					t.Errorf("%s: %s has no input %q", job, s.Uses, k)
				}
			}
		}
	}
	if uses < 5 {
		t.Errorf("%d steps use actions, want at least 5", uses)
	}
}
