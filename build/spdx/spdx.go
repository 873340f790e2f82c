// Package spdx knows SPDX license identifiers and expressions: whether a
// frontmatter license is one (Valid, for the USK lint rule), and the SPDX
// expression that a license written for people names (Normalize, for the
// License facet: "MIT license", "Apache License, Version 2.0" and
// "apache-2.0" are MIT and Apache-2.0 alike). It holds the codebase's only
// table of identifiers.
package spdx

import "strings"

// ids are the SPDX license identifiers seen in skill catalogs and package
// registries, spelt as the SPDX license list spells them, and the license
// exceptions a WITH clause names. The deprecated GNU identifiers
// (GPL-3.0, ...) are valid; Normalize writes them as their -only form.
const ids = `0BSD AFL-3.0 AGPL-1.0 AGPL-1.0-only AGPL-1.0-or-later AGPL-3.0 AGPL-3.0-only AGPL-3.0-or-later
Apache-1.0 Apache-1.1 Apache-2.0 Artistic-1.0 Artistic-2.0 BlueOak-1.0.0 BSD-1-Clause BSD-2-Clause
BSD-2-Clause-Patent BSD-3-Clause BSD-3-Clause-Clear BSD-4-Clause BSL-1.0 BUSL-1.1 CAL-1.0 CC-BY-1.0
CC-BY-2.0 CC-BY-2.5 CC-BY-3.0 CC-BY-4.0 CC-BY-NC-4.0 CC-BY-NC-ND-4.0 CC-BY-NC-SA-4.0 CC-BY-ND-4.0
CC-BY-SA-3.0 CC-BY-SA-4.0 CC0-1.0 CDDL-1.0 CDDL-1.1 CECILL-2.1 CPAL-1.0 CPL-1.0 ECL-2.0 EFL-2.0
Elastic-2.0 EPL-1.0 EPL-2.0 EUPL-1.1 EUPL-1.2 GFDL-1.3 GFDL-1.3-only GFDL-1.3-or-later GPL-1.0
GPL-1.0-only GPL-1.0-or-later GPL-2.0 GPL-2.0-only GPL-2.0-or-later GPL-3.0 GPL-3.0-only
GPL-3.0-or-later HPND ICU IJG ImageMagick IPL-1.0 ISC JSON LGPL-2.0 LGPL-2.0-only LGPL-2.0-or-later
LGPL-2.1 LGPL-2.1-only LGPL-2.1-or-later LGPL-3.0 LGPL-3.0-only LGPL-3.0-or-later LPL-1.02 LPPL-1.3c
MirOS MIT MIT-0 MIT-CMU MPL-1.0 MPL-1.1 MPL-2.0 MPL-2.0-no-copyleft-exception MS-PL MS-RL
MulanPSL-2.0 NCSA ODbL-1.0 OFL-1.1 OpenSSL OSL-3.0 PHP-3.01 PostgreSQL PSF-2.0 Python-2.0 QPL-1.0
Ruby SSPL-1.0 Unicode-3.0 Unicode-DFS-2016 Unlicense UPL-1.0 Vim W3C WTFPL X11 Zlib ZPL-2.1`

// exceptionIDs are the license exceptions a WITH clause may name.
const exceptionIDs = `Classpath-exception-2.0 LLVM-exception GCC-exception-3.1 Autoconf-exception-3.0`

var (
	// licenses and exceptions map a lowercased identifier to its spelling.
	licenses   = table(ids)
	exceptions = table(exceptionIDs)
)

func table(list string) map[string]string {
	m := map[string]string{}
	for _, id := range strings.Fields(list) {
		m[strings.ToLower(id)] = id
	}
	return m
}

// deprecatedGNU are the GNU identifiers the SPDX license list deprecated
// for their -only and -or-later forms ("GPL-3.0" is "GPL-3.0-only",
// "GPL-3.0+" is "GPL-3.0-or-later").
var deprecatedGNU = map[string]bool{
	"GPL-1.0": true, "GPL-2.0": true, "GPL-3.0": true, "LGPL-2.0": true, "LGPL-2.1": true,
	"LGPL-3.0": true, "AGPL-1.0": true, "AGPL-3.0": true, "GFDL-1.3": true,
}

// Other is the License facet's value for a license text that names no
// license Normalize knows ("Complete terms in LICENSE.txt", "Proprietary",
// a URL): such skills are listed under it, never dropped.
const Other = "Other"

// Valid reports whether every license and exception in expr is a known
// SPDX identifier (or a LicenseRef-), operators aside. It is lenient about
// the expression's shape: the USK rule it serves asks for identifiers.
func Valid(expr string) bool {
	tokens := strings.FieldsFunc(expr, func(r rune) bool { return !isIDRune(r) })
	if len(tokens) == 0 {
		return false
	}
	for _, t := range tokens {
		switch strings.ToUpper(t) {
		case "AND", "OR", "WITH":
			continue
		}
		t = strings.TrimSuffix(t, "+")
		if _, ok := lookup(t); ok {
			continue
		}
		if _, ok := exceptions[strings.ToLower(t)]; ok {
			continue
		}
		return false
	}
	return true
}

// isIDRune reports whether r may be part of an identifier: SPDX ids are
// letters, digits, '.', '-' and a trailing '+'.
func isIDRune(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r == '.' || r == '-' || r == '+'
}

// lookup returns the spelling of a license identifier, a LicenseRef- as
// written.
func lookup(id string) (string, bool) {
	if len(id) > len("LicenseRef-") && strings.EqualFold(id[:len("LicenseRef-")], "LicenseRef-") {
		return "LicenseRef-" + id[len("LicenseRef-"):], true
	}
	s, ok := licenses[strings.ToLower(id)]
	return s, ok
}
