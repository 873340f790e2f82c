// Package plugin reads agent plugin marketplaces and plugin manifests, the
// catalogs Claude Code, Codex and Cursor install plugins from, validates
// them with positioned findings, and says which plugins each skill of a
// catalog belongs to.
//
// A marketplace is a folder (the marketplace root) holding a marketplace
// file for one or more clients (see [Client]); it lists plugins, each with a
// source: a folder of the same repository, or a remote repository or
// package that is kept as data and never fetched. A plugin folder may hold
// a plugin manifest (plugin.json) per client. [Load] reads one marketplace
// root and returns its [Set] of plugins; [Set.Assign] gives each plugin its
// skills. Plugins that several clients' marketplaces list under the same
// name are one plugin with one [Listing] per client.
//
// Clients ignore the fields they do not know; so does this package, which
// keeps them as written (Extra). Findings follow what the clients do: an
// error is what makes a client reject a file or an entry, and such a file or
// entry contributes no plugin and no membership, so that its skills are
// published as plain skills; a warning is what clients accept but people
// should fix.
package plugin

import (
	"encoding/json"
	"strings"
)

// Client is an agent whose plugin format a file follows.
type Client string

// The clients whose manifests are read, in the order their descriptions of
// a plugin take precedence.
const (
	Claude Client = "claude-code"
	Codex  Client = "codex"
	Cursor Client = "cursor"
)

// Clients lists every client, in order of precedence.
var Clients = []Client{Claude, Codex, Cursor}

// MarketplaceFile returns where the client's marketplace file lives,
// relative to the marketplace root.
func (c Client) MarketplaceFile() string {
	switch c {
	case Codex:
		return ".agents/plugins/marketplace.json"
	case Cursor:
		return ".cursor-plugin/marketplace.json"
	}
	return ".claude-plugin/marketplace.json"
}

// ManifestFile returns where the client's plugin manifest lives, relative
// to the plugin folder.
func (c Client) ManifestFile() string {
	switch c {
	case Codex:
		return ".codex-plugin/plugin.json"
	case Cursor:
		return ".cursor-plugin/plugin.json"
	}
	return ".claude-plugin/plugin.json"
}

// MarketplaceDir reports whether the slash-separated path file is a
// client's marketplace file, and if so the marketplace root that holds it,
// so that a walk over a source can tell where to call [Load].
func MarketplaceDir(file string) (dir string, client Client, ok bool) {
	for _, c := range Clients {
		suffix := c.MarketplaceFile()
		if file == suffix {
			return ".", c, true
		}
		if d, found := strings.CutSuffix(file, "/"+suffix); found {
			return d, c, true
		}
	}
	return "", "", false
}

// Person is a marketplace's owner or a plugin's author.
type Person struct {
	Name  string `json:"name,omitempty"`
	Email string `json:"email,omitempty"`
	URL   string `json:"url,omitempty"`
}

// Metadata describes a plugin for people: what a marketplace entry and a
// plugin manifest both say.
type Metadata struct {
	Name string `json:"name"`
	// DisplayName is Cursor's displayName or Codex's interface.displayName.
	DisplayName string   `json:"displayName,omitempty"`
	Description string   `json:"description,omitempty"`
	Version     string   `json:"version,omitempty"`
	Author      *Person  `json:"author,omitempty"`
	License     string   `json:"license,omitempty"`
	Homepage    string   `json:"homepage,omitempty"`
	Repository  string   `json:"repository,omitempty"`
	Category    string   `json:"category,omitempty"`
	Keywords    []string `json:"keywords,omitempty"`
	Tags        []string `json:"tags,omitempty"`
}

// Component is what a manifest declares for one kind of component
// (skills, commands, agents, hooks, mcpServers, ...).
type Component struct {
	// Paths are the files or folders named, as written (relative to the
	// plugin folder, starting with "./").
	Paths []string `json:"paths,omitempty"`
	// Inline counts the definitions written in the manifest itself (hooks,
	// MCP and LSP servers may be).
	Inline int `json:"inline,omitempty"`
}

// ComponentKinds are the manifest keys that declare components, as
// Claude Code (commands ... monitors) and Codex (apps) name them.
var ComponentKinds = []string{"commands", "agents", "skills", "hooks", "mcpServers", "outputStyles", "lspServers", "monitors", "apps"}

// Source kinds, as the "source" field of a source object names them; a
// source written as a string is a Path.
const (
	SourcePath      = "path"
	SourceLocal     = "local" // Codex's object form of a relative path
	SourceGitHub    = "github"
	SourceURL       = "url"
	SourceGitSubdir = "git-subdir"
	SourceNPM       = "npm"
	SourcePip       = "pip"
)

// Source says where a client gets a plugin.
type Source struct {
	Kind string `json:"source"`
	// Path is the folder of a relative source (Path, Local) or the folder
	// inside the repository of a git-subdir source.
	Path string `json:"path,omitempty"`
	// Repo is a GitHub repository, OWNER/NAME.
	Repo string `json:"repo,omitempty"`
	// URL is the git URL of a url or git-subdir source.
	URL string `json:"url,omitempty"`
	Ref string `json:"ref,omitempty"`
	SHA string `json:"sha,omitempty"`
	// Package, Version and Registry locate an npm or pip package.
	Package  string `json:"package,omitempty"`
	Version  string `json:"version,omitempty"`
	Registry string `json:"registry,omitempty"`
}

// Relative returns the folder of a source inside the marketplace's
// repository as written, and whether the source is one: a relative path, a
// Codex local source, or a url source whose URL is a relative path (Codex
// clones such a URL from the marketplace's own repository).
func (s Source) Relative() (string, bool) {
	switch s.Kind {
	case SourcePath, SourceLocal:
		return s.Path, true
	case SourceURL:
		if s.URL == "." || strings.HasPrefix(s.URL, "./") {
			return s.URL, true
		}
	}
	return "", false
}

// Policy is a Codex marketplace entry's policy.
type Policy struct {
	// Installation is AVAILABLE, INSTALLED_BY_DEFAULT or NOT_AVAILABLE.
	Installation string `json:"installation,omitempty"`
	// Authentication is ON_INSTALL or ON_USE.
	Authentication string `json:"authentication,omitempty"`
}

// Entry is one plugin as a marketplace file lists it.
type Entry struct {
	Metadata
	Source Source
	// Strict is false when the entry alone defines the plugin's components
	// (Claude Code's strict: false); plugin.json then adds none.
	Strict     bool
	Policy     *Policy
	Components map[string]Component
	// Extra holds the fields this package does not model, as written.
	Extra map[string]json.RawMessage
	// Invalid is set when the entry has an error: clients skip it.
	Invalid bool
	obj     *node
}

// Marketplace is one client's marketplace file.
type Marketplace struct {
	Client Client
	// File is the file as diagnostics name it.
	File string
	Name string
	// DisplayName is Codex's interface.displayName.
	DisplayName string
	Owner       *Person
	// Description and Version come from metadata, or from the top-level
	// fields Claude Code accepts in their place.
	Description string
	Version     string
	// PluginRoot is metadata.pluginRoot: the folder that relative sources
	// without "./" are taken from.
	PluginRoot string
	Entries    []*Entry
	Extra      map[string]json.RawMessage
	// Invalid is set when the file has an error outside its entries: it is
	// not JSON, or a required marketplace field is missing or mistyped.
	// Clients reject the whole file.
	Invalid bool
	doc     *document
}

// Manifest is one client's plugin manifest (plugin.json).
type Manifest struct {
	Client Client
	File   string
	Metadata
	Components map[string]Component
	Extra      map[string]json.RawMessage
	// Invalid is set when the manifest has an error: the client does not
	// load the plugin.
	Invalid bool
	doc     *document
}
