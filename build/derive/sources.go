package derive

import (
	"fmt"
	"net/url"
	"path"
	"strings"

	"github.com/skilldex/skilldex/internal/spaces"
)

// linksOf files the links of a piece of text as sources.
func (d *deriver) linksOf(in *inline, _ string) {
	if in == nil {
		return
	}
	for _, l := range in.links {
		d.addSource(l.dest, spaces.Collapse(l.label), d.line(l.src))
	}
}

var hostPrefixes = map[string]bool{"www": true, "docs": true, "doc": true, "developer": true, "developers": true,
	"api": true, "learn": true, "en": true, "help": true, "support": true, "raw": true, "m": true}

// addSource records a link as a source, once per destination.
func (d *deriver) addSource(dest, label string, line int) {
	dest = strings.TrimSpace(dest)
	if dest == "" || strings.HasPrefix(dest, "#") {
		return
	}
	u, err := url.Parse(dest)
	if err != nil {
		return
	}
	var s sourceItem
	switch {
	case u.Scheme == "http" || u.Scheme == "https":
		if u.Host == "" {
			return
		}
		u.Fragment = ""
		s.url = u.String()
		labels := strings.Split(strings.ToLower(u.Hostname()), ".")
		if len(labels) > 1 {
			labels = labels[:len(labels)-1] // the top-level domain
		}
		for len(labels) > 1 && hostPrefixes[labels[0]] {
			labels = labels[1:]
		}
		ns := labels[len(labels)-1]
		p := strings.Trim(u.Path, "/")
		p = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(p, ".html"), ".htm"), ".md")
		s.id = ns
		if p != "" {
			s.id = ns + ":" + p
		}
	case u.Scheme == "" && u.Host == "" && u.Path != "":
		p := path.Clean(u.Path)
		if strings.HasPrefix(p, "/") || p == "." {
			return
		}
		s.path = p
		base := path.Base(p)
		s.id = strings.TrimSuffix(base, path.Ext(base))
		if s.id == "" || s.id == "." {
			s.id = p
		}
	default:
		return // mailto:, tel: and the like
	}
	key := s.url + "\x00" + s.path
	if prev, ok := d.sourceByDest[key]; ok {
		if prev.useFor == "" && label != "" && label != dest {
			prev.useFor = label
		}
		return
	}
	if label != "" && label != dest && label != s.url {
		s.useFor = cut(label, 200)
	}
	s.line = line
	// Ids are unique: a second page that gives the same id gets a number.
	base := s.id
	for n := 2; d.sourceID(s.id); n++ {
		s.id = fmt.Sprintf("%s-%d", base, n)
	}
	d.sources = append(d.sources, &s)
	d.sourceByDest[key] = &s
	d.sourceByDest["\x01"+dest] = &s
	d.sourceByDest["\x02"+s.id] = &s
}

func (d *deriver) sourceID(id string) bool {
	_, taken := d.sourceByDest["\x02"+id]
	return taken
}
