// Package report writes a catalog's diagnostics for people and tools: as
// text, as the JSON object of skilldex's CLI contract, as GitHub Actions
// workflow annotations, or as SARIF 2.1.0 for code scanning.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/skilldex/skilldex/build/catalog"
	"github.com/skilldex/skilldex/build/diag"
)

// Formats are the names Write accepts.
var Formats = []string{"text", "json", "github", "sarif"}

// Options tune the output.
type Options struct {
	// Verbose includes info diagnostics in text output.
	Verbose bool
	// Version is skilldex's version, for SARIF.
	Version string
	// Color marks the severities of text output with ANSI colours, for a
	// terminal.
	Color bool
}

// Write writes c's diagnostics to w in format.
func Write(w io.Writer, format string, c *catalog.Catalog, opt Options) error {
	switch format {
	case "text":
		return text(w, c, opt)
	case "json":
		return JSON(w, c)
	case "github":
		return GitHub(w, c)
	case "sarif":
		return SARIF(w, c, opt.Version)
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}

// allDiagnostics yields the catalog's diagnostics: the sources' first, then
// each skill's, in source order.
func allDiagnostics(c *catalog.Catalog) []diag.Diagnostic {
	out := append([]diag.Diagnostic{}, c.Diagnostics...)
	for _, s := range c.All {
		out = append(out, s.Diagnostics...)
	}
	return out
}

// Text writes one line per diagnostic, compiler style, then a summary.
func Text(w io.Writer, c *catalog.Catalog, verbose bool) error {
	return text(w, c, Options{Verbose: verbose})
}

func text(w io.Writer, c *catalog.Catalog, opt Options) error {
	for _, d := range allDiagnostics(c) {
		if d.Severity == diag.Info && !opt.Verbose {
			continue
		}
		if _, err := fmt.Fprintln(w, Line(d, opt.Color)); err != nil {
			return err
		}
	}
	sum := c.Summarize()
	line := SummaryLine(sum)
	if sum.Infos > 0 && !opt.Verbose {
		line += " (-v shows the infos)"
	}
	_, err := fmt.Fprintln(w, line)
	return err
}

// ANSI styles of Line.
const (
	styleBold  = "\x1b[1m"
	styleDim   = "\x1b[2m"
	styleReset = "\x1b[0m"
)

var severityStyle = map[diag.Severity]string{
	diag.Error:   "\x1b[1;31m", // bold red
	diag.Warning: "\x1b[1;33m", // bold yellow
	diag.Info:    "\x1b[1;36m", // bold cyan
}

// Line is d as one line of text, compiler style (d.String()); with color,
// the location is bold, the severity coloured by how grave it is and the
// code dim, as compilers show them on a terminal.
func Line(d diag.Diagnostic, color bool) string {
	if !color {
		return d.String()
	}
	return fmt.Sprintf("%s%s%s: %s%s%s: %s %s[%s]%s", styleBold, d.Location(), styleReset,
		severityStyle[d.Severity], d.Severity, styleReset, d.Message, styleDim, d.Code, styleReset)
}

// SummaryLine describes a summary in one line; counts have thousands
// separators (10,000 skills).
func SummaryLine(s catalog.Summary) string {
	line := printer.Sprintf("%s: %d approved, %d caution, %d rejected", plural(s.Skills, "skill", "skills"), s.Approved, s.Caution, s.Rejected)
	if s.Shadowed > 0 {
		line += printer.Sprintf(", %d shadowed", s.Shadowed)
	}
	line += fmt.Sprintf("; %s, %s, %s", plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings"), plural(s.Infos, "info", "infos"))
	return line
}

// printer writes numbers as people read them in English.
var printer = message.NewPrinter(language.English)

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return printer.Sprintf("%d %s", n, many)
}

// JSONSkill is one skill in the JSON report.
type JSONSkill struct {
	Name        string            `json:"name"`
	Path        string            `json:"path"`
	Format      string            `json:"format"`
	Packaging   string            `json:"packaging"`
	Status      string            `json:"status"`
	Published   bool              `json:"published"`
	ShadowedBy  string            `json:"shadowed_by,omitempty"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
}

// JSONReport is the object `skilldex validate --format json` prints.
type JSONReport struct {
	Skills      []JSONSkill       `json:"skills"`
	Diagnostics []diag.Diagnostic `json:"diagnostics"`
	Summary     catalog.Summary   `json:"summary"`
}

// NewJSONReport builds the JSON report of c.
func NewJSONReport(c *catalog.Catalog) JSONReport {
	r := JSONReport{Skills: []JSONSkill{}, Diagnostics: c.Diagnostics, Summary: c.Summarize()}
	if r.Diagnostics == nil {
		r.Diagnostics = []diag.Diagnostic{}
	}
	for _, s := range c.All {
		js := JSONSkill{Name: s.Name, Path: s.Path, Format: string(s.Format), Packaging: string(s.Packaging),
			Status: string(s.Status), Published: s.Published(), Diagnostics: s.Diagnostics}
		if js.Diagnostics == nil {
			js.Diagnostics = []diag.Diagnostic{}
		}
		if s.ShadowedBy != nil {
			js.ShadowedBy = s.ShadowedBy.Path
		}
		r.Skills = append(r.Skills, js)
	}
	return r
}

// JSON writes the JSON report, indented.
func JSON(w io.Writer, c *catalog.Catalog) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(NewJSONReport(c))
}

// GitHub writes workflow commands that GitHub Actions shows as annotations
// on the files and lines concerned.
func GitHub(w io.Writer, c *catalog.Catalog) error {
	for _, d := range allDiagnostics(c) {
		level := map[diag.Severity]string{diag.Error: "error", diag.Warning: "warning", diag.Info: "notice"}[d.Severity]
		file, msg, inArchive := annotation(d)
		props := []string{"file=" + ghProperty(file)}
		if d.Line > 0 && !inArchive {
			props = append(props, fmt.Sprintf("line=%d", d.Line))
			if d.Column > 0 {
				props = append(props, fmt.Sprintf("col=%d", d.Column))
			}
		}
		props = append(props, "title="+ghProperty("skilldex "+d.Code))
		if _, err := fmt.Fprintf(w, "::%s %s::%s\n", level, strings.Join(props, ","), ghData(msg)); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, SummaryLine(c.Summarize()))
	return err
}

// annotation returns the file an annotation of d is on, and its message.
// A finding on a file inside an archive is on the archive, which has no
// lines to point at (inArchive): the message starts with the entry's
// path and the position in it.
func annotation(d diag.Diagnostic) (file, msg string, inArchive bool) {
	file, entry, inArchive := strings.Cut(d.File, "!/")
	if !inArchive {
		return file, d.Message, false
	}
	switch {
	case d.Line > 0 && d.Column > 0:
		entry = fmt.Sprintf("%s:%d:%d", entry, d.Line, d.Column)
	case d.Line > 0:
		entry = fmt.Sprintf("%s:%d", entry, d.Line)
	}
	return file, entry + ": " + d.Message, true
}

// ghData escapes a workflow command's message.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow command's property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
