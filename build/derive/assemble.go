package derive

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/skilldex/skilldex/build/skill"
	"github.com/skilldex/skilldex/build/yamltree"
)

var nameFixRe = regexp.MustCompile(`[^a-z0-9-]+`)

// metaName makes the skill name fit the schema's ^[a-z][a-z0-9-]*$.
func metaName(name string) string {
	n := nameFixRe.ReplaceAllString(strings.ToLower(name), "-")
	n = strings.Trim(n, "-")
	if n == "" || n[0] < 'a' || n[0] > 'z' {
		n = "skill-" + n
	}
	return strings.TrimRight(n, "-")
}

// assemble builds the document in the schema's order.
func (d *deriver) assemble(s *skill.Skill) *yamltree.Map {
	root := yamltree.NewMap()
	meta := yamltree.NewMap()
	meta.Set("name", metaName(s.Name))
	meta.Set("version", "00000000") // replaced by the content hash
	guidelines := len(d.never) + len(d.always) + len(d.prefer) + len(d.decisions)
	real := 0
	for _, c := range d.commands {
		if !c.setup {
			real++
		}
	}
	typ := "knowledge"
	switch {
	case d.typeHint != "":
		typ = d.typeHint
	case real == 0:
	case guidelines >= 3:
		typ = "hybrid"
	default:
		typ = "cli"
	}
	meta.Set("type", typ)
	fmLine := 1
	if s.Frontmatter != nil {
		fmLine = s.Frontmatter.KeyPos("description").Line
	}
	if desc := truncateWords(s.Description, 500); desc != "" {
		meta.Set("description", desc)
		d.origins["meta.description"] = fmLine
	}
	root.Set("meta", meta)

	if t := d.triggers(s, fmLine); t.Len() > 0 {
		root.Set("triggers", t)
	}

	cons := yamltree.NewMap()
	addLines := func(key string, items []lined) {
		var list []any
		seen := map[string]bool{}
		for _, it := range items {
			k := strings.ToLower(it.text)
			if seen[k] {
				continue
			}
			seen[k] = true
			d.origins["constraints."+key+"."+strconv.Itoa(len(list))] = it.line
			list = append(list, it.text)
		}
		if len(list) > 0 {
			cons.Set(key, list)
		}
	}
	addLines("never", d.never)
	addLines("always", d.always)
	if len(d.prefer) > 0 {
		var list []any
		for _, p := range d.prefer {
			m := yamltree.NewMap()
			m.Set("use", p.use)
			m.Set("over", p.over)
			if p.when != "" {
				m.Set("when", p.when)
			}
			d.origins["constraints.prefer."+strconv.Itoa(len(list))] = p.line
			list = append(list, m)
		}
		cons.Set("prefer", list)
	}
	if cons.Len() > 0 {
		root.Set("constraints", cons)
	}

	if len(d.decisions) > 0 {
		var list []any
		for _, dec := range d.decisions {
			m := yamltree.NewMap()
			m.Set("when", dec.when)
			m.Set("then", dec.then)
			if src := d.sourceByDest["\x01"+strings.TrimSpace(dec.ref)]; src != nil {
				m.Set("ref", src.id)
			}
			d.origins["decisions."+strconv.Itoa(len(list))] = dec.line
			list = append(list, m)
		}
		root.Set("decisions", list)
	}

	if len(d.cmdOrder) > 0 {
		cmds := yamltree.NewMap()
		for _, key := range d.cmdOrder {
			c := d.commands[key]
			d.origins["commands."+key] = c.line
			if c.usk != nil {
				cmds.Set(key, c.usk)
				continue
			}
			m := yamltree.NewMap()
			m.Set("syntax", c.syntax)
			if c.description != "" {
				m.Set("description", cut(c.description, 300))
			}
			if len(c.args) > 0 {
				m.Set("args", mapsToList(c.args))
			}
			if len(c.flags) > 0 {
				m.Set("flags", mapsToList(c.flags))
			}
			if len(c.variants) > 0 {
				m.Set("variants", mapsToList(c.variants))
			}
			cmds.Set(key, m)
		}
		root.Set("commands", cmds)
	}

	if len(d.workflows) > 0 {
		wfs := yamltree.NewMap()
		for _, w := range d.workflows {
			key := w.key
			for n := 2; wfs.Has(key); n++ {
				key = fmt.Sprintf("%s_%d", w.key, n)
			}
			m := yamltree.NewMap()
			m.Set("description", w.description)
			m.Set("steps", mapsToList(w.steps))
			if len(w.example) > 0 {
				m.Set("example", strings.Join(w.example, "\n")+"\n")
			}
			wfs.Set(key, m)
			d.origins["workflows."+key] = w.line
			for i, l := range w.stepLines {
				d.origins["workflows."+key+".steps."+strconv.Itoa(i)] = l
			}
		}
		root.Set("workflows", wfs)
	}

	if d.templates.Len() > 0 {
		root.Set("templates", d.templates)
	}

	var env []any
	for _, name := range d.envOrder {
		e := d.env[name]
		if d.assigned[name] && !d.exported[name] && !e.prose {
			continue
		}
		m := yamltree.NewMap()
		m.Set("name", name)
		purpose := e.purpose
		if purpose == "" {
			purpose = "referenced in SKILL.md"
		}
		m.Set("purpose", purpose)
		if e.def != "" {
			m.Set("default", e.def)
		}
		d.origins["environment."+name] = e.line
		env = append(env, m)
	}
	if len(env) > 0 {
		root.Set("environment", env)
	}

	if len(d.sources) > 0 {
		var list []any
		for _, src := range d.sources {
			m := yamltree.NewMap()
			m.Set("id", src.id)
			if src.url != "" {
				m.Set("url", src.url)
			} else {
				m.Set("path", src.path)
			}
			if src.useFor != "" {
				m.Set("use_for", src.useFor)
			}
			d.origins["sources."+src.id] = src.line
			list = append(list, m)
		}
		root.Set("sources", list)
	}
	return root
}

func mapsToList(ms []*yamltree.Map) []any {
	out := make([]any, len(ms))
	for i, m := range ms {
		out[i] = m
	}
	return out
}
