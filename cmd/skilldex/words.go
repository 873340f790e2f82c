package main

import (
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// english writes numbers as people read them in English.
var english = message.NewPrinter(language.English)

// number writes n with thousands separators: 10,000.
func number(n int) string { return english.Sprint(n) }

// plural writes a count with its noun: "1 file", "2 files", "10,000 files".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return number(n) + " " + many
}
