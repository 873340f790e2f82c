// skilldex search core: ranks skills from the sharded JSON index that
// `skilldex build` writes under search/ (see index/jsonindex.go for the
// files) with the ranking model of index/model.go, whose query-time
// parameters the manifest carries. It touches no DOM, so that the page
// (static/search.js), tests and benchmarks share it; under Node it is also
// a command:
//
//   node static/search-core.js SITE_DIR QUERY
//
// prints {"names": [...], "terms": [[...], ...], "bytes": N, "requests": N}:
// the ranked names of the first results, the terms each counted (which
// its highlights mark), and what answering the query downloaded (gzip
// sizes, as a static host serves them).
//
// Tokens, stemming and the query syntax must stay identical to
// index/analyze.go, index/porter.go and index/query.go, and the ranking
// to index/rank.go, which ranks the bleve index (skilldex search) and,
// through index/jsonsearch, this JSON index for Go programs (skilldex
// mcp): the Go tests check them on every word of the corpus, on
// testdata/queries.json and on the judged queries.

// STOP are the stop words (index.stopWords): bleve's English ones without
// apostrophes, and s, t and will.
const STOP = new Set(
  ('a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'cannot could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself me more most my myself no nor not of off on once only or other ought our ' +
    'ours ourselves out over own s same she should so some such t than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves').split(' '),
);

const MAX_TOKEN = 32;

/** Fold lowercases and drops accents, rune by rune as Go's index.Fold does. */
export function fold(s) {
  s = s.normalize('NFKD').replace(/\p{Mn}/gu, '');
  let out = '';
  for (const c of s) out += c.toLowerCase();
  return out;
}

const WORD = /[\p{L}\p{Nd}]+/gu;

/** Words splits folded text into runs of letters and digits. */
export function words(s) {
  return s.match(WORD) || [];
}

/** Tokens returns the index terms of text (index.Tokens). */
export function tokens(text) {
  const out = [];
  for (const w of words(fold(text))) {
    if (STOP.has(w) || [...w].length > MAX_TOKEN) continue;
    out.push(stem(w));
  }
  return out;
}

// Porter's stemmer as bleve runs it (go-porterstemmer; index/porter.go),
// on an array of characters (code points).

function isConsonant(b, i) {
  switch (b[i]) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
      return false;
    case 'y':
      return i === 0 || !isConsonant(b, i - 1);
  }
  return true;
}

function measure(b) {
  let m = 0, i = 0;
  const n = b.length;
  while (i < n && isConsonant(b, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(b, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(b, i)) i++;
    m++;
  }
  return m;
}

/** ends reports whether b ends with the ASCII suffix s and is longer. */
function ends(b, s) {
  if (b.length <= s.length) return false;
  for (let k = 0; k < s.length; k++) if (b[b.length - s.length + k] !== s[k]) return false;
  return true;
}

function hasVowel(b) {
  for (let i = 0; i < b.length; i++) if (!isConsonant(b, i)) return true;
  return false;
}

function doubleConsonant(b) {
  const n = b.length;
  return n >= 2 && b[n - 1] === b[n - 2] && isConsonant(b, n - 1);
}

function cvc(b) {
  const n = b.length;
  return n >= 3 && isConsonant(b, n - 3) && !isConsonant(b, n - 2) && isConsonant(b, n - 1);
}

function step1a(b) {
  if (ends(b, 'sses') || ends(b, 'ies')) return b.slice(0, -2);
  if (ends(b, 'ss')) return b;
  if (ends(b, 's')) return b.slice(0, -1);
  return b;
}

function step1b(b) {
  if (ends(b, 'eed')) return measure(b.slice(0, -3)) > 0 ? b.slice(0, -1) : b;
  let st;
  if (ends(b, 'ed')) st = b.slice(0, -2);
  else if (ends(b, 'ing')) st = b.slice(0, -3);
  else return b;
  if (!hasVowel(st)) return b;
  const last = st[st.length - 1];
  if (ends(st, 'at') || ends(st, 'bl') || ends(st, 'iz')) return st.concat('e');
  if (last !== 'l' && last !== 's' && last !== 'z' && doubleConsonant(st)) return st.slice(0, -1);
  if (measure(st) === 1 && cvc(st) && last !== 'w' && last !== 'x' && last !== 'y') return st.concat('e');
  return st;
}

function step1c(b) {
  if (b.length >= 2 && b[b.length - 1] === 'y' && hasVowel(b.slice(0, -1))) return b.slice(0, -1).concat('i');
  return b;
}

const STEP2 = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'],
  ['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'],
  ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'],
  ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'],
  ['logi', 'log'],
];

const STEP3 = [['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', '']];

const STEP4 = ['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'];

function replace(b, rules) {
  for (const [suffix, by] of rules) {
    if (!ends(b, suffix)) continue;
    const rest = b.slice(0, b.length - suffix.length);
    return measure(rest) > 0 ? rest.concat([...by]) : b;
  }
  return b;
}

function step4(b) {
  for (const s of STEP4) {
    if (!ends(b, s)) continue;
    const rest = b.slice(0, b.length - s.length);
    const last = rest[rest.length - 1];
    return measure(rest) > 1 && (s !== 'ion' || last === 's' || last === 't') ? rest : b;
  }
  return b;
}

function step5a(b) {
  if (b[b.length - 1] !== 'e') return b;
  const rest = b.slice(0, -1);
  const m = measure(rest);
  if (m > 1) return rest;
  if (m === 1) {
    const last = rest[rest.length - 1];
    if (!(cvc(rest) && last !== 'w' && last !== 'x' && last !== 'y')) return rest;
  }
  return b;
}

function step5b(b) {
  const n = b.length;
  if (n > 2 && b[n - 2] === 'l' && b[n - 1] === 'l' && measure(b.slice(0, -1)) > 1) return b.slice(0, -1);
  return b;
}

/** Stem returns the term of a folded word: Porter's stem, as bleve's English analyzer makes it (index.Stem). */
export function stem(w) {
  let b = [...w];
  if (b.length <= 2) return w;
  b = step1a(b);
  b = step1b(b);
  b = step1c(b);
  b = replace(b, STEP2);
  b = replace(b, STEP3);
  b = step4(b);
  b = step5a(b);
  b = step5b(b);
  return b.join('');
}

// FILTERS maps a filter's name in a query to the facet it filters (index.filterFacets).
const FILTERS = {
  type: 'type', tag: 'tags', category: 'category', capability: 'capabilities',
  source: 'source', license: 'license', status: 'status', format: 'format', plugin: 'plugin',
};

// nearFilter returns the filter a name that is no filter's ("tags",
// "Types", "categories") most likely means, or '' (index.nearFilter).
function nearFilter(name) {
  if (name === '' || /[^A-Za-z]/.test(name)) return '';
  name = name.toLowerCase();
  if (Object.hasOwn(FILTERS, name)) return '';
  if (name.endsWith('ies') && Object.hasOwn(FILTERS, name.slice(0, -3) + 'y')) return name.slice(0, -3) + 'y';
  let best = '';
  let bestD = 3;
  for (const [f, facet] of Object.entries(FILTERS)) {
    if (name === facet) return f; // the facet's own name: tags, capabilities
  }
  for (const f of Object.keys(FILTERS)) {
    const max = f.length >= 6 ? 2 : 1;
    const d = editDistance([...name], [...f], max);
    if (d <= max && (d < bestD || (d === bestD && f < best))) [best, bestD] = [f, d];
  }
  return best;
}

// SPACE is Go's unicode.IsSpace.
/**
 * mistypedNote says what a word written as a filter of no filter's name
 * is taken for (index.MistypedFilter.Note, word for word).
 */
export function mistypedNote(m) {
  return m.written + ' is no filter, so it is searched as words; did you mean ' + m.meant + '?';
}

/**
 * emptyFilterNote says that no skill has the value of filter clause c
 * (index.EmptyFilterNote, word for word).
 */
export function emptyFilterNote(c) {
  let name = c.facet;
  for (const [n, facet] of Object.entries(FILTERS)) if (facet === c.facet) name = n;
  const value = /[ \t]/.test(c.value) ? JSON.stringify(c.value) : c.value;
  return 'no skill of the catalog has ' + name + ':' + value + ', so nothing matches';
}

const SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;
const LETTER_OR_DIGIT = /[\p{L}\p{Nd}]$/u;

/**
 * parseQuery parses a query (index.ParseQuery): {clauses: [{words, phrase,
 * required, excluded, facet, value}], mistyped: [{written, meant}]}, each
 * word {raw, term, prefix, stop, conversational}; mistyped are the words
 * written as filters of a name near a filter's ("tags:audit", searched as
 * words), with the filter they likely mean. conversational is the set of
 * conversational words (the manifest's model); without it none is.
 */
export function parseQuery(q, conversational) {
  q = q || '';
  const conv = conversational || new Set();
  const clauses = [];
  const mistyped = [];
  const quoted = (i) => {
    const end = q.indexOf('"', i + 1);
    return end < 0 ? [q.slice(i + 1), q.length] : [q.slice(i + 1, end), end + 1];
  };
  let i = 0;
  while (i < q.length) {
    const cp = String.fromCodePoint(q.codePointAt(i));
    if (SPACE.test(cp)) {
      i += cp.length;
      continue;
    }
    const c = {};
    const start = i;
    if ((q[i] === '+' || q[i] === '-') && i + 1 < q.length && !SPACE.test(String.fromCodePoint(q.codePointAt(i + 1))) && q[i + 1] !== '+' && q[i + 1] !== '-') {
      if (q[i] === '+') c.required = true;
      else c.excluded = true;
      i++;
    }
    let text;
    if (q[i] === '"') {
      [text, i] = quoted(i);
      c.phrase = true;
    } else {
      let end = i;
      while (end < q.length) {
        const ch = String.fromCodePoint(q.codePointAt(end));
        if (SPACE.test(ch)) break;
        end += ch.length;
      }
      const tok = q.slice(i, end);
      const colon = tok.indexOf(':');
      const facet = colon >= 0 ? FILTERS[tok.slice(0, colon).toLowerCase()] : undefined;
      if (facet && Object.hasOwn(FILTERS, tok.slice(0, colon).toLowerCase())) {
        let value = tok.slice(colon + 1);
        if (value.startsWith('"')) [value, end] = quoted(i + colon + 1);
        i = end;
        value = value.trim();
        if (value !== '') {
          c.facet = facet;
          c.value = value;
          clauses.push(c);
        }
        continue;
      }
      const meant = colon >= 0 ? nearFilter(tok.slice(0, colon)) : '';
      if (meant) {
        let written = q.slice(start, end);
        if (tok.slice(colon + 1).startsWith('"')) written = q.slice(start, quoted(i + colon + 1)[1]);
        mistyped.push({ written, meant: q.slice(start, i) + meant + written.slice(i - start + colon) });
      }
      text = tok;
      i = end;
    }
    const exact = !!(c.phrase || c.required || c.excluded);
    c.words = [];
    for (const w of words(fold(text))) {
      if ([...w].length > MAX_TOKEN) continue;
      c.words.push({ raw: w, term: stem(w), prefix: false, stop: STOP.has(w), conversational: !exact && conv.has(w) });
    }
    if (c.words.length > 1 && (c.required || c.excluded)) c.phrase = true;
    if (c.words.length > 0) clauses.push(c);
  }
  const folded = fold(q);
  if (LETTER_OR_DIGIT.test(folded) && clauses.length > 0) {
    const c = clauses[clauses.length - 1];
    if (!c.phrase && !c.excluded && !c.facet && c.words.length > 0 && folded.endsWith(c.words[c.words.length - 1].raw)) {
      c.words[c.words.length - 1].prefix = true;
    }
  }
  // Stop words are left out, but as the word being typed when it is the
  // query's only word (index/query.go says why).
  let count = 0;
  for (const c of clauses) if (c.words) count += c.words.length;
  for (const c of clauses) if (c.words) c.words = c.words.filter((w) => !w.stop || (w.prefix && count === 1));
  return { clauses: clauses.filter((c) => c.facet || c.words.length > 0), mistyped };
}

/** editDistance is the optimal string alignment distance, or max+1 past max. */
export function editDistance(a, b, max) {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2 = null;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (prev2 && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length];
}

/** prefixFile names the completions file of a prefix (index.PrefixFile). */
export function prefixFile(p) {
  if (/^[a-z0-9]+$/.test(p)) return 'a' + p + '.json';
  let hex = '';
  for (const byte of new TextEncoder().encode(p)) hex += byte.toString(16).padStart(2, '0');
  return 'x' + hex + '.json';
}

// Word endings whose partial typing should still find the stem: while
// "reviewi" is typed, "reviewing" (stem "review") is meant.
const SUFFIXES = ['s', 'es', 'ed', 'ing'];

// How a key was matched (index.keyKind): which of its term's documents count.
const EXACT = 0;
const COMPLETION = 1;
const NEIGHBOUR = 2;
const RELATED = 3;

/** decode turns [Δdoc, q, ...] into parallel doc and q arrays. */
function decodePostings(list) {
  const n = list.length >> 1;
  const docs = new Int32Array(n);
  const qs = new Uint8Array(n);
  let d = 0;
  for (let i = 0; i < n; i++) {
    d += list[2 * i];
    docs[i] = d;
    qs[i] = list[2 * i + 1];
  }
  return { docs, qs };
}

function decodeDocs(list) {
  const out = new Int32Array(list.length);
  let d = 0;
  for (let i = 0; i < list.length; i++) {
    d += list[i];
    out[i] = d;
  }
  return out;
}

/** top keeps the n highest weights of a list (ties: the first documents), in document order (index.split). */
function top(list, n) {
  if (list.docs.length <= n) return list;
  const idx = Array.from(list.docs, (_, i) => i);
  idx.sort((a, b) => list.qs[b] - list.qs[a] || list.docs[a] - list.docs[b]);
  const keep = idx.slice(0, n).sort((a, b) => a - b);
  return { docs: Int32Array.from(keep, (i) => list.docs[i]), qs: Uint8Array.from(keep, (i) => list.qs[i]) };
}

/** completionFactor is the factor of a term of termLen letters of which typed were typed. */
function completionFactor(model, typed, termLen) {
  return model.completion[0] + model.completion[1] * Math.min(typed / termLen, 1);
}

const len = (s) => [...s].length;

/**
 * Index reads a site's JSON search index through load(path), which
 * returns the parsed JSON of a file under search/ (or null when missing).
 * Every file is loaded at most once.
 */
export class Index {
  constructor(load) {
    this.load = load;
    this.cache = new Map();
    this.manifest = null;
    this.nameOrder = null; // byName's comparison, once order.json is read
  }

  async init() {
    if (!this.manifest) this.manifest = await this.load('manifest.json');
    const m = this.manifest;
    if (!m || m.version !== 3) throw new Error('search index: unknown manifest version (rebuild the site)');
    if (!this.weights) {
      this.weights = new Float64Array(256);
      for (let q = 0; q < 256; q++) this.weights[q] = Math.expm1((q / 255) * m.qmax);
      this.model = m.model;
      this.conversational = new Set(m.model.conversationalWords);
    }
    return m;
  }

  file(path) {
    let p = this.cache.get(path);
    if (!p) {
      p = Promise.resolve(this.load(path, this.manifest && this.manifest.id)).catch(() => null);
      this.cache.set(path, p);
    }
    return p;
  }

  /** shardOf returns the shard that holds key (the last separator <= key). */
  shardOf(key) {
    const seps = this.manifest.shards;
    let lo = 0, hi = seps.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seps[mid] <= key) lo = mid + 1;
      else hi = mid;
    }
    return Math.max(lo - 1, 0);
  }

  /** prefixRange returns the shards that may hold keys starting with p. */
  prefixRange(p) {
    const seps = this.manifest.shards;
    const first = this.shardOf(p);
    let last = first;
    while (last + 1 < seps.length && seps[last + 1].startsWith(p)) last++;
    return [first, last];
  }

  async shard(i) {
    return (await this.file('t/' + i + '.json')) || [];
  }

  /** lookup finds key's entry: {key, df, idf, list, related, shard, index} or null. */
  async lookup(key) {
    const s = this.shardOf(key);
    const entries = await this.shard(s);
    let lo = 0, hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (entries[mid][0] < key) lo = mid + 1;
      else hi = mid;
    }
    if (lo < entries.length && entries[lo][0] === key) return entryOf(entries[lo], s, lo);
    return null;
  }

  /** completions returns entries whose keys start with p, most documents first. */
  async completions(p) {
    const [first, last] = this.prefixRange(p);
    let found = [];
    if (last - first + 1 > this.manifest.span) {
      const list = (await this.file('p/' + prefixFile(p))) || [];
      found = list.map((e) => entryOf(e, -1, -1));
    } else {
      for (let s = first; s <= last; s++) {
        const entries = await this.shard(s);
        entries.forEach((e, i) => {
          if (e[0].startsWith(p)) found.push(entryOf(e, s, i));
        });
      }
    }
    found.sort((a, b) => b.df - a.df || (a.key < b.key ? -1 : 1));
    return found.slice(0, this.model.completions);
  }

  /** neighbours returns the keys of key's shard within max edits, nearest first, then in the most documents. */
  async neighbours(key, max) {
    const k = [...key];
    const s = this.shardOf(key);
    const out = [];
    const entries = await this.shard(s);
    entries.forEach((e, i) => {
      if (e[0] === key) return;
      const d = editDistance(k, [...e[0]], max);
      if (d <= max) out.push({ ...entryOf(e, s, i), distance: d });
    });
    out.sort((a, b) => a.distance - b.distance || b.df - a.df);
    return out.slice(0, this.model.neighbours);
  }

  /**
   * matches returns the keys of a query word (index.matcher.matches), each
   * {entry, factor, kind}: its term; for the word being typed, the stems of
   * its endings, the terms it goes past and its completions; the
   * completions of a word that is no term; spelling neighbours of a word
   * that matches nothing (or only a rare term); the related terms of its
   * term. A phrase's word (exact) matches its term alone.
   */
  async matches(word, exact) {
    const model = this.model;
    const keys = new Map(); // key -> {entry, factor, kind}
    const add = (e, factor, kind) => {
      if (!e) return;
      const had = keys.get(e.key);
      if (!had || had.factor < factor) keys.set(e.key, { entry: e, factor, kind });
    };
    if (!word.stop) add(await this.lookup(word.term), 1, EXACT);
    if (exact) return keys;
    // The word as written, when it is a term, is one of its forms: the
    // stemmer gives "deploy" deploi but "deployment" deploy.
    if (!word.stop && word.raw !== word.term) add(await this.lookup(word.raw), 1, EXACT);
    const hasExact = keys.size > 0;
    const completing = word.prefix || !hasExact;
    const ofTerm = hasExact ? model.completionOfTerm : 1;
    const raw = [...word.raw];
    if (word.prefix) {
      const stems = [];
      for (const sfx of SUFFIXES) {
        for (let k = 1; k < sfx.length; k++) {
          if (word.raw.endsWith(sfx.slice(0, k))) {
            const s = stem(word.raw + sfx.slice(k));
            if (s !== word.term && !stems.includes(s)) stems.push(s);
          }
        }
      }
      for (const s of stems) add(await this.lookup(s), 1, EXACT);
      for (let l = raw.length - 1; l >= Math.max(model.typedTerm, raw.length - model.typedPast); l--) {
        add(await this.lookup(raw.slice(0, l).join('')), completionFactor(model, l, raw.length) * ofTerm, COMPLETION);
      }
    }
    if (completing && raw.length >= (word.prefix ? 1 : model.completeFrom)) {
      const prefixes = [word.raw];
      if (word.term !== word.raw) prefixes.push(word.term);
      for (const p of prefixes) {
        for (const e of await this.completions(p)) {
          if (e.key === word.term) add(e, 1, EXACT);
          else add(e, completionFactor(model, len(p), len(e.key)) * ofTerm, COMPLETION);
        }
      }
    }
    if (word.stop && keys.size === 0) return keys;
    const had = keys.get(word.term);
    const exactEntry = had ? had.entry : null;
    if (keys.size === 0 || (exactEntry && exactEntry.df <= model.fuzzyRare && keys.size === 1)) {
      const n = len(word.term);
      if (n >= model.fuzzyFrom[0]) {
        for (const e of await this.neighbours(word.term, n >= model.fuzzyFrom[1] ? 2 : 1)) {
          if (!exactEntry || e.df > model.fuzzyCommoner * exactEntry.df) add(e, model.fuzzy[e.distance - 1], NEIGHBOUR);
        }
      }
    }
    if (exactEntry) for (const r of exactEntry.related) add(r, model.related * r.similarity, RELATED);
    return keys;
  }

  /** tail loads the postings past the head of an entry, when it has one. */
  async tail(e) {
    if (e.df <= e.list.docs.length || e.shard < 0) return null;
    const list = await this.file('x/' + e.shard + '-' + e.index + '.json');
    return list ? decodePostings(list) : null;
  }

  /**
   * postings returns the lists of a key's documents that count (index.headOf):
   * completions' and neighbours' first completionHead, related terms'
   * first relatedHead (their entries hold no more), a term's head, or
   * with full all its documents. approximate is set when a head stood
   * for more.
   */
  async postings(k, full, approximate) {
    const model = this.model;
    if (k.kind === COMPLETION || k.kind === NEIGHBOUR) return [top(k.entry.list, model.completionHead)];
    if (k.kind === RELATED) return [top(k.entry.list, model.relatedHead)];
    const lists = [k.entry.list];
    if (k.entry.df > k.entry.list.docs.length) {
      const t = full ? await this.tail(k.entry) : null;
      if (t) lists.push(t);
      else approximate.value = true;
    }
    return lists;
  }

  /** facetDocs returns the documents having value number v of facet id. */
  async facetDocs(id, v) {
    const list = await this.file('f/' + id + '/' + v + '.json');
    return list ? decodeDocs(list) : new Int32Array(0);
  }

  /**
   * docs returns every document in name order (order.json); without it,
   * every document with a status (every skill has one), in document
   * order, as byName orders them then (jsonsearch's Docs).
   */
  async docs() {
    const order = await this.file('order.json');
    if (Array.isArray(order)) return order;
    const all = new Set();
    for (const v of await this.facetValues('status')) for (const d of await this.facetDocs('status', v[2])) all.add(d);
    return [...all].sort((a, b) => a - b);
  }

  /**
   * byName returns a comparison of documents by name (index.NameOrder):
   * by their places in order.json, documents it does not list (a damaged
   * or missing file) last, then by number.
   */
  byName() {
    if (!this.nameOrder) {
      this.nameOrder = this.file('order.json').then((order) => {
        const rank = new Map();
        if (Array.isArray(order)) order.forEach((d, i) => rank.has(d) || rank.set(d, i));
        const at = (d) => (rank.has(d) ? rank.get(d) : Infinity);
        return (a, b) => at(a) - at(b) || a - b;
      });
    }
    return this.nameOrder;
  }

  /** valueDocs returns the documents having a facet value, compared case-insensitively. */
  async valueDocs(id, value) {
    const want = value.toLowerCase();
    const v = (await this.facetValues(id)).find((x) => String(x[0]).toLowerCase() === want);
    return v ? this.facetDocs(id, v[2]) : new Int32Array(0);
  }

  /**
   * search ranks the documents matching query (index.rank). opts: filters
   * (array of [facet id, [value numbers]]: a document must have one of
   * the values of every facet), sort ("relevance" or "name"), full (count
   * every document of a term, not only the head; implied by filters,
   * required and excluded words, phrases and sorting by name). Returns
   * {hits: [{doc, score}], total, approximate, terms, termsOf, words,
   * mistyped, emptyFilters} (terms: every term the words matched;
   * termsOf(doc): those doc counted, which its highlights mark;
   * mistyped: parseQuery's; emptyFilters: the query's filter clauses
   * whose value no document has).
   */
  async search(query, opts = {}) {
    const m = await this.init();
    const model = this.model;
    const pq = parseQuery(query, this.conversational);
    const filters = (opts.filters || []).filter(([, vs]) => vs && vs.length);
    let full = !!opts.full || filters.length > 0 || opts.sort === 'name';
    for (const c of pq.clauses) if (c.facet || c.required || c.excluded || c.phrase) full = true;

    let allowed = null;
    const restrict = (set) => {
      if (!allowed) allowed = set;
      else for (const d of allowed) if (!set.has(d)) allowed.delete(d);
    };
    const excluded = new Set();
    for (const [id, values] of filters) {
      const set = new Set();
      for (const v of values) for (const d of await this.facetDocs(id, v)) set.add(d);
      restrict(set);
    }
    const emptyFilters = []; // index.Ranking.EmptyFilters
    for (const c of pq.clauses) {
      if (!c.facet) continue;
      const set = new Set(await this.valueDocs(c.facet, c.value));
      if (c.excluded) for (const d of set) excluded.add(d);
      else {
        if (set.size === 0) emptyFilters.push(c);
        restrict(set);
      }
    }
    const approximate = { value: false };
    const docsOf = async (keys, accept) => {
      const set = new Set();
      for (const k of keys.values()) {
        if (!accept(k.kind)) continue;
        for (const { docs } of await this.postings(k, full, approximate)) for (const d of docs) set.add(d);
      }
      return set;
    };
    const ws = [];
    const allKeys = [];
    for (const c of pq.clauses) {
      if (c.facet) continue;
      if (c.excluded) {
        let all = null;
        for (const w of c.words) {
          const set = await docsOf(await this.matches(w, true), () => true);
          if (!all) all = set;
          else for (const d of all) if (!set.has(d)) all.delete(d);
        }
        for (const d of all || []) excluded.add(d);
        continue;
      }
      for (const w of c.words) {
        const keys = await this.matches(w, !!c.phrase);
        if (c.required || c.phrase) restrict(await docsOf(keys, (k) => k !== RELATED));
        ws.push(w);
        allKeys.push(keys);
      }
    }
    const ok = (d) => !excluded.has(d) && (!allowed || allowed.has(d));

    const scores = new Map(); // doc -> [sum, words matched]
    const terms = [];
    const counted = []; // per content word: doc -> the term it counted with
    let contentWords = 0;
    for (let wi = 0; wi < ws.length; wi++) {
      const keys = allKeys[wi];
      if (ws[wi].stop && keys.size === 0) continue;
      const conv = ws[wi].conversational ? model.conversational : 1;
      if (!ws[wi].conversational) contentWords++;
      const best = new Map();
      const bestTerm = new Map();
      const own = new Set(); // matched by a key other than a related term
      for (const k of keys.values()) {
        terms.push(k.entry.key);
        const w = k.entry.idf * (k.factor * conv);
        for (const { docs, qs } of await this.postings(k, full, approximate)) {
          for (let i = 0; i < docs.length; i++) {
            const d = docs[i];
            if (!ok(d)) continue;
            const s = w * this.weights[qs[i]];
            const had = best.get(d);
            if (had === undefined || had < s) {
              best.set(d, s);
              bestTerm.set(d, k.entry.key);
            }
            if (k.kind !== RELATED) own.add(d);
          }
        }
      }
      if (!ws[wi].conversational) counted.push(bestTerm);
      for (const [d, s] of best) {
        const cur = scores.get(d);
        const k = !ws[wi].conversational && own.has(d) ? 1 : 0;
        if (cur) {
          cur[0] += s;
          cur[1] += k;
        } else scores.set(d, [s, k]);
      }
    }

    let hits;
    if (ws.length === 0 && !allowed && pq.clauses.some((c) => c.excluded)) {
      // Exclusions alone ("-tag:audit"): every other document.
      allowed = new Set(await this.docs());
    }
    if (ws.length === 0) {
      hits = allowed ? [...allowed].filter(ok).map((doc) => ({ doc, score: 0 })) : [];
    } else {
      const n = Math.max(contentWords, 1);
      hits = [];
      for (const [doc, [sum, k]] of scores) hits.push({ doc, score: (sum * k) / n });
    }
    if (opts.sort === 'name' || ws.length === 0) {
      if (hits.length > 1) {
        const byName = await this.byName();
        hits.sort((a, b) => byName(a.doc, b.doc));
      }
    } else hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
    // termsOf(doc): the terms doc counted for the content words, as
    // index.Ranking.CountedTerms: what its highlights mark.
    const termsOf = (doc) => [...new Set(counted.map((m) => m.get(doc)).filter((t) => t !== undefined))];
    return { hits, total: hits.length, approximate: approximate.value, terms: [...new Set(terms)], termsOf, words: ws, mistyped: pq.mistyped, emptyFilters };
  }

  /** cards returns the result cards of docs, in order. */
  async cards(docs) {
    const m = await this.init();
    const files = await Promise.all(docs.map((d) => this.file('c/' + Math.floor(d / m.cards) + '.json')));
    return docs.map((d, i) => {
      const c = (files[i] || [])[d % m.cards];
      if (!c) return null;
      const [name, description, format, status, type, tags, plugins] = c;
      return { doc: d, name, description, format, status, type, tags, plugins: plugins || [], page: m.page.replace('{name}', encodeURIComponent(name)) };
    });
  }

  /** facetValues returns every value of a facet: [[name, count, number], ...]. */
  async facetValues(id) {
    const m = await this.init();
    const f = m.facets.find((x) => x.id === id);
    if (!f) return [];
    if (!f.all) return f.values;
    return (await this.file('f/' + id + '.json')) || f.values;
  }
}

/** entryOf reads an entry [term, df, idf, head, related?]; related entries are [term, similarity, idf, head]. */
function entryOf(e, shard, index) {
  const related = (e[4] || []).map((r) => ({ key: r[0], similarity: r[1], idf: r[2], df: 0, list: decodePostings(r[3]), related: [], shard: -1, index: -1 }));
  return { key: e[0], df: e[1], idf: e[2], list: decodePostings(e[3]), related, shard, index };
}

/**
 * highlight splits text into [text, marked] runs: the words whose term is
 * one of terms (a result's termsOf, which holds the completion or the
 * stem the word being typed counted with, so that no word is marked for
 * a result that did not count it).
 */
export function highlight(text, terms) {
  const set = new Set(terms);
  const out = [];
  let last = 0;
  const re = /[\p{L}\p{N}]+/gu;
  for (const m of String(text).matchAll(re)) {
    const f = fold(m[0]);
    if (!set.has(stem(f)) && !set.has(f)) continue;
    if (m.index > last) out.push([text.slice(last, m.index), false]);
    out.push([m[0], true]);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push([text.slice(last), false]);
  return out;
}

/**
 * codeParts splits text into [text, isCode] parts as CommonMark reads code
 * spans: a run of backticks opens a span that the next run of as many
 * closes, one space is stripped from each end of a span holding spaces at
 * both, and a run without its match, or a span of ASCII blanks alone, is
 * text. build/site's codeSpanParts must split alike (the pages show the
 * same descriptions).
 */
export function codeParts(text) {
  const out = [];
  const s = String(text);
  const run = (i) => {
    let n = 0;
    while (s[i + n] === '`') n++;
    return n;
  };
  let from = 0;
  for (let i = 0; i < s.length; ) {
    if (s[i] !== '`') {
      i++;
      continue;
    }
    const n = run(i);
    let end = -1;
    for (let j = i + n; j < s.length; ) {
      const k = s.indexOf('`', j);
      if (k < 0) break;
      const m = run(k);
      if (m === n) {
        end = k;
        break;
      }
      j = k + m;
    }
    if (end < 0) {
      i += n;
      continue;
    }
    let code = s.slice(i + n, end);
    if (/^[ \t\n\r\f]*$/.test(code)) {
      i = end + n;
      continue;
    }
    if (code.length >= 2 && code[0] === ' ' && code[code.length - 1] === ' ') code = code.slice(1, -1);
    if (i > from) out.push([s.slice(from, i), false]);
    out.push([code, true]);
    i = end + n;
    from = i;
  }
  if (from < s.length) out.push([s.slice(from), false]);
  return out;
}

// Command line: node search-core.js SITE_DIR QUERY [LIMIT]
// With QUERY "-", queries are read from standard input, one a line, and
// each answered on its own line from a fresh (cold) index, with the time
// it took in milliseconds ("ms", reading files included).
async function main(argv) {
  const fs = await import('node:fs/promises');
  const path = await import('node:path');
  const zlib = await import('node:zlib');
  const [site, query, limitArg] = argv;
  if (!site || query === undefined) {
    process.stderr.write('usage: node search-core.js SITE_DIR QUERY|- [LIMIT]\n');
    process.exit(2);
  }
  const limit = Number(limitArg || 10);
  const gz = new Map();
  const run = async (q) => {
    let bytes = 0;
    let requests = 0;
    const index = new Index(async (p) => {
      requests++;
      let data;
      try {
        data = await fs.readFile(path.join(site, 'search', p));
      } catch {
        return null;
      }
      if (!gz.has(p)) gz.set(p, zlib.gzipSync(data, { level: 6 }).length);
      bytes += gz.get(p);
      return JSON.parse(data.toString('utf8'));
    });
    const start = performance.now();
    const res = await index.search(q);
    const cards = await index.cards(res.hits.slice(0, limit).map((h) => h.doc));
    const ms = performance.now() - start;
    const out = { names: cards.map((c) => c && c.name), terms: res.hits.slice(0, limit).map((h) => res.termsOf(h.doc)), bytes, requests };
    const notes = [...res.mistyped.map(mistypedNote), ...res.emptyFilters.map(emptyFilterNote)];
    if (notes.length) out.notes = notes;
    if (query === '-') out.ms = Math.round(ms * 1000) / 1000;
    return out;
  };
  if (query !== '-') {
    process.stdout.write(JSON.stringify(await run(query)) + '\n');
    return;
  }
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  for (const line of input.split('\n')) {
    if (line.trim() === '') continue;
    process.stdout.write(JSON.stringify(await run(line)) + '\n');
  }
}

const isMain =
  typeof process !== 'undefined' && process.argv && process.argv[1] && import.meta.url === (await import('node:url')).pathToFileURL(process.argv[1]).href;
if (isMain) await main(process.argv.slice(2));
