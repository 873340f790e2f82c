package spdx

import (
	"fmt"
	"strings"
)

// names are the names people write for licenses, by SPDX identifier,
// besides the identifier itself in any spacing ("Apache 2.0", "BSD 3
// Clause" and "cc by 4.0" come from the identifiers). Only names that
// say which license and which version: "BSD", "GPL" or "Apache License"
// alone do not.
var names = map[string][]string{
	"MIT":          {"MIT License", "Expat", "Expat License"},
	"MIT-0":        {"MIT No Attribution"},
	"Apache-2.0":   {"Apache Software License 2.0", "ASL 2.0", "ALv2", "Apache License 2.0"},
	"BSD-3-Clause": {"3-Clause BSD", "BSD-3", "New BSD", "BSD New", "Modified BSD", "Revised BSD", "BSD three-clause", "three-clause BSD"},
	"BSD-2-Clause": {"2-Clause BSD", "BSD-2", "Simplified BSD", "FreeBSD", "BSD two-clause", "two-clause BSD"},
	"0BSD":         {"Zero-Clause BSD", "BSD Zero Clause", "BSD-0"},
	"MPL-2.0":      {"Mozilla Public License 2.0"},
	"MPL-1.1":      {"Mozilla Public License 1.1"},
	"EPL-1.0":      {"Eclipse Public License 1.0"},
	"EPL-2.0":      {"Eclipse Public License 2.0"},
	"CC0-1.0":      {"CC0", "CC-0", "Creative Commons Zero", "CC0 Public Domain Dedication"},
	"Unlicense":    {"The Unlicense"},
	"BSL-1.0":      {"Boost Software License 1.0", "Boost 1.0"},
	"BUSL-1.1":     {"Business Source License 1.1"},
	"SSPL-1.0":     {"Server Side Public License", "Server Side Public License 1"},
	"PSF-2.0":      {"Python Software Foundation License", "PSF"},
	"UPL-1.0":      {"Universal Permissive License 1.0"},
	"AFL-3.0":      {"Academic Free License 3.0"},
	"OSL-3.0":      {"Open Software License 3.0"},
	"EUPL-1.2":     {"European Union Public License 1.2"},
	"Artistic-2.0": {"Artistic License 2.0"},
	"OFL-1.1":      {"SIL Open Font License 1.1", "Open Font License 1.1"},
	"Zlib":         {"zlib/libpng"},
}

// gnu are the GNU licenses by their short and long names, with their
// versions: each is written "GPLv3", "GPL 3", "GNU GPL v3", "GNU General
// Public License version 3", with "+", "or later" or "only" after.
var gnu = []struct {
	short, long string
	versions    []string
}{
	{"GPL", "General Public License", []string{"1.0", "2.0", "3.0"}},
	{"LGPL", "Lesser General Public License", []string{"2.1", "3.0"}},
	{"LGPL", "Library General Public License", []string{"2.0"}},
	{"AGPL", "Affero General Public License", []string{"3.0"}},
	{"GFDL", "Free Documentation License", []string{"1.3"}},
	{"FDL", "Free Documentation License", []string{"1.3"}},
}

// creativeCommons are the Creative Commons licenses by their long names.
var creativeCommons = map[string]string{
	"BY": "Attribution", "BY-SA": "Attribution-ShareAlike", "BY-NC": "Attribution-NonCommercial",
	"BY-ND": "Attribution-NoDerivatives", "BY-NC-SA": "Attribution-NonCommercial-ShareAlike",
	"BY-NC-ND": "Attribution-NonCommercial-NoDerivatives",
}

// aliases map the key of every name above, and of every identifier, to
// the identifier as Normalize writes it.
var aliases = func() map[string]string {
	m := map[string]string{}
	add := func(name, id string) {
		k := key(name)
		if prev, ok := m[k]; ok && prev != id {
			panic(fmt.Sprintf("spdx: %q names both %s and %s", name, prev, id))
		}
		m[k] = id
	}
	for _, id := range licenses {
		add(id, canonical(id, false))
	}
	for id, list := range names {
		for _, n := range list {
			add(n, id)
		}
	}
	for _, g := range gnu {
		short := g.short
		if short == "FDL" {
			short = "GFDL"
		}
		for _, v := range g.versions {
			id := short + "-" + v
			for _, form := range []struct {
				suffix string
				plus   bool
			}{{"", false}, {" only", false}, {"+", true}, {" or later", true}} {
				want := canonical(id, form.plus)
				if form.suffix == " only" {
					want = canonical(id, false)
				}
				for _, name := range []string{
					g.short + " " + v, g.short + "v" + v, "GNU " + g.short + " " + v,
					g.long + " " + v, "GNU " + g.long + " " + v,
				} {
					add(name+form.suffix, want)
				}
			}
		}
	}
	for suffix, long := range creativeCommons {
		for _, v := range []string{"1.0", "2.0", "2.5", "3.0", "4.0"} {
			id := "CC-" + suffix + "-" + v
			if _, ok := licenses[strings.ToLower(id)]; !ok {
				continue
			}
			for _, name := range []string{"CC " + suffix + " " + v, "Creative Commons " + long + " " + v} {
				add(name, id)
			}
		}
	}
	return m
}()
