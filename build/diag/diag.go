// Package diag defines the diagnostics every stage of skilldex reports: a
// stable rule code, a severity, a message that says what to change, and the
// file, line and column it is about.
package diag

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Severity orders how much a diagnostic matters. The zero value is Info.
type Severity int

const (
	// Info is advice: a recommended field is missing, a best practice is not
	// followed. It never changes a skill's status.
	Info Severity = iota
	// Warning is a spec violation that real clients tolerate. A skill with
	// warnings is published with the status "caution".
	Warning
	// Error means the skill cannot be used: it cannot be read, or it has no
	// usable name or description. A skill with errors is "rejected".
	Error
)

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// MarshalText encodes the severity as its name, so JSON output reads "warning".
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText decodes a severity name.
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "info":
		*s = Info
	case "warning":
		*s = Warning
	case "error":
		*s = Error
	default:
		return fmt.Errorf("unknown severity %q (want info, warning or error)", b)
	}
	return nil
}

// Diagnostic is one finding about one place in the inputs.
type Diagnostic struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	// File is the path as the user can open it: relative to the working
	// directory when the source was given relative to it. An entry inside an
	// archive is written ARCHIVE!/ENTRY.
	File string `json:"file"`
	// Line and Column are 1-based; 0 means the diagnostic is about the whole
	// file (or, for Column, the whole line).
	Line   int `json:"line"`
	Column int `json:"column"`
}

// Pos is a position in a file, 1-based.
type Pos struct {
	Line, Column int
}

// At returns a diagnostic at pos in file.
func At(file string, pos Pos, sev Severity, code, format string, args ...any) Diagnostic {
	return Diagnostic{Code: code, Severity: sev, Message: fmt.Sprintf(format, args...), File: file, Line: pos.Line, Column: pos.Column}
}

// String formats the diagnostic as compilers do: file:line:col: severity: message [code].
func (d Diagnostic) String() string {
	var b strings.Builder
	b.WriteString(d.Location())
	fmt.Fprintf(&b, ": %s: %s [%s]", d.Severity, d.Message, d.Code)
	return b.String()
}

// Location formats file:line:col, leaving out the parts that are unknown.
func (d Diagnostic) Location() string {
	s := d.File
	if s == "" {
		s = "-"
	}
	if d.Line > 0 {
		s += fmt.Sprintf(":%d", d.Line)
		if d.Column > 0 {
			s += fmt.Sprintf(":%d", d.Column)
		}
	}
	return s
}

// Compare orders diagnostics by file, line, column, then code and message,
// so that every report is deterministic.
func Compare(a, b Diagnostic) int {
	return cmp.Or(
		cmp.Compare(a.File, b.File),
		cmp.Compare(a.Line, b.Line),
		cmp.Compare(a.Column, b.Column),
		cmp.Compare(a.Code, b.Code),
		cmp.Compare(a.Message, b.Message),
	)
}

// Sort sorts ds in place with Compare and removes exact duplicates.
func Sort(ds []Diagnostic) []Diagnostic {
	slices.SortFunc(ds, Compare)
	return slices.CompactFunc(ds, func(a, b Diagnostic) bool { return a == b })
}

// Max returns the highest severity in ds, and false when ds is empty.
func Max(ds []Diagnostic) (Severity, bool) {
	if len(ds) == 0 {
		return Info, false
	}
	m := Info
	for _, d := range ds {
		m = max(m, d.Severity)
	}
	return m, true
}

// Count returns how many diagnostics of each severity ds holds.
func Count(ds []Diagnostic) (errors, warnings, infos int) {
	for _, d := range ds {
		switch d.Severity {
		case Error:
			errors++
		case Warning:
			warnings++
		default:
			infos++
		}
	}
	return
}
