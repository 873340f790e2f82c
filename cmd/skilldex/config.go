package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/skilldex/skilldex/build/forge"
	"github.com/skilldex/skilldex/build/siteinfo"
	"github.com/skilldex/skilldex/build/yamltree"
)

// ConfigFile is the config file build and serve read from the current
// folder when --config is not given.
const ConfigFile = "skilldex.yaml"

// config is skilldex.yaml. Flags given on the command line override it.
// Its fields are in the order the README and the JSON Schema
// (skilldex.schema.json) list the keys.
type config struct {
	Title       string   `yaml:"title"`
	Description string   `yaml:"description"`
	BaseURL     string   `yaml:"base_url"`
	Repository  repoSpec `yaml:"repository"`
	// SourceEntries are the sources as the file has them (sourceEntry),
	// Sources their resolved paths, and sourceNames the names some give
	// them, by resolved path (build.LoadOptions.SourceNames).
	SourceEntries sourceList `yaml:"sources"`
	Sources       []string   `yaml:"-"`
	sourceNames   map[string]string
	Output        string `yaml:"output"`
	Strict        bool   `yaml:"strict"`
	API           struct {
		// Paths is which UASP query paths get a static file: all,
		// sections, none, or auto (all while the answer files stay
		// within siteinfo.PathFileBudget, sections beyond).
		Paths string `yaml:"paths"`
	} `yaml:"api"`
	Discovery struct {
		// Legacy is whether the v0.1 discovery index and its SKILL.md
		// copies are published: true, false, or auto (true up to
		// siteinfo.LargeCatalog skills).
		Legacy string `yaml:"legacy"`
	} `yaml:"discovery"`
	// Publish turns the optional parts of the site on and off (see
	// siteinfo.Parts); a part not named stays on.
	Publish struct {
		Markdown    *bool `yaml:"markdown"`
		Sources     *bool `yaml:"sources"`
		Archives    *bool `yaml:"archives"`
		Bleve       *bool `yaml:"bleve"`
		DerivedDocs *bool `yaml:"derived_docs"`
	} `yaml:"publish"`

	// dir is the folder holding the file: sources and output are relative
	// to it, so a build gives the same site from any working folder.
	dir  string
	path string
}

// sourceEntry is one entry of sources: a path, or a mapping {path, name}
// whose name says where the source's skills come from (the Source facet;
// see package sourcename for the name a source gets without one).
type sourceEntry struct {
	// The tags name the keys UnmarshalYAML reads (and configKeys lists).
	Path string `yaml:"path"`
	Name string `yaml:"name"`
}

// sourceList is the sources key: a list of sourceEntry.
type sourceList []sourceEntry

// UnmarshalYAML reads the list entry by entry, so that an empty entry (~)
// is found, by its line, as a mistyped one is.
func (l *sourceList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind != yaml.SequenceNode {
		return fmt.Errorf("line %d: sources is a list of paths or {path, name}, such as sources: [skills]", n.Line)
	}
	for _, item := range n.Content {
		var e sourceEntry
		if err := e.read(item); err != nil {
			return err
		}
		*l = append(*l, e)
	}
	return nil
}

// read reads a path or a {path, name} mapping.
func (e *sourceEntry) read(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		if err := n.Decode(&e.Path); err != nil {
			return err
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			var dst *string
			switch k.Value {
			case "path":
				dst = &e.Path
			case "name":
				dst = &e.Name
			default:
				return fmt.Errorf("line %d: key %s is not a key of a source; a source is a path or {path, name}", k.Line, k.Value)
			}
			if v.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: the %s of a source is text", v.Line, k.Value)
			}
			if err := v.Decode(dst); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("line %d: a source is a path or {path, name}", n.Line)
	}
	// An empty path would be the config's own folder: a source left
	// blank by mistake would publish the whole catalog root.
	if strings.TrimSpace(e.Path) == "" {
		return fmt.Errorf("line %d: a source needs a path, such as skills or {path: skills, name: Acme skills}", n.Line)
	}
	return nil
}

// loadConfig reads the config file at path; with path "" it reads
// skilldex.yaml from the current folder if there is one, and returns nil if
// there is none.
func loadConfig(path string) (*config, error) {
	explicit := path != ""
	if !explicit {
		path = ConfigFile
	}
	data, err := os.ReadFile(path)
	switch {
	case err == nil:
	case !explicit && errors.Is(err, os.ErrNotExist):
		return nil, nil
	case explicit && errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("--config %s does not exist; give the path of a %s, or run skilldex init to make one", path, ConfigFile)
	default:
		return nil, fmt.Errorf("cannot read the config file: %s", pathProblem(err))
	}
	var c config
	// The syntax first, for the position of a syntax error (the
	// decoder's is that of the construct the problem is in, and for some
	// problems one line early), and for the keys of the values the
	// decoder's messages are about. A stray --- at the end stays the
	// decoder's business, as it was.
	root, err := yamltree.Parse(data, yamltree.DefaultLimits)
	if err != nil {
		var ye *yamltree.Error
		switch {
		case errors.As(err, &ye) && strings.HasPrefix(ye.Msg, "expected a single document"):
		case ye != nil && ye.Line > 0:
			return nil, fmt.Errorf("%s:%d:%d: invalid YAML: %s", path, ye.Line, ye.Column, ye.Msg)
		default:
			return nil, fmt.Errorf("%s: invalid YAML: %v", path, err)
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		// One message a line, each at its position.
		var msgs []string
		for _, msg := range strings.Split(yamlMessage(err), "\n  ") {
			// The list helps with a mistyped key of the file's; a mistake
			// in a source or in repository has its own message.
			if strings.HasSuffix(msg, " is not a known key") && unknownKey.MatchString(err.Error()) {
				msg += " (the keys are " + strings.Join(configKeys(reflect.TypeFor[config](), "", false), ", ") + ")"
			}
			m := lineMessage.FindStringSubmatch(msg)
			if m == nil {
				msgs = append(msgs, path+": "+msg)
				continue
			}
			line, _ := strconv.Atoi(m[1])
			text := m[2]
			if strings.HasPrefix(text, "want ") {
				kind := yaml.ScalarNode
				switch {
				case strings.HasSuffix(text, "not a list"):
					kind = yaml.SequenceNode
				case strings.HasSuffix(text, "not a mapping"):
					kind = yaml.MappingNode
				}
				if key := keyOfValueAt(root, line, kind); key != "" {
					text = key + ": " + text
				}
			}
			msgs = append(msgs, fmt.Sprintf("%s:%d:%d: %s", path, line, yamltree.FirstColumn(data, line), text))
		}
		return nil, errors.New(strings.Join(msgs, "\n"))
	}
	switch c.API.Paths {
	case "", "auto", "all", "sections", "none":
	default:
		return nil, fmt.Errorf("%s: api.paths is %q; want auto, all, sections or none", path, c.API.Paths)
	}
	switch c.Discovery.Legacy {
	case "", "auto", "true", "false":
	default:
		return nil, fmt.Errorf("%s: discovery.legacy is %q; want auto, true or false", path, c.Discovery.Legacy)
	}
	if c.BaseURL != "" {
		if _, err := siteinfo.New("", c.BaseURL); err != nil {
			return nil, fmt.Errorf("%s: base_url: %v; give a URL such as https://acme.github.io/skills/ or a path such as /skills/", path, err)
		}
	}
	if err := c.Repository.check(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	c.path = path
	c.dir = filepath.Dir(path)
	for _, e := range c.SourceEntries {
		p := c.resolve(e.Path)
		c.Sources = append(c.Sources, p)
		if e.Name != "" {
			if c.sourceNames == nil {
				c.sourceNames = map[string]string{}
			}
			c.sourceNames[p] = e.Name
		}
	}
	if c.Output != "" {
		c.Output = c.resolve(c.Output)
	}
	return &c, nil
}

// configKeys lists the keys of the config type t, as the file writes them:
// a mapping's keys under it, dotted (api.paths). A key whose value reads
// itself (a yaml.Unmarshaler, such as repository and sources) is one key,
// unless all is set: then its keys are listed too (repository.url,
// sources[].path), as the config's JSON Schema has them.
func configKeys(t reflect.Type, prefix string, all bool) []string {
	var keys []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		key := prefix + name
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		reads := readsItself(ft)
		if ft.Kind() == reflect.Slice {
			ft = ft.Elem()
			key += "[]"
			reads = reads || readsItself(ft)
		}
		if ft.Kind() == reflect.Struct && (all || !reads) {
			keys = append(keys, configKeys(ft, key+".", all)...)
			continue
		}
		keys = append(keys, strings.TrimSuffix(key, "[]"))
	}
	return keys
}

// readsItself reports whether a value of type t reads its own YAML.
func readsItself(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(reflect.TypeFor[yaml.Unmarshaler]())
}

// parts returns the site parts the config publishes.
func (c *config) parts() siteinfo.Parts {
	p := siteinfo.AllParts
	set := func(dst *bool, v *bool) {
		if v != nil {
			*dst = *v
		}
	}
	set(&p.Markdown, c.Publish.Markdown)
	set(&p.Sources, c.Publish.Sources)
	set(&p.Archives, c.Publish.Archives)
	set(&p.Bleve, c.Publish.Bleve)
	set(&p.DerivedDocs, c.Publish.DerivedDocs)
	return p
}

func (c *config) resolve(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.dir, filepath.FromSlash(p))
}

// unknownKey matches what yaml says of a key the config has no field for,
// naming the Go type it decoded into (main.config, or the struct of api,
// publish or discovery).
var unknownKey = regexp.MustCompile(` not found in type [^\n]*`)

// keyOfValueAt returns the dotted key of a mapping value of the kind
// that starts on the 1-based line ("api.paths" of "api: {paths: [x]}"
// for a list), or "".
func keyOfValueAt(n *yaml.Node, line int, kind yaml.Kind) string {
	if n == nil {
		return ""
	}
	for i, c := range n.Content {
		key := ""
		if n.Kind == yaml.MappingNode {
			if i%2 == 0 {
				continue
			}
			key = n.Content[i-1].Value
		}
		if deeper := keyOfValueAt(c, line, kind); deeper != "" {
			if key == "" {
				return deeper
			}
			return key + "." + deeper
		}
		if key != "" && c.Line == line && c.Kind == kind {
			return key
		}
	}
	return ""
}

// lineMessage is a decoder message about one line: "line N: message".
var lineMessage = regexp.MustCompile(`^line (\d+): (.*)$`)

// typeMismatch is the decoder's message for a value of the wrong kind:
// "cannot unmarshal !!str `maybe` into bool".
var typeMismatch = regexp.MustCompile("cannot unmarshal !!(\\w+)(?: `([^`]*)`)? into (\\S+)")

// wantedKinds says in words what a Go type of the config wants.
var wantedKinds = map[string]string{
	"bool": "true or false", "int": "a whole number", "string": "text",
	"[]string": "a list of text", "float64": "a number",
}

// yamlKinds says in words what a YAML tag is.
var yamlKinds = map[string]string{"seq": "a list", "map": "a mapping", "str": "text", "int": "a number", "float": "a number", "bool": "true or false", "null": "nothing"}

// yamlMessage drops the "yaml: " prefix, which says nothing to a user, and
// says "is not a known key" where yaml names a Go type, and what a value
// of the wrong kind should be.
func yamlMessage(err error) string {
	msg := unknownKey.ReplaceAllString(err.Error(), " is not a known key")
	msg = strings.ReplaceAll(msg, ": field ", ": key ")
	msg = typeMismatch.ReplaceAllStringFunc(msg, func(m string) string {
		sub := typeMismatch.FindStringSubmatch(m)
		want, ok := wantedKinds[sub[3]]
		if !ok {
			return m
		}
		got := yamlKinds[sub[1]]
		if sub[2] != "" {
			got = fmt.Sprintf("%q", sub[2])
		}
		if got == "" {
			return m
		}
		return fmt.Sprintf("want %s here, not %s", want, got)
	})
	for _, p := range []string{"yaml: unmarshal errors:\n  ", "yaml: "} {
		if len(msg) > len(p) && msg[:len(p)] == p {
			return msg[len(p):]
		}
	}
	return msg
}

// repoSpec is the repository: key, a URL or a mapping {url, branch,
// path}, as MkDocs' repo_url and edit_uri. Path is the folder of
// skilldex.yaml inside the repository ("" for its root folder); each
// skill page links to its source there, on branch (default main).
type repoSpec struct {
	URL    string `yaml:"url"`
	Branch string `yaml:"branch"`
	Path   string `yaml:"path"`
}

func (r *repoSpec) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		return n.Decode(&r.URL)
	}
	if n.Kind != yaml.MappingNode {
		return fmt.Errorf("line %d: repository is a URL, or a mapping with url, branch and path", n.Line)
	}
	// A custom unmarshaler's decoder does not reject unknown keys.
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch k := n.Content[i]; k.Value {
		case "url", "branch", "path":
		default:
			return fmt.Errorf("line %d: key repository.%s is not a known key (the keys are url, branch and path)", k.Line, k.Value)
		}
	}
	type plain repoSpec
	return n.Decode((*plain)(r))
}

// check says what is wrong with the repository settings.
func (r *repoSpec) check() error {
	if r.URL == "" {
		if r.Branch != "" || r.Path != "" {
			return errors.New("repository has a branch or path but no url; add url: https://github.com/OWNER/REPO")
		}
		return nil
	}
	if _, ok := forge.Repository(r.URL); !ok {
		return fmt.Errorf("repository is %q; give the http(s) URL of the repository's web page, without a user name or password (it is published), such as https://github.com/OWNER/REPO", r.URL)
	}
	if r.Path != "" {
		p := path.Clean(strings.Trim(r.Path, "/"))
		if outside(p) {
			return fmt.Errorf("repository.path is %q; give the folder of %s inside the repository, such as docs/skills", r.Path, ConfigFile)
		}
		r.Path = p
	}
	return nil
}
