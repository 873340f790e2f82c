// Package catalogen writes realistic skill catalogs of any size, for
// benchmarks and load tests: n skill folders, each with a SKILL.md whose
// frontmatter and body look like those of real catalogs.
//
// A generated catalog has the shape of the real ones: names built from a
// subject, an action and sometimes a product name or suffix; descriptions
// that say what the skill does and when to use it; bodies of about 5 KB
// with headings, lists, numbered steps, code fences, tables and links;
// licenses, metadata tags, USK v3 fields (capabilities, category, tags,
// interface, schemas, permissions) for about one skill in five, and a UASP
// document (type and triggers) beside about one in ten. Subjects are drawn
// with a skewed frequency and bodies mix in neighbouring subjects, so that
// term frequencies follow the long-tailed distribution search indexes are
// sized for, and rare product names grow the vocabulary with n as real
// vocabularies grow.
//
// Output depends only on (n, seed): the same call always writes the same
// bytes, whatever the machine or the parallelism.
package catalogen

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Skill is the plan of one generated skill: enough to know what a search
// for it should find.
type Skill struct {
	Name        string
	Description string
	Domain      string // the subject, e.g. "kubernetes"
	Action      string // the verb, e.g. "deploy"
	Product     string // a rare product word in the name, or ""
	USK         bool   // the frontmatter has USK v3 fields
	UASP        bool   // a NAME.uasp.yaml document sits beside SKILL.md
	Type        string // UASP meta.type when UASP, else ""

	seed uint64
	dom  int
	act  int
	pool uint64 // size of the jargon pool of the catalog
}

// Generate writes n skills into dir (created if missing), one folder per
// skill named after it, and returns nothing but an error: the catalog is
// fully determined by n and seed.
func Generate(dir string, n int, seed int64) error {
	_, err := GenerateSkills(dir, n, seed)
	return err
}

// GenerateSkills is Generate that also returns the plan of each skill, in
// name order.
func GenerateSkills(dir string, n int, seed int64) ([]Skill, error) {
	if n < 0 {
		return nil, fmt.Errorf("catalogen: negative skill count %d", n)
	}
	skills := Plan(n, seed)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		next     = make(chan int)
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if err := writeSkill(dir, &skills[i], skills); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for i := range skills {
		next <- i
	}
	close(next)
	wg.Wait()
	return skills, firstErr
}

// Plan decides the name and metadata of every skill without writing
// anything. Names are unique; the result is sorted by name.
func Plan(n int, seed int64) []Skill {
	r := rand.New(rand.NewPCG(uint64(seed), 0x5ca1ab1e))
	used := make(map[string]bool, n)
	out := make([]Skill, 0, n)
	for i := 0; i < n; i++ {
		s := Skill{seed: r.Uint64(), pool: uint64(4*n + 100)}
		s.dom = skewed(r, len(domains))
		s.act = r.IntN(len(actions))
		d, a := domains[s.dom], actions[s.act]
		s.Domain, s.Action = d.name, a.verb
		parts := []string{}
		if r.IntN(10) < 3 {
			s.Product = productWord(r)
			parts = append(parts, s.Product)
		}
		parts = append(parts, d.name)
		switch r.IntN(3) {
		case 0:
			parts = append(parts, a.verb)
		case 1:
			parts = append(parts, a.gerund)
		default:
			parts = append(parts, slug(pick(r, d.terms)), a.noun)
		}
		if suf := pick(r, nameSuffixes); suf != "" {
			parts = append(parts, suf)
		}
		name := strings.Join(parts, "-")
		if len(name) > 56 {
			name = strings.Trim(name[:56], "-")
		}
		for k := 2; used[name]; k++ {
			name = fmt.Sprintf("%s-%d", strings.Join(parts, "-"), k)
		}
		used[name] = true
		s.Name = name
		s.USK = r.IntN(5) == 0
		s.UASP = r.IntN(10) == 0
		if s.UASP {
			s.Type = pick(r, skillTypes)
		}
		s.Description = description(r, &s)
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b Skill) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// skewed returns an index in [0, n) with a long-tailed distribution: the
// first subjects are common, the last rare.
func skewed(r *rand.Rand, n int) int {
	// 1/(i+3) weights, by inverse transform on the harmonic sum.
	total := 0.0
	for i := 0; i < n; i++ {
		total += 1 / float64(i+3)
	}
	x := r.Float64() * total
	for i := 0; i < n; i++ {
		x -= 1 / float64(i+3)
		if x <= 0 {
			return i
		}
	}
	return n - 1
}

func pick[T any](r *rand.Rand, list []T) T { return list[r.IntN(len(list))] }

func productWord(r *rand.Rand) string {
	var b strings.Builder
	for k := 2 + r.IntN(2); k > 0; k-- {
		b.WriteString(pick(r, syllables))
	}
	return b.String()
}

// jargon is word j of the catalog's long tail: identifiers, product and
// library names, abbreviations. Which words a skill uses follows Zipf's
// law over a pool that grows with the catalog, so the vocabulary grows as
// real vocabularies do (Heaps' law) instead of stopping at the word lists.
func jargon(j uint64) string {
	r := rand.New(rand.NewPCG(j, 0x6a726f6e))
	var b strings.Builder
	for k := 2 + r.IntN(3); k > 0; k-- {
		b.WriteString(pick(r, syllables))
	}
	if r.IntN(5) == 0 {
		fmt.Fprintf(&b, "%d", r.IntN(20))
	}
	return b.String()
}

func slug(s string) string { return strings.ReplaceAll(s, " ", "-") }

func plural(s string) string {
	switch {
	case strings.HasSuffix(s, "sis"):
		return s[:len(s)-2] + "es"
	case strings.HasSuffix(s, "s"), strings.HasSuffix(s, "x"), strings.HasSuffix(s, "ch"), strings.HasSuffix(s, "sh"):
		return s + "es"
	case strings.HasSuffix(s, "y") && !strings.ContainsAny(s[len(s)-2:len(s)-1], "aeiou"):
		return s[:len(s)-1] + "ies"
	}
	return s + "s"
}

func capital(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func title(name string) string {
	parts := strings.Split(name, "-")
	for i, p := range parts {
		parts[i] = capital(p)
	}
	return strings.Join(parts, " ")
}

func description(r *rand.Rand, s *Skill) string {
	d, a := domains[s.dom], actions[s.act]
	t1, t2 := pick(r, d.terms), pick(r, d.terms)
	subject := d.name
	if s.Product != "" {
		subject = capital(s.Product) + " " + d.name
	}
	var b strings.Builder
	switch r.IntN(4) {
	case 0:
		fmt.Fprintf(&b, "%s %s %s and %s with %s.", capital(a.verb)+"s", subject, plural(t1), plural(t2), pick(r, d.tools))
	case 1:
		fmt.Fprintf(&b, "Helps agents %s %s %s, from the first %s to the final %s.", a.verb, subject, plural(t1), t2, pick(r, []string{"report", "check", "review", "release"}))
	case 2:
		fmt.Fprintf(&b, "A %s for %s: %s %s and %s using %s.", a.noun, subject, a.gerund, plural(t1), plural(t2), pick(r, d.tools))
	default:
		fmt.Fprintf(&b, "%s %s %s safely, explaining each %s as it goes.", capital(a.gerund), subject, plural(t1), t2)
	}
	fmt.Fprintf(&b, " Use when the user asks to %s a %s, mentions %s, or works on %s %s.", a.verb, t1, pick(r, d.tools), d.name, plural(pick(r, d.terms)))
	return b.String()
}

// writeSkill writes one skill's folder.
func writeSkill(dir string, s *Skill, all []Skill) error {
	r := rand.New(rand.NewPCG(s.seed, 0xb0d1e5))
	folder := filepath.Join(dir, s.Name)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		return err
	}
	var b strings.Builder
	frontmatter(&b, r, s)
	body(&b, r, s, all)
	if err := os.WriteFile(filepath.Join(folder, "SKILL.md"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	if s.UASP {
		if err := os.WriteFile(filepath.Join(folder, s.Name+".uasp.yaml"), []byte(uaspDoc(r, s)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// q quotes a string for YAML (a JSON string is a YAML double-quoted scalar).
func q(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func tagsFor(r *rand.Rand, s *Skill) []string {
	d := domains[s.dom]
	tags := []string{d.name, s.Action}
	for k := r.IntN(3); k > 0; k-- {
		tags = append(tags, slug(pick(r, d.terms)))
	}
	if r.IntN(3) == 0 {
		tags = append(tags, domains[skewed(r, len(domains))].name)
	}
	return dedupe(tags)
}

func dedupe(in []string) []string {
	seen := map[string]bool{}
	out := in[:0]
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func frontmatter(b *strings.Builder, r *rand.Rand, s *Skill) {
	d := domains[s.dom]
	b.WriteString("---\n")
	fmt.Fprintf(b, "name: %s\n", s.Name)
	fmt.Fprintf(b, "description: %s\n", q(s.Description))
	if lic := pick(r, licenses); lic != "" {
		fmt.Fprintf(b, "license: %s\n", lic)
	}
	if s.USK {
		b.WriteString("spec: usk/1.0\n")
		fmt.Fprintf(b, "version: %d.%d.%d\n", 1+r.IntN(3), r.IntN(10), r.IntN(20))
		fmt.Fprintf(b, "interface:\n  type: cli\n  entry_point: main.py\n  runtime: python3\n  call_pattern: stdin_stdout\n")
		t := slug(pick(r, d.terms))
		fmt.Fprintf(b, "input_schema:\n  type: object\n  properties:\n    %s:\n      type: string\n      description: %s\n  required:\n    - %s\n", strings.ReplaceAll(t, "-", "_"), q("The "+strings.ReplaceAll(t, "-", " ")+" to "+s.Action), strings.ReplaceAll(t, "-", "_"))
		b.WriteString("output_schema:\n  type: object\n  properties:\n    result:\n      type: string\n      description: \"What was done\"\n")
		b.WriteString("capabilities:\n")
		caps := dedupe([]string{pick(r, capabilityList), pick(r, capabilityList)})
		for _, c := range caps {
			fmt.Fprintf(b, "  - %s\n", c)
		}
		fmt.Fprintf(b, "permissions:\n  network: %v\n  filesystem: %v\n  subprocess: %v\n", r.IntN(2) == 0, true, r.IntN(2) == 0)
		fmt.Fprintf(b, "category: %s\n", d.category)
		b.WriteString("tags:\n")
		for _, t := range tagsFor(r, s) {
			fmt.Fprintf(b, "  - %s\n", t)
		}
		fmt.Fprintf(b, "author: %s\n", productWord(r))
	} else if r.IntN(3) == 0 {
		fmt.Fprintf(b, "metadata:\n  tags: %s\n", q(strings.Join(tagsFor(r, s), ", ")))
		if r.IntN(2) == 0 {
			fmt.Fprintf(b, "  category: %s\n", d.category)
		}
	}
	b.WriteString("---\n\n")
}

// sentence writes one sentence of about words words, mostly about the
// skill's subject with a neighbouring subject mixed in.
func sentence(r *rand.Rand, s *Skill, words int) string {
	d := domains[s.dom]
	other := domains[skewed(r, len(domains))]
	zipf := rand.NewZipf(r, 1.1, 2, s.pool-1)
	ws := make([]string, 0, words)
	for len(ws) < words {
		switch x := r.IntN(10); {
		case x < 5:
			ws = append(ws, pick(r, prose))
		case x < 7:
			ws = append(ws, pick(r, d.terms))
		case x < 8:
			ws = append(ws, jargon(zipf.Uint64()))
		case x < 9:
			ws = append(ws, pick(r, other.terms))
		default:
			ws = append(ws, pick(r, d.tools))
		}
	}
	out := strings.Join(ws, " ")
	return capital(out) + "."
}

func paragraph(r *rand.Rand, s *Skill) string {
	var ps []string
	for k := 2 + r.IntN(3); k > 0; k-- {
		ps = append(ps, sentence(r, s, 8+r.IntN(12)))
	}
	return strings.Join(ps, " ")
}

func body(b *strings.Builder, r *rand.Rand, s *Skill, all []Skill) {
	d, a := domains[s.dom], actions[s.act]
	fmt.Fprintf(b, "# %s\n\n", title(s.Name))
	fmt.Fprintf(b, "%s %s\n\n", s.Description, paragraph(r, s))
	b.WriteString("## When to use\n\n")
	for k := 3 + r.IntN(3); k > 0; k-- {
		fmt.Fprintf(b, "- The user wants to %s %s %s. %s\n", a.verb, d.name, plural(pick(r, d.terms)), sentence(r, s, 6+r.IntN(6)))
	}
	b.WriteString("\n## Workflow\n\n")
	for k := 1; k <= 4+r.IntN(4); k++ {
		fmt.Fprintf(b, "%d. **%s the %s.** %s\n", k, capital(pick(r, []string{"check", "read", "run", "verify", "prepare", "update", "compare"})), pick(r, d.terms), paragraph(r, s))
	}
	tool := pick(r, d.tools)
	fmt.Fprintf(b, "\n## Commands\n\n```bash\n")
	for k := 3 + r.IntN(4); k > 0; k-- {
		fmt.Fprintf(b, "%s %s --%s %s\n", tool, pick(r, []string{"list", "show", "apply", "check", "export", "init", "run"}), slug(pick(r, d.terms)), pick(r, []string{"./", "--dry-run", "-o json", "--all", "main"}))
	}
	b.WriteString("```\n\n")
	b.WriteString("## Reference\n\n| Option | Meaning | Default |\n| --- | --- | --- |\n")
	for k := 3 + r.IntN(4); k > 0; k-- {
		t := pick(r, d.terms)
		fmt.Fprintf(b, "| `--%s` | %s | `%s` |\n", slug(t), sentence(r, s, 5+r.IntN(5)), pick(r, []string{"true", "false", "auto", "none", "10", "main"}))
	}
	b.WriteString("\n## Example\n\n```json\n")
	fmt.Fprintf(b, "{\n  \"action\": %q,\n  \"%s\": %q,\n  \"dry_run\": true\n}\n```\n\n", a.verb, strings.ReplaceAll(slug(pick(r, d.terms)), "-", "_"), pick(r, d.terms))
	for b.Len() < 4200+r.IntN(1600) {
		fmt.Fprintf(b, "## %s %s\n\n%s\n\n", capital(pick(r, d.terms)), pick(r, []string{"notes", "details", "pitfalls", "checklist", "tips"}), paragraph(r, s))
		if r.IntN(2) == 0 {
			for k := 2 + r.IntN(3); k > 0; k-- {
				fmt.Fprintf(b, "- %s\n", sentence(r, s, 5+r.IntN(8)))
			}
			b.WriteString("\n")
		}
	}
	b.WriteString("## Related\n\n")
	for k := 2 + r.IntN(2); k > 0; k-- {
		o := all[r.IntN(len(all))]
		fmt.Fprintf(b, "- [%s](../%s/SKILL.md): %s\n", o.Name, o.Name, o.Action+"s "+o.Domain)
	}
	fmt.Fprintf(b, "- Upstream documentation: https://docs.example.com/%s/%s\n", d.name, slug(pick(r, d.terms)))
}

func uaspDoc(r *rand.Rand, s *Skill) string {
	d, a := domains[s.dom], actions[s.act]
	var b strings.Builder
	fmt.Fprintf(&b, "meta:\n  name: %s\n  type: %s\n  description: %s\n", s.Name, s.Type, q(s.Description))
	b.WriteString("triggers:\n  keywords:\n")
	for _, k := range dedupe([]string{d.name, a.verb, pick(r, d.tools), slug(pick(r, d.terms))}) {
		fmt.Fprintf(&b, "    - %s\n", k)
	}
	b.WriteString("  intents:\n")
	for k := 2; k > 0; k-- {
		fmt.Fprintf(&b, "    - %s\n", q(a.verb+" "+d.name+" "+plural(pick(r, d.terms))))
	}
	fmt.Fprintf(&b, "constraints:\n  always:\n    - %s\n  never:\n    - %s\n", q(sentence(r, s, 8)), q(sentence(r, s, 8)))
	return b.String()
}

// BenchCache is the folder where `make bench` keeps its tools, catalogs
// and sites: $SKILLDEX_BENCH_CACHE, else skilldex-bench in the user's
// cache folder.
func BenchCache() string {
	if d := os.Getenv("SKILLDEX_BENCH_CACHE"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "skilldex-bench")
	}
	return filepath.Join(os.TempDir(), "skilldex-bench")
}

// BenchCatalog is the folder of the catalog of n skills (seed 1) that
// `make bench` generates in BenchCache; benchmarks that read it skip when
// it is missing.
func BenchCatalog(n int) string {
	return filepath.Join(BenchCache(), fmt.Sprintf("catalog-%d", n))
}
