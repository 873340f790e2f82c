package index

// relatedTerm is a term related to another, with their similarity.
type relatedTerm struct {
	term       string
	similarity float64
}
