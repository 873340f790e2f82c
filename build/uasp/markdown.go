package uasp

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"

	"github.com/skilldex/skilldex/build/yamltree"
	"github.com/skilldex/skilldex/internal/spaces"
)

// ToMarkdown writes a document as Markdown for people (uasp.md 7.2),
// extending the spec's generator to every section: triggers, guidelines
// (never, always, prefer), decisions, state, commands (with argument and
// flag tables, variants), global flags, workflows (steps, invariants,
// example), reference, templates, environment and sources. Sections come
// in the schema's order and entries in the document's, so the output is
// deterministic. Keys the schema does not define are left out. Text from
// the document is written so that it cannot break the Markdown around it:
// code goes in fences longer than any backtick run it holds, table cells
// have their pipes escaped and their line breaks flattened.
func ToMarkdown(d *Document) []byte {
	w := &mdWriter{derived: d.Derived}
	root := d.Root
	meta, _ := yamltree.GetAs[*yamltree.Map](root, "meta")
	name, _ := yamltree.GetAs[string](meta, "name")
	if name == "" {
		name = d.skill
	}
	w.line("# ", inlineText(name))
	w.blank()
	if desc := d.Description(); desc != "" {
		w.line(inlineText(desc))
		w.blank()
	}
	var facts []string
	if t := d.Type(); t != "" {
		facts = append(facts, "**Type:** "+inlineText(t))
	}
	facts = append(facts, "**Version:** `"+d.Version+"`")
	if d.Derived {
		facts = append(facts, "derived from SKILL.md")
	}
	w.line(strings.Join(facts, " · "))
	w.blank()
	w.sections(root)
	return w.bytes()
}

// SectionsMarkdown writes the document's sections as ToMarkdown does, but
// without the title, description and facts, and with every heading shift
// levels deeper: for a page that shows the document under its own heading.
func SectionsMarkdown(d *Document, shift int) []byte {
	w := &mdWriter{shift: shift, derived: d.Derived}
	w.sections(d.Root)
	return w.bytes()
}

func (w *mdWriter) sections(root *yamltree.Map) {
	w.triggers(root)
	w.guidelines(root)
	w.decisions(root)
	w.state(root)
	w.commands(root)
	w.globalFlags(root)
	w.workflows(root)
	w.reference(root)
	w.templates(root)
	w.environment(root)
	w.sources(root)
}

type mdWriter struct {
	b     bytes.Buffer
	shift int // added to every heading level
	// derived documents hold prose where a written one holds commands: a
	// step from a numbered list with no command is the sentence itself.
	derived bool
}

// bytes returns what was written, ending in exactly one newline. The
// writer is done with.
func (w *mdWriter) bytes() []byte {
	return append(bytes.TrimRight(w.b.Bytes(), "\n"), '\n')
}

// line writes the concatenation of parts and a newline.
func (w *mdWriter) line(parts ...string) {
	for _, p := range parts {
		w.b.WriteString(p)
	}
	w.b.WriteByte('\n')
}

func (w *mdWriter) blank() { w.b.WriteByte('\n') }

// row writes a table row of cells.
func (w *mdWriter) row(cells []string) {
	w.b.WriteString("| ")
	for i, c := range cells {
		if i > 0 {
			w.b.WriteString(" | ")
		}
		w.b.WriteString(c)
	}
	w.b.WriteString(" |\n")
}

const hashes = "######"

func (w *mdWriter) heading(level int, s string) {
	w.line(hashes[:min(level+w.shift, 6)], " ", s)
	w.blank()
}

// asText returns any value as one line of text.
func asText(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = asText(e)
		}
		return strings.Join(parts, ", ")
	case *yamltree.Map:
		b, err := yamltree.JSON(x, "")
		if err != nil {
			return ""
		}
		return string(b)
	}
	return yamltree.Text(v)
}

// inlineText flattens text to one line for running Markdown.
func inlineText(s string) string { return spaces.Collapse(s) }

// code writes s as inline code, with enough backticks around it.
func code(s string) string {
	s = spaces.Collapse(s)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// block writes a fenced code block.
func (w *mdWriter) block(lang, s string) {
	fence := "```"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	w.line(fence, lang)
	w.line(strings.TrimRight(s, "\n"))
	w.line(fence)
	w.blank()
}

func cell(v any) string { return spaces.Collapse(asText(v)) }

// table writes a table with the given columns; a column empty in every row
// is left out. Pipes in cells are escaped, code spans included, as GFM
// tables require.
func (w *mdWriter) table(headers []string, rows [][]string) {
	for _, r := range rows {
		for i := range r {
			r[i] = strings.ReplaceAll(r[i], "|", `\|`)
		}
	}
	keep := make([]bool, len(headers))
	for _, r := range rows {
		for i, c := range r {
			if c != "" {
				keep[i] = true
			}
		}
	}
	var hs []string
	for i, h := range headers {
		if keep[i] || i == 0 {
			hs = append(hs, h)
		}
	}
	w.row(hs)
	w.line("|", strings.Repeat(" --- |", len(hs)))
	for _, r := range rows {
		var cs []string
		for i, c := range r {
			if keep[i] || i == 0 {
				cs = append(cs, c)
			}
		}
		w.row(cs)
	}
	w.blank()
}

func (w *mdWriter) bullets(items []any) {
	for _, it := range items {
		w.line("- ", inlineText(asText(it)))
	}
	w.blank()
}

func (w *mdWriter) triggers(root *yamltree.Map) {
	t, ok := yamltree.GetAs[*yamltree.Map](root, "triggers")
	if !ok || t.Len() == 0 {
		return
	}
	w.heading(2, "When to use")
	if kw, _ := yamltree.GetAs[[]any](t, "keywords"); len(kw) > 0 {
		w.line("- **Keywords:** ", inlineText(asText(kw)))
	}
	if in, _ := yamltree.GetAs[[]any](t, "intents"); len(in) > 0 {
		w.line("- **Intents:**")
		for _, i := range in {
			w.line("  - ", inlineText(asText(i)))
		}
	}
	if fp, _ := yamltree.GetAs[[]any](t, "file_patterns"); len(fp) > 0 {
		var cs []string
		for _, p := range fp {
			cs = append(cs, code(asText(p)))
		}
		w.line("- **File patterns:** ", strings.Join(cs, ", "))
	}
	w.blank()
}

func (w *mdWriter) guidelines(root *yamltree.Map) {
	c, ok := yamltree.GetAs[*yamltree.Map](root, "constraints")
	if !ok || c.Len() == 0 {
		return
	}
	w.heading(2, "Guidelines")
	if l, _ := yamltree.GetAs[[]any](c, "never"); len(l) > 0 {
		w.heading(3, "Never")
		w.bullets(l)
	}
	if l, _ := yamltree.GetAs[[]any](c, "always"); len(l) > 0 {
		w.heading(3, "Always")
		w.bullets(l)
	}
	if l, _ := yamltree.GetAs[[]any](c, "prefer"); len(l) > 0 {
		w.heading(3, "Prefer")
		for _, p := range l {
			m, _ := p.(*yamltree.Map)
			use, _ := m.Get("use")
			over, _ := m.Get("over")
			s := "- **" + inlineText(asText(use)) + "** over " + inlineText(asText(over))
			if when, ok := m.Get("when"); ok {
				s += " — when " + inlineText(asText(when))
			}
			w.line(s)
		}
		w.blank()
	}
}

func (w *mdWriter) decisions(root *yamltree.Map) {
	l, _ := yamltree.GetAs[[]any](root, "decisions")
	if len(l) == 0 {
		return
	}
	w.heading(2, "Decisions")
	var rows [][]string
	for _, d := range l {
		m, _ := d.(*yamltree.Map)
		when, _ := m.Get("when")
		then, _ := m.Get("then")
		ref := ""
		if r, ok := m.Get("ref"); ok {
			ref = code(asText(r))
		}
		rows = append(rows, []string{cell(when), cell(then), ref})
	}
	w.table([]string{"When", "Then", "See"}, rows)
}

func (w *mdWriter) state(root *yamltree.Map) {
	st, _ := yamltree.GetAs[*yamltree.Map](root, "state")
	ents, _ := yamltree.GetAs[[]any](st, "entities")
	if len(ents) == 0 {
		return
	}
	w.heading(2, "State")
	for _, e := range ents {
		m, _ := e.(*yamltree.Map)
		name, _ := yamltree.GetAs[string](m, "name")
		w.heading(3, code(name))
		for k, v := range m.All() {
			if k == "name" {
				continue
			}
			val := inlineText(asText(v))
			if k == "format" {
				val = code(asText(v))
			}
			w.line("- **", label(k), ":** ", val)
		}
		w.blank()
	}
}

// label turns a key into words: created_by -> Created by.
func label(k string) string {
	s := strings.ReplaceAll(strings.ReplaceAll(k, "_", " "), "-", " ")
	r := []rune(s)
	if len(r) > 0 {
		r[0] = unicode.ToUpper(r[0])
	}
	return string(r)
}

func (w *mdWriter) argsTable(args []any) {
	var rows [][]string
	for _, a := range args {
		m, _ := a.(*yamltree.Map)
		name, _ := m.Get("name")
		typ, _ := m.Get("type")
		req := ""
		if r, ok := m.Get("required"); ok {
			req = "no"
			if r == true {
				req = "yes"
			}
		}
		def := ""
		if v, ok := m.Get("default"); ok {
			def = code(asText(v))
		}
		desc, _ := m.Get("description")
		if vals, ok := yamltree.GetAs[[]any](m, "values"); ok {
			d := asText(desc)
			if d != "" {
				d += "; "
			}
			desc = d + "one of " + asText(vals)
		}
		rows = append(rows, []string{code(asText(name)), cell(typ), req, def, cell(desc)})
	}
	w.table([]string{"Argument", "Type", "Required", "Default", "Description"}, rows)
}

func (w *mdWriter) flagsTable(flags []any) {
	var rows [][]string
	for _, f := range flags {
		m, _ := f.(*yamltree.Map)
		name, _ := m.Get("name")
		other := func(k string) string {
			if v, ok := m.Get(k); ok {
				return code(asText(v))
			}
			return ""
		}
		typ, _ := m.Get("type")
		purpose, _ := m.Get("purpose")
		rows = append(rows, []string{code(asText(name)), other("short"), other("long"), cell(typ), other("default"), cell(purpose), other("env")})
	}
	w.table([]string{"Flag", "Short", "Long", "Type", "Default", "Purpose", "Environment"}, rows)
}

func (w *mdWriter) commands(root *yamltree.Map) {
	cmds, ok := yamltree.GetAs[*yamltree.Map](root, "commands")
	if !ok || cmds.Len() == 0 {
		return
	}
	w.heading(2, "Commands")
	for name, v := range cmds.All() {
		m, _ := v.(*yamltree.Map)
		w.heading(3, code(name))
		if syn, ok := yamltree.GetAs[string](m, "syntax"); ok {
			w.block("", syn)
		}
		if desc, ok := m.Get("description"); ok {
			w.line(inlineText(asText(desc)))
			w.blank()
		}
		if al, _ := yamltree.GetAs[[]any](m, "aliases"); len(al) > 0 {
			var cs []string
			for _, a := range al {
				cs = append(cs, code(asText(a)))
			}
			w.line("Aliases: ", strings.Join(cs, ", "))
			w.blank()
		}
		if args, _ := yamltree.GetAs[[]any](m, "args"); len(args) > 0 {
			w.argsTable(args)
		}
		if flags, _ := yamltree.GetAs[[]any](m, "flags"); len(flags) > 0 {
			w.flagsTable(flags)
		}
		var facts []string
		for _, k := range []string{"returns", "requires", "creates", "invalidates"} {
			if v, ok := m.Get(k); ok {
				facts = append(facts, "- **"+label(k)+":** "+inlineText(asText(v)))
			}
		}
		for _, f := range facts {
			w.line(f)
		}
		if len(facts) > 0 {
			w.blank()
		}
		if note, ok := m.Get("note"); ok {
			w.line("> **Note:** ", inlineText(asText(note)))
			w.blank()
		}
		if vars, _ := yamltree.GetAs[[]any](m, "variants"); len(vars) > 0 {
			w.line("Variants:")
			w.blank()
			for _, vv := range vars {
				vm, _ := vv.(*yamltree.Map)
				syn, _ := vm.Get("syntax")
				s := "- " + code(asText(syn))
				if p, ok := vm.Get("purpose"); ok {
					s += " — " + inlineText(asText(p))
				}
				w.line(s)
			}
			w.blank()
		}
		if ex, ok := yamltree.GetAs[string](m, "example"); ok {
			w.block("bash", ex)
		}
	}
}

func (w *mdWriter) globalFlags(root *yamltree.Map) {
	l, _ := yamltree.GetAs[[]any](root, "global_flags")
	if len(l) == 0 {
		return
	}
	w.heading(2, "Global flags")
	w.flagsTable(l)
}

// title capitalises words as Python's str.title() does for the spec's
// workflow headings: basic_interaction -> Basic Interaction.
func title(s string) string {
	s = strings.ReplaceAll(s, "_", " ")
	var b strings.Builder
	prevLetter := false
	for _, r := range s {
		if unicode.IsLetter(r) {
			if prevLetter {
				b.WriteRune(unicode.ToLower(r))
			} else {
				b.WriteRune(unicode.ToUpper(r))
			}
			prevLetter = true
			continue
		}
		prevLetter = false
		b.WriteRune(r)
	}
	return b.String()
}

func (w *mdWriter) workflows(root *yamltree.Map) {
	wfs, ok := yamltree.GetAs[*yamltree.Map](root, "workflows")
	if !ok || wfs.Len() == 0 {
		return
	}
	w.heading(2, "Workflows")
	for name, v := range wfs.All() {
		m, _ := v.(*yamltree.Map)
		heading := title(name)
		w.heading(3, inlineText(heading))
		// A derived workflow is often described by the heading it came
		// from, which the title above already says.
		if desc, ok := m.Get("description"); ok && !strings.EqualFold(strings.TrimSpace(asText(desc)), heading) {
			w.line(inlineText(asText(desc)))
			w.blank()
		}
		if inv, _ := yamltree.GetAs[[]any](m, "invariants"); len(inv) > 0 {
			w.line("Invariants:")
			w.blank()
			w.bullets(inv)
		}
		if steps, _ := yamltree.GetAs[[]any](m, "steps"); len(steps) > 0 {
			for i, st := range steps {
				sm, _ := st.(*yamltree.Map)
				cmd, _ := sm.Get("cmd")
				note, hasNote := sm.Get("note")
				var text string
				if w.derived && !hasNote {
					text = inlineText(asText(cmd))
				} else {
					text = stepText(asText(cmd))
				}
				w.b.WriteString(strconv.Itoa(i + 1))
				w.b.WriteString(". ")
				w.b.WriteString(text)
				if hasNote {
					w.b.WriteString(" — ")
					w.b.WriteString(inlineText(asText(note)))
				}
				if opt, _ := sm.Get("optional"); opt == true {
					w.b.WriteString(" (optional)")
				}
				w.blank()
			}
			w.blank()
		}
		if ex, ok := yamltree.GetAs[string](m, "example"); ok {
			w.block("bash", ex)
		}
	}
}

// stepText writes a workflow step: a command as code, but a step that is
// prose with code spans of its own (as steps derived from a numbered list
// in SKILL.md are) as the Markdown it is.
func stepText(cmd string) string {
	if strings.Contains(cmd, "`") {
		return inlineText(cmd)
	}
	return code(cmd)
}

func (w *mdWriter) reference(root *yamltree.Map) {
	ref, ok := yamltree.GetAs[*yamltree.Map](root, "reference")
	if !ok || ref.Len() == 0 {
		return
	}
	w.heading(2, "Reference")
	for name, v := range ref.All() {
		m, _ := v.(*yamltree.Map)
		w.heading(3, code(name))
		if syn, ok := yamltree.GetAs[string](m, "syntax"); ok {
			w.block("", syn)
		}
		if notes, ok := m.Get("notes"); ok {
			w.line(inlineText(asText(notes)))
			w.blank()
		}
		if vals, _ := yamltree.GetAs[[]any](m, "values"); len(vals) > 0 {
			var cs []string
			for _, x := range vals {
				cs = append(cs, code(asText(x)))
			}
			w.line("Values: ", strings.Join(cs, ", "))
			w.blank()
		}
		var rows [][]string
		for k, x := range m.All() {
			if isReferenceField(k) {
				continue
			}
			rows = append(rows, []string{inlineText(label(k)), code(asText(x))})
		}
		if len(rows) > 0 {
			w.table([]string{"Name", "Syntax"}, rows)
		}
		if ex, ok := yamltree.GetAs[string](m, "example"); ok {
			w.line("Example:")
			w.blank()
			w.block("", ex)
		}
	}
}

func (w *mdWriter) templates(root *yamltree.Map) {
	ts, ok := yamltree.GetAs[*yamltree.Map](root, "templates")
	if !ok || ts.Len() == 0 {
		return
	}
	w.heading(2, "Templates")
	for name, v := range ts.All() {
		m, _ := v.(*yamltree.Map)
		w.heading(3, code(name))
		if desc, ok := m.Get("description"); ok {
			w.line(inlineText(asText(desc)))
			w.blank()
		}
		if u, ok := m.Get("usage"); ok {
			w.line("Usage: ", code(asText(u)))
			w.blank()
		}
		if args, _ := yamltree.GetAs[[]any](m, "args"); len(args) > 0 {
			w.argsTable(args)
		}
		if p, ok := m.Get("path"); ok {
			w.line("Script: ", code(asText(p)))
			w.blank()
		}
		if in, ok := yamltree.GetAs[string](m, "inline"); ok {
			w.block("bash", in)
		}
	}
}

func (w *mdWriter) environment(root *yamltree.Map) {
	l, _ := yamltree.GetAs[[]any](root, "environment")
	if len(l) == 0 {
		return
	}
	w.heading(2, "Environment")
	var rows [][]string
	for _, e := range l {
		m, _ := e.(*yamltree.Map)
		name, _ := m.Get("name")
		purpose, _ := m.Get("purpose")
		def := ""
		if v, ok := m.Get("default"); ok && v != nil {
			def = code(asText(v))
		}
		rows = append(rows, []string{code(asText(name)), cell(purpose), def})
	}
	w.table([]string{"Variable", "Purpose", "Default"}, rows)
}

// urlEscaper makes a URL fit between < and >.
var urlEscaper = strings.NewReplacer("<", "%3C", ">", "%3E", " ", "%20")

func (w *mdWriter) sources(root *yamltree.Map) {
	l, _ := yamltree.GetAs[[]any](root, "sources")
	if len(l) == 0 {
		return
	}
	w.heading(2, "Sources")
	for _, s := range l {
		m, _ := s.(*yamltree.Map)
		id, _ := m.Get("id")
		line := "- " + code(asText(id))
		if u, ok := yamltree.GetAs[string](m, "url"); ok && (strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://")) {
			line += ": <" + urlEscaper.Replace(u) + ">"
		} else if u, ok := m.Get("url"); ok {
			line += ": " + code(asText(u))
		}
		if p, ok := m.Get("path"); ok {
			line += ": " + code(asText(p))
		}
		if uf, ok := m.Get("use_for"); ok {
			line += " — " + inlineText(asText(uf))
		}
		w.line(line)
	}
	w.blank()
}
