package index

// SegmentsBuilt counts the bleve segments built, for tests of reuse.
var SegmentsBuilt = &segmentsBuilt

// ChunkOf exposes chunkOf to the external tests.
var ChunkOf = chunkOf
