package build

import "sync/atomic"

// Progress follows a build (or a Load) as it goes, for a display: it is
// told of each stage as the stage starts, and counts the items of the
// stage done. A display reads the count from any goroutine (Count),
// while the build runs. The methods of a nil *Progress do nothing.
type Progress struct {
	// OnStage, when set, is called as each stage starts, on the
	// goroutine that runs the build, before any work of the stage: total
	// is how many items the stage has, 0 when it is not counted.
	OnStage func(stage string, total int)

	done, total atomic.Int64
}

// The stages of a build, in the order they run. The writers' catalog-wide
// files follow StageSkills, each a stage named after its writer
// (Writer.Name), without counts; a build with a memo (serve's) writes them
// at once, in one stage named after the writers, joined by ", ".
const (
	// StageDiscover finds the inputs in the sources; not counted.
	StageDiscover = "discover"
	// StageParse parses and checks each input; total is the inputs.
	StageParse = "parse"
	// StageSkills runs the writers' work for each skill (its pages, API
	// files and index entries); total is the published skills.
	StageSkills = "skills"
)

// Count returns how many items of the current stage are done, and how
// many it has (0 when it is not counted).
func (p *Progress) Count() (done, total int) {
	if p == nil {
		return 0, 0
	}
	return int(p.done.Load()), int(p.total.Load())
}

func (p *Progress) start(stage string, total int) {
	if p == nil {
		return
	}
	p.total.Store(int64(total))
	p.done.Store(0)
	if p.OnStage != nil {
		p.OnStage(stage, total)
	}
}

// add counts one item of the current stage done.
func (p *Progress) add() {
	if p != nil {
		p.done.Add(1)
	}
}
