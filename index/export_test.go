package index

// SegmentsBuilt counts the bleve segments built, for tests of reuse.
var SegmentsBuilt = &segmentsBuilt

// ChunkEnds returns the positions where chunkOf ends the chunks and the
// groups of names.
func ChunkEnds(names []string) (chunkEnds, groupEnds []int) {
	chunks, groups := chunkOf(names)
	for _, c := range chunks {
		chunkEnds = append(chunkEnds, c.end)
	}
	for _, g := range groups {
		groupEnds = append(groupEnds, chunks[g.end-1].end)
	}
	return chunkEnds, groupEnds
}
