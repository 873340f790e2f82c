package fswatch

import "time"

// A debouncer gathers changes into a batch, and says when the batch is
// due: Quiet after the latest change, or MaxDelay after the first,
// whichever comes first. It reads no clock, so that tests give it the
// times.
type debouncer struct {
	quiet, max  time.Duration
	batch       Batch
	seen        map[string]bool
	first, last time.Time
}

// add records a change to path at now; all: anything may have changed.
func (d *debouncer) add(path string, all bool, now time.Time) {
	if d.batch.empty() {
		d.first = now
	}
	d.last = now
	if all || d.batch.All {
		d.batch = Batch{All: true}
		return
	}
	if d.seen == nil {
		d.seen = map[string]bool{}
	}
	if !d.seen[path] {
		d.seen[path] = true
		d.batch.Paths = append(d.batch.Paths, path)
	}
}

// due returns when the batch is due; false when there is none.
func (d *debouncer) due() (time.Time, bool) {
	if d.batch.empty() {
		return time.Time{}, false
	}
	at := d.last.Add(d.quiet)
	if limit := d.first.Add(d.max); limit.Before(at) {
		at = limit
	}
	return at, true
}

// ready reports whether the batch is due at now.
func (d *debouncer) ready(now time.Time) bool {
	at, ok := d.due()
	return ok && !now.Before(at)
}

// take returns the batch and starts the next.
func (d *debouncer) take() Batch {
	b := d.batch
	d.batch = Batch{}
	clear(d.seen)
	return b
}
