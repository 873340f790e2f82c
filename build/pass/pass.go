// Package pass describes a writer's share of a build. A build makes one
// pass over the published skills in which every writer does its work for
// each skill, so that a skill's sources, body and UASP document can be let
// go as soon as the last writer is done with them; then each writer
// writes the files that depend on every skill.
package pass

// Work is a writer's share of one build.
type Work struct {
	// Skill does the writer's work for the i-th published skill
	// (catalog.Catalog.Skills[i]). The build calls it at most once for
	// each skill (once each unless the build fails or is cancelled),
	// from many goroutines at once. nil: nothing to do per skill.
	Skill func(i int) error
	// Catalog writes what depends on every skill. The build calls it
	// after every Skill call has returned. nil: nothing to write.
	Catalog func() error
}
