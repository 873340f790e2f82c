package uasp

// Conforms and FullValidate let the external tests, which read documents
// package derive makes, check the validator's shortcut.
var Conforms = conforms

// FullValidate is Validate without the shortcut conforms gives.
func FullValidate(doc any) []Problem { return validateWith(compiled, doc) }

// StreamHash and HashJSON are the two ways to hash a document.
var StreamHash, HashJSON = streamHash, hashJSON
