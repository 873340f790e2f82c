package spdx_test

import (
	"context"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/build"
	"github.com/skilldex/skilldex/build/spdx"
	"github.com/skilldex/skilldex/internal/testutil"
)

// corpusLicenses are every license value the frontmatters of the corpus
// (testdata/corpus: skills, USK skills, archives, UASP documents) hold,
// with the value the License facet shows for it. TestCorpusLicensesSurveyed
// keeps the list whole.
var corpusLicenses = map[string]string{
	"MIT":                            "MIT",
	"MIT license":                    "MIT",
	"MIT License":                    "MIT",
	"Apache-2.0":                     "Apache-2.0",
	"Apache-2.0 license":             "Apache-2.0",
	"Apache License, Version 2.0":    "Apache-2.0",
	"BSD-3-Clause":                   "BSD-3-Clause",
	"BSD-3-Clause license":           "BSD-3-Clause",
	"3-clause BSD license":           "BSD-3-Clause",
	"3 clause BSD license":           "BSD-3-Clause",
	"BSD-2-Clause license":           "BSD-2-Clause",
	"GPL-2.0 license":                "GPL-2.0-only",
	"GPL-3.0 license":                "GPL-3.0-only",
	"GPLv3 license":                  "GPL-3.0-only",
	"CC-BY-4.0":                      "CC-BY-4.0",
	"Complete terms in LICENSE.txt":  "Other",
	"Unknown":                        "Other",
	"Proprietary (API key required)": "Other",
	// Which BSD license is not said.
	"BSD license": "Other",
	// A typing slip is not guessed at.
	"SD-3-Clause license": "Other",
	// CeCILL, but which version?
	"CeCILL FREE SOFTWARE LICENSE AGREEMENT": "Other",
	// Sentences about licenses, not a license's name.
	"This skill is provided under the MIT License. IDC data itself has individual licensing (mostly CC-BY, some CC-NC) that must be respected when using the data.": "Other",
	"For MATLAB (https://www.mathworks.com/pricing-licensing.html) and for Octave (GNU General Public License version 3)":                                           "Other",
	// Pages on a forge, which skilldex does not fetch.
	"https://github.com/sympy/sympy/blob/master/LICENSE":           "Other",
	"https://github.com/pydicom/pydicom/blob/main/LICENSE":         "Other",
	"https://github.com/pola-rs/polars/blob/main/LICENSE":          "Other",
	"https://github.com/matplotlib/matplotlib/tree/main/LICENSE":   "Other",
	"https://github.com/biodatageeks/polars-bio/blob/main/LICENSE": "Other",
}

// moreLicenses are spellings seen in other catalogs and registries.
var moreLicenses = map[string]string{
	"":                                "",
	"   ":                             "",
	"mit":                             "MIT",
	" MIT ":                           "MIT",
	"MIT.":                            "MIT",
	"The MIT License (MIT)":           "MIT",
	"Expat":                           "MIT",
	"MIT-0":                           "MIT-0",
	"Apache 2.0":                      "Apache-2.0",
	"Apache 2":                        "Apache-2.0",
	"apache-2.0":                      "Apache-2.0",
	"Apache License 2.0":              "Apache-2.0",
	"Apache Software License 2.0":     "Apache-2.0",
	"ALv2":                            "Apache-2.0",
	"Apache":                          "Other",
	"Apache License":                  "Other",
	"BSD 3-Clause":                    "BSD-3-Clause",
	"New BSD License":                 "BSD-3-Clause",
	"Simplified BSD":                  "BSD-2-Clause",
	"GPL-3.0-or-later":                "GPL-3.0-or-later",
	"GPL-3.0+":                        "GPL-3.0-or-later",
	"GPLv3+":                          "GPL-3.0-or-later",
	"GPL v2 or later":                 "GPL-2.0-or-later",
	"GNU GPL v3":                      "GPL-3.0-only",
	"GNU General Public License v3.0": "GPL-3.0-only",
	"GNU General Public License version 3 or any later version": "GPL-3.0-or-later",
	"GPL-3.0-only":                         "GPL-3.0-only",
	"GPL":                                  "Other",
	"LGPL-2.1":                             "LGPL-2.1-only",
	"LGPLv2.1+":                            "LGPL-2.1-or-later",
	"GNU Lesser General Public License v3": "LGPL-3.0-only",
	"AGPLv3":                               "AGPL-3.0-only",
	"AGPL-3.0-or-later":                    "AGPL-3.0-or-later",
	"MPL 2.0":                              "MPL-2.0",
	"Mozilla Public License 2.0":           "MPL-2.0",
	"ISC License":                          "ISC",
	"The Unlicense":                        "Unlicense",
	"Unlicensed":                           "Other",
	"CC0":                                  "CC0-1.0",
	"CC0 1.0 Universal":                    "CC0-1.0",
	"CC BY 4.0":                            "CC-BY-4.0",
	"CC BY-NC-SA 4.0":                      "CC-BY-NC-SA-4.0",
	"Creative Commons Attribution 4.0 International": "CC-BY-4.0",
	"Creative Commons Attribution-ShareAlike 4.0":    "CC-BY-SA-4.0",
	"European Union Public Licence 1.2":              "EUPL-1.2",
	"Boost Software License 1.0":                     "BSL-1.0",
	// Expressions.
	"MIT OR Apache-2.0":  "MIT OR Apache-2.0",
	"mit or apache-2.0":  "MIT OR Apache-2.0",
	"MIT/Apache-2.0":     "MIT OR Apache-2.0",
	"MIT or Apache 2.0":  "MIT OR Apache-2.0",
	"MIT and Apache 2.0": "MIT AND Apache-2.0",
	// Dual licensing is a choice of either license.
	"Dual licensed under MIT and Apache 2.0":    "MIT OR Apache-2.0",
	"Dual-licensed: MIT and Apache-2.0":         "MIT OR Apache-2.0",
	"(MIT OR Apache-2.0) AND BSD-3-Clause":      "(MIT OR Apache-2.0) AND BSD-3-Clause",
	"( mit  or apache-2.0 )":                    "(MIT OR Apache-2.0)",
	"GPL-2.0-only WITH Classpath-exception-2.0": "GPL-2.0-only WITH Classpath-exception-2.0",
	"GPL-2.0+ with classpath-exception-2.0":     "GPL-2.0-or-later WITH Classpath-exception-2.0",
	"LicenseRef-Acme-Internal":                  "LicenseRef-Acme-Internal",
	"MIT OR":                                    "Other",
	"MIT OR Proprietary":                        "Other",
	"(MIT":                                      "MIT", // punctuation around a name is not part of it
	"MIT WITH Apache-2.0":                       "Other",
	// URLs: license pages named by identifier, and anything else.
	"https://opensource.org/licenses/MIT":       "MIT",
	"https://spdx.org/licenses/Apache-2.0.html": "Apache-2.0",
	"https://choosealicense.com/licenses/mit/":  "MIT",
	"https://opensource.org/licenses/not-one":   "Other",
	"https://example.com/licenses/MIT":          "Other",
	"Proprietary":                               "Other",
	"All rights reserved":                       "Other",
	"See LICENSE":                               "Other",
	"MIT (see LICENSE)":                         "Other",
	"Other":                                     "Other",
	"<script>alert(1)</script>":                 "Other",
	strings.Repeat("MIT OR ", 40) + "MIT":       "Other",
}

func TestNormalize(t *testing.T) {
	for _, table := range []map[string]string{corpusLicenses, moreLicenses} {
		for in, want := range table {
			if got := spdx.Normalize(in); got != want {
				t.Errorf("Normalize(%q) = %q, want %q", in, got, want)
			}
		}
	}
}

// TestCorpusLicensesSurveyed: every license value of the corpus is in
// corpusLicenses, so that TestNormalize says what each normalises to.
func TestCorpusLicensesSurveyed(t *testing.T) {
	var sources []string
	for _, p := range []string{"skills", "usk", "zips", "uasp"} {
		sources = append(sources, testutil.Testdata(t, "corpus", p))
	}
	c, err := build.Load(context.Background(), build.LoadOptions{Sources: sources, NoDerive: true})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, s := range c.All {
		if s.Frontmatter == nil || s.Frontmatter.License == "" {
			continue
		}
		lic := s.Frontmatter.License
		if _, ok := corpusLicenses[lic]; !ok && !seen[lic] {
			t.Errorf("%s: license %q is not in corpusLicenses; add it with the value it should normalise to", s.File(), lic)
		}
		seen[lic] = true
	}
	for lic := range corpusLicenses {
		if !seen[lic] {
			t.Errorf("corpusLicenses has %q, which no corpus skill has", lic)
		}
	}
}

func TestValid(t *testing.T) {
	for in, want := range map[string]bool{
		"MIT": true, "mit": true, "Apache-2.0 OR MIT": true, "GPL-3.0+": true, "GPL-3.0": true,
		"LicenseRef-x": true, "GPL-2.0-only WITH Classpath-exception-2.0": true,
		"": false, "MIT license": false, "Proprietary-ish": false, "Other": false,
	} {
		if got := spdx.Valid(in); got != want {
			t.Errorf("Valid(%q) = %v, want %v", in, got, want)
		}
	}
}

// FuzzNormalize: whatever the text, Normalize gives "", Other or a valid
// SPDX expression, and normalising that again changes nothing.
func FuzzNormalize(f *testing.F) {
	for _, table := range []map[string]string{corpusLicenses, moreLicenses} {
		for in := range table {
			f.Add(in)
		}
	}
	f.Fuzz(func(t *testing.T, in string) {
		got := spdx.Normalize(in)
		switch {
		case got == "":
			if strings.TrimSpace(in) != "" {
				t.Fatalf("Normalize(%q) = \"\"", in)
			}
		case got == spdx.Other:
		case !spdx.Valid(got):
			t.Fatalf("Normalize(%q) = %q, not a valid expression", in, got)
		}
		if again := spdx.Normalize(got); again != got {
			t.Fatalf("Normalize(%q) = %q, but Normalize(%q) = %q", in, got, got, again)
		}
	})
}
