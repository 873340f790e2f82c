package index

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	bdocument "github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	bindex "github.com/blevesearch/bleve_index_api"
)

// bleveFields are the fields of bleveDoc in the order of its struct, which
// is the order bleve's IndexMappingImpl.MapDocument walks them: each with
// its value, or its values for a list. TestBleveFieldsFollowTheStruct
// checks the names against the json tags.
var bleveFields = []struct {
	name string
	one  func(d *bleveDoc) string
	list func(d *bleveDoc) []string
}{
	{name: "name", one: func(d *bleveDoc) string { return d.Name }},
	{name: "name_exact", one: func(d *bleveDoc) string { return d.NameExact }},
	{name: "description", one: func(d *bleveDoc) string { return d.Description }},
	{name: "triggers", one: func(d *bleveDoc) string { return d.Triggers }},
	{name: "tags", list: func(d *bleveDoc) []string { return d.Tags }},
	{name: "capabilities", list: func(d *bleveDoc) []string { return d.Capabilities }},
	{name: "category", list: func(d *bleveDoc) []string { return d.Category }},
	{name: "type", one: func(d *bleveDoc) string { return d.Type }},
	{name: "keywords", list: func(d *bleveDoc) []string { return d.Keywords }},
	{name: "intents", list: func(d *bleveDoc) []string { return d.Intents }},
	{name: "headings", one: func(d *bleveDoc) string { return d.Headings }},
	{name: "body", one: func(d *bleveDoc) string { return d.Body }},
	{name: "plugin", one: func(d *bleveDoc) string { return d.Plugin }},
	{name: "f_type", list: func(d *bleveDoc) []string { return d.FType }},
	{name: "f_category", list: func(d *bleveDoc) []string { return d.FCategory }},
	{name: "f_tags", list: func(d *bleveDoc) []string { return d.FTags }},
	{name: "f_capabilities", list: func(d *bleveDoc) []string { return d.FCapabilities }},
	{name: "f_license", list: func(d *bleveDoc) []string { return d.FLicense }},
	{name: "f_status", list: func(d *bleveDoc) []string { return d.FStatus }},
	{name: "f_format", list: func(d *bleveDoc) []string { return d.FFormat }},
	{name: "f_source", list: func(d *bleveDoc) []string { return d.FSource }},
	{name: "f_plugin", list: func(d *bleveDoc) []string { return d.FPlugin }},
	{name: "url", one: func(d *bleveDoc) string { return d.URL }},
}

// docBuilder makes the bleve documents of bleveDocs as MapDocument makes
// them with the index mapping, without reflection, and with the text
// fields analysed by an indexAnalyzer.
type docBuilder struct {
	m        *mapping.IndexMappingImpl
	analyzer *indexAnalyzer
	fields   []fieldMapping // by bleveFields index
	// all is the composite field _all of every document, nil when the
	// mapping has none. MapDocument makes one per document, excluding the
	// fields that are not in _all, but building a segment never composes
	// it (that is scorch's indexing, not zap's), and zap reads only its
	// name, options and empty frequencies: one serves all documents.
	all *bdocument.CompositeField
}

// fieldMapping is what MapDocument takes of a field's mapping.
type fieldMapping struct {
	options      bindex.FieldIndexingOptions
	analyzer     analysis.Analyzer
	includeInAll bool
	// fast is set when the field is indexed with analyzerName, which
	// docBuilder.analyzer reproduces.
	fast bool
}

func newDocBuilder(m *mapping.IndexMappingImpl) (*docBuilder, error) {
	ref := m.AnalyzerNamed(analyzerName)
	if ref == nil {
		return nil, fmt.Errorf("index mapping: no analyzer %s", analyzerName)
	}
	a, err := newIndexAnalyzer(ref)
	if err != nil {
		return nil, err
	}
	dm := m.DefaultMapping
	b := &docBuilder{m: m, analyzer: a}
	for _, f := range bleveFields {
		fm, err := textMapping(m, dm, f.name)
		if err != nil {
			return nil, err
		}
		b.fields = append(b.fields, fm)
	}
	if all, ok := dm.Properties["_all"]; !ok || all.Enabled {
		var excluded []string
		for i, f := range bleveFields {
			if !b.fields[i].includeInAll {
				excluded = append(excluded, f.name)
			}
		}
		b.all = bdocument.NewCompositeFieldWithIndexingOptions("_all", true, []string{}, excluded,
			bindex.IndexField|bindex.IncludeTermVectors)
	}
	return b, nil
}

// textMapping is the mapping of the text field name of dm, which must be
// its only mapping: MapDocument would make a field for each.
func textMapping(m *mapping.IndexMappingImpl, dm *mapping.DocumentMapping, name string) (fieldMapping, error) {
	sub, ok := dm.Properties[name]
	if !ok || !sub.Enabled || len(sub.Fields) != 1 || sub.Fields[0].Type != "text" ||
		(sub.Fields[0].Name != "" && sub.Fields[0].Name != name) {
		return fieldMapping{}, fmt.Errorf("index mapping: field %s is not one text field", name)
	}
	fm := sub.Fields[0]
	an := fm.Analyzer
	for _, def := range []string{sub.DefaultAnalyzer, dm.DefaultAnalyzer, m.DefaultAnalyzer} {
		if an == "" { // MapDocument's order: the deepest default wins
			an = def
		}
	}
	analyzer := m.AnalyzerNamed(an)
	if analyzer == nil {
		return fieldMapping{}, fmt.Errorf("index mapping: field %s: no analyzer %s", name, an)
	}
	return fieldMapping{
		options:      fm.Options(),
		analyzer:     analyzer,
		includeInAll: fm.IncludeInAll,
		fast:         an == analyzerName && fm.Options().IsIndexed(),
	}, nil
}

// document returns the bleve document of d, with id: its fields as
// MapDocument adds them, then the composite _all if the mapping has one
// (NewMapping's does not), then skilldex's _all (allField), then the _id
// field (AddIDField).
func (b *docBuilder) document(id string, d *bleveDoc) *bdocument.Document {
	doc := bdocument.NewDocument(id)
	n := 1 // _id
	for _, f := range bleveFields {
		if f.list == nil {
			n++
		} else {
			n += len(f.list(d))
		}
	}
	doc.Fields = make([]bdocument.Field, 0, n)
	top := []uint64{} // MapDocument's array positions of a value not in a list
	for i, f := range bleveFields {
		if f.list == nil {
			doc.AddField(b.field(i, f.one(d), top))
			continue
		}
		values := f.list(d)
		positions := make([]uint64, len(values))
		for j, v := range values {
			positions[j] = uint64(j)
			doc.AddField(b.field(i, v, positions[j:j+1:j+1]))
		}
	}
	if b.all != nil {
		doc.AddField(b.all)
	}
	doc.AddField(newAllField(d.all))
	doc.SetIndexed()
	doc.AddIDField()
	return doc
}

// field returns the field of bleveFields[i] with value, as MapDocument's
// FieldMapping.processString makes it.
func (b *docBuilder) field(i int, value string, arrayPositions []uint64) bdocument.Field {
	name, fm := bleveFields[i].name, &b.fields[i]
	if fm.fast { // one allocation: the TextField is made in place
		tf := bdocument.NewTextFieldCustom(name, arrayPositions, []byte(value), fm.options, fm.analyzer)
		return &textField{TextField: *tf, analyzer: b.analyzer}
	}
	return bdocument.NewTextFieldCustom(name, arrayPositions, []byte(value), fm.options, fm.analyzer)
}

// textField is a bleve text field analysed by an indexAnalyzer: the same
// field, with the same tokens, for less. Text the analyzer leaves to bleve
// is analysed by the field itself.
type textField struct {
	bdocument.TextField
	analyzer *indexAnalyzer
	length   int
	freqs    bindex.TokenFrequencies
}

func (f *textField) Analyze() {
	if !f.analyzer.tokenize(f.Value()) {
		f.TextField.Analyze()
		f.length, f.freqs = f.TextField.AnalyzedLength(), f.TextField.AnalyzedTokenFrequencies()
		return
	}
	f.length = len(f.analyzer.toks)
	f.freqs = f.analyzer.frequencies(f.ArrayPositions(), f.Options())
}

func (f *textField) AnalyzedLength() int                               { return f.length }
func (f *textField) AnalyzedTokenFrequencies() bindex.TokenFrequencies { return f.freqs }

// docBuilders keeps the docBuilders not in use, so that their analyzers
// keep the words they know from one segment to the next, and from one
// build to the next in serve: a sync.Pool would drop them at every
// garbage collection. It holds at most one per goroutine that built
// segments at once.
var docBuilders struct {
	sync.Mutex
	free []*docBuilder
}

// getDocBuilder returns a docBuilder of m, one of docBuilders or a new one.
// putDocBuilder gives it back.
func getDocBuilder(m *mapping.IndexMappingImpl) (*docBuilder, error) {
	docBuilders.Lock()
	for i, b := range docBuilders.free {
		if b.m == m {
			docBuilders.free = slices.Delete(docBuilders.free, i, i+1)
			docBuilders.Unlock()
			return b, nil
		}
	}
	docBuilders.Unlock()
	return newDocBuilder(m)
}

func putDocBuilder(b *docBuilder) {
	docBuilders.Lock()
	defer docBuilders.Unlock()
	docBuilders.free = append(docBuilders.free, b)
}

// allFieldLength is the length every document's _all claims. bleve's BM25
// divides a term's frequency by a norm that grows with the field's length
// (tf/(tf + k1×(1-b+b×length/average))): with this length, about 2^31,
// the norm is so large that the score is the square root of the frequency
// times a constant, within 0.1%, and allFrequency makes that root the
// term's weight in the model. zap keeps a field's length in 32 bits, and
// 31 when a term has one document of frequency 1.
const allFieldLength = 1<<31 - 1

// allScale is how many frequency units make a unit of weight, before
// squaring: the smallest weight (quantize's level 1) is then 13, the
// largest 26,400.
const allScale = 1000

// allFrequencies are the frequencies in _all of the weights of levels 0
// to 255: the squares of the weights (dequantize) times allScale,
// rounded; strictly increasing, so that a frequency gives its level back
// (levelOfFrequency).
var allFrequencies = func() (f [quantLevels + 1]uint64) {
	for q := 1; q <= quantLevels; q++ {
		m := uint64(math.Round(allScale * dequantize(uint8(q))))
		f[q] = m * m
		if f[q] <= f[q-1] {
			panic("index: allFrequencies is not increasing; raise allScale")
		}
	}
	return f
}()

// levelOfFrequency returns the weight level of a frequency in _all, and
// whether it is one.
func levelOfFrequency(freq uint64) (uint8, bool) {
	i, ok := slices.BinarySearch(allFrequencies[:], freq)
	return uint8(i), ok && i > 0
}

// weighedTerm is a term of a document with its weight level.
type weighedTerm struct {
	term string
	q    uint8
}

// newAllField returns the _all field of a document's weighed terms.
func newAllField(terms []weighedTerm) *modelField {
	freqs := make(bindex.TokenFrequencies, len(terms))
	tfs := make([]bindex.TokenFreq, len(terms))
	for i, t := range terms {
		tfs[i].Term = []byte(t.term)
		tfs[i].SetFrequency(int(allFrequencies[t.q]))
		freqs[t.term] = &tfs[i]
	}
	return &modelField{freqs: freqs}
}

// modelField is the _all field skilldex writes: indexed, not stored, no
// term vectors, with the frequencies of allFrequencies and the length
// allFieldLength.
type modelField struct {
	freqs bindex.TokenFrequencies
}

func (f *modelField) Name() string                                      { return allField }
func (f *modelField) ArrayPositions() []uint64                          { return nil }
func (f *modelField) Options() bindex.FieldIndexingOptions              { return bindex.IndexField }
func (f *modelField) Analyze()                                          {}
func (f *modelField) Value() []byte                                     { return nil }
func (f *modelField) NumPlainTextBytes() uint64                         { return 0 }
func (f *modelField) Size() int                                         { return 0 }
func (f *modelField) EncodedFieldType() byte                            { return 't' }
func (f *modelField) AnalyzedLength() int                               { return allFieldLength }
func (f *modelField) AnalyzedTokenFrequencies() bindex.TokenFrequencies { return f.freqs }
