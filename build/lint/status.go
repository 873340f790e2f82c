package lint

import "github.com/skilldex/skilldex/build/diag"

// Status is a skill's verdict, as USK defines them.
type Status string

const (
	// Approved: no problem beyond missing recommended fields.
	Approved Status = "approved"
	// Caution: published, but with warnings worth a look.
	Caution Status = "caution"
	// Rejected: the skill cannot be used and is not published.
	Rejected Status = "rejected"
)

// StatusOf derives the status from a skill's diagnostics.
func StatusOf(ds []diag.Diagnostic) Status {
	switch m, _ := diag.Max(ds); m {
	case diag.Error:
		return Rejected
	case diag.Warning:
		return Caution
	}
	return Approved
}
