package index

import "unicode"

// wordSeparators are the characters outside ASCII that bleve's word
// segmenter (github.com/blevesearch/segment, Unicode 8.0 word breaks)
// keeps apart from whatever stands beside them, as it does an ASCII space
// or '#': each is a segment of its own that is no word, and it joins no
// neighbours (it is no letter, digit, connector, mid-word punctuation,
// combining mark or format character, nor Chinese or Japanese). Text made
// of ASCII and of these is cut into words as if each were a space.
//
// They are the ones of Latin-1 Supplement (U+0080-U+00FF), U+2000-U+2BFF
// (punctuation, arrows, mathematical and technical symbols, box drawing,
// shapes, dingbats), CJK Symbols and Punctuation (U+3000-U+303F) and
// U+1F000-U+1FAFF (emoji and other pictographs): the characters skill
// documents use besides ASCII. TestWordSeparators asks the segmenter
// about every character of these blocks and prints this table anew when
// it disagrees.
var wordSeparators = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x0080, Hi: 0x00a9, Stride: 1},
		{Lo: 0x00ab, Hi: 0x00ac, Stride: 1},
		{Lo: 0x00ae, Hi: 0x00b4, Stride: 1},
		{Lo: 0x00b6, Hi: 0x00b6, Stride: 1},
		{Lo: 0x00b8, Hi: 0x00b9, Stride: 1},
		{Lo: 0x00bb, Hi: 0x00bf, Stride: 1},
		{Lo: 0x00d7, Hi: 0x00d7, Stride: 1},
		{Lo: 0x00f7, Hi: 0x00f7, Stride: 1},
		{Lo: 0x2000, Hi: 0x200b, Stride: 1},
		{Lo: 0x2010, Hi: 0x2017, Stride: 1},
		{Lo: 0x201a, Hi: 0x2023, Stride: 1},
		{Lo: 0x2025, Hi: 0x2026, Stride: 1},
		{Lo: 0x2028, Hi: 0x2029, Stride: 1},
		{Lo: 0x202f, Hi: 0x203e, Stride: 1},
		{Lo: 0x2041, Hi: 0x2043, Stride: 1},
		{Lo: 0x2045, Hi: 0x2053, Stride: 1},
		{Lo: 0x2055, Hi: 0x205f, Stride: 1},
		{Lo: 0x2065, Hi: 0x2065, Stride: 1},
		{Lo: 0x2070, Hi: 0x2070, Stride: 1},
		{Lo: 0x2072, Hi: 0x207e, Stride: 1},
		{Lo: 0x2080, Hi: 0x208f, Stride: 1},
		{Lo: 0x209d, Hi: 0x20cf, Stride: 1},
		{Lo: 0x20f1, Hi: 0x2101, Stride: 1},
		{Lo: 0x2103, Hi: 0x2106, Stride: 1},
		{Lo: 0x2108, Hi: 0x2109, Stride: 1},
		{Lo: 0x2114, Hi: 0x2114, Stride: 1},
		{Lo: 0x2116, Hi: 0x2118, Stride: 1},
		{Lo: 0x211e, Hi: 0x2123, Stride: 1},
		{Lo: 0x2125, Hi: 0x2125, Stride: 1},
		{Lo: 0x2127, Hi: 0x2127, Stride: 1},
		{Lo: 0x2129, Hi: 0x2129, Stride: 1},
		{Lo: 0x212e, Hi: 0x212e, Stride: 1},
		{Lo: 0x213a, Hi: 0x213b, Stride: 1},
		{Lo: 0x2140, Hi: 0x2144, Stride: 1},
		{Lo: 0x214a, Hi: 0x214d, Stride: 1},
		{Lo: 0x214f, Hi: 0x215f, Stride: 1},
		{Lo: 0x2189, Hi: 0x24b5, Stride: 1},
		{Lo: 0x24ea, Hi: 0x2bff, Stride: 1},
		{Lo: 0x3000, Hi: 0x3004, Stride: 1},
		{Lo: 0x3006, Hi: 0x3006, Stride: 1},
		{Lo: 0x3008, Hi: 0x3020, Stride: 1},
		{Lo: 0x3030, Hi: 0x3030, Stride: 1},
		{Lo: 0x3036, Hi: 0x3037, Stride: 1},
		{Lo: 0x303d, Hi: 0x303f, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x1f000, Hi: 0x1f12f, Stride: 1},
		{Lo: 0x1f14a, Hi: 0x1f14f, Stride: 1},
		{Lo: 0x1f16a, Hi: 0x1f16f, Stride: 1},
		{Lo: 0x1f18a, Hi: 0x1f1ff, Stride: 1},
		{Lo: 0x1f201, Hi: 0x1faff, Stride: 1},
	},
	LatinOffset: 8,
}
