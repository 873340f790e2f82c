// skilldex search core: ranks skills from the sharded JSON index that
// `skilldex build` writes under search/ (see index/jsonindex.go for the
// files). It touches no DOM, so that the page (static/search.js), tests and
// benchmarks share it; under Node it is also a command:
//
//   node static/search-core.js SITE_DIR QUERY
//
// prints {"names": [...], "bytes": N, "requests": N}: the ranked names of
// the first results and what answering the query downloaded (gzip sizes,
// as a static host serves them).
//
// Tokens and stemming must stay identical to index/analyze.go, which the
// Go tests check on every word of the shared corpus. The ranking (parseQuery,
// Index.matches, Index.search) is ported line for line to Go in
// index/jsonsearch/search.go, which the MCP server uses: change both, and
// its TestRankingMatchesCore compares them on the judged queries.

const STOP = new Set(
  ('a an and are as at be but by for from has have how i if in into is it its of on or s t that the their ' +
    'then there these this to was were what when where which who will with you your').split(' '),
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
  if (n < 3 || !isConsonant(b, n - 3) || isConsonant(b, n - 2) || !isConsonant(b, n - 1)) return false;
  const c = b[n - 1];
  return c !== 'w' && c !== 'x' && c !== 'y';
}

/** Stem: Porter steps 1a, 1b and 1c on ASCII words longer than 3 (index.Stem). */
export function stem(w) {
  if (w.length <= 3 || !/^[a-z]+$/.test(w)) return w;
  let b = w;
  if (b.endsWith('sses')) b = b.slice(0, -2);
  else if (b.endsWith('ies')) b = b.slice(0, -2);
  else if (b.endsWith('ss')) { /* keep */ }
  else if (b.endsWith('s')) b = b.slice(0, -1);
  let again = false;
  if (b.endsWith('eed')) {
    if (measure(b.slice(0, -3)) > 0) b = b.slice(0, -1);
  } else if (b.endsWith('ed') && hasVowel(b.slice(0, -2))) {
    b = b.slice(0, -2);
    again = true;
  } else if (b.endsWith('ing') && hasVowel(b.slice(0, -3))) {
    b = b.slice(0, -3);
    again = true;
  }
  if (again) {
    if (b.endsWith('at') || b.endsWith('bl') || b.endsWith('iz')) b += 'e';
    else if (doubleConsonant(b) && !b.endsWith('l') && !b.endsWith('s') && !b.endsWith('z')) b = b.slice(0, -1);
    else if (measure(b) === 1 && cvc(b)) b += 'e';
  }
  if (b.endsWith('y') && hasVowel(b.slice(0, -1))) b = b.slice(0, -1) + 'i';
  return b;
}

/**
 * parseQuery splits a query into the words to match. The last word is a
 * prefix (the user is still typing it) unless the query ends with a space
 * or punctuation. Stop words are dropped, except as a prefix.
 */
export function parseQuery(q) {
  const folded = fold(q || '');
  const all = words(folded);
  const typing = all.length > 0 && /[\p{L}\p{Nd}]$/u.test(folded);
  const out = [];
  all.forEach((w, i) => {
    if ([...w].length > MAX_TOKEN) return;
    const prefix = typing && i === all.length - 1;
    if (STOP.has(w) && !prefix) return;
    out.push({ raw: w, stem: stem(w), prefix, stop: STOP.has(w) });
  });
  return out;
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

// Score factors of the ways a key can match a word.
const EXACT = 1;
const FUZZY = [0, 0.6, 0.4]; // by edit distance
const MAX_COMPLETIONS = 24;
const MAX_FUZZY = 3;

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
  }

  async init() {
    if (!this.manifest) this.manifest = await this.load('manifest.json');
    const m = this.manifest;
    if (!m || m.version !== 1) throw new Error('search index: unknown manifest version');
    this.weights = new Float64Array(256);
    for (let q = 0; q < 256; q++) this.weights[q] = Math.expm1((q / 255) * m.qmax);
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

  /** lookup finds key's entry: {key, df, idf, list, shard, index} or null. */
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
    return found.slice(0, MAX_COMPLETIONS);
  }

  /** neighbours returns keys of key's shard within edit distance, most documents first. */
  async neighbours(key) {
    const len = [...key].length;
    if (len < 4) return [];
    const max = len >= 8 ? 2 : 1;
    const s = this.shardOf(key);
    const out = [];
    const entries = await this.shard(s);
    entries.forEach((e, i) => {
      if (e[0] === key) return;
      const d = editDistance(key, e[0], max);
      if (d <= max) out.push({ ...entryOf(e, s, i), distance: d });
    });
    out.sort((a, b) => a.distance - b.distance || b.df - a.df);
    return out.slice(0, MAX_FUZZY);
  }

  /** matches returns the keys a query word matches, each with its factor. */
  async matches(word) {
    const keys = new Map(); // key -> {entry, factor}
    const add = (e, factor) => {
      if (!e) return;
      const had = keys.get(e.key);
      if (!had || had.factor < factor) keys.set(e.key, { entry: e, factor });
    };
    if (!word.stop) add(await this.lookup(word.stem), EXACT);
    // A word that is not a term of the index may be the start of one
    // ("postgres" of postgresql), as the word being typed always may.
    const completing = word.prefix || keys.size === 0;
    if (word.prefix) {
      const stems = new Set();
      for (const sfx of SUFFIXES) {
        for (let k = 1; k < sfx.length; k++) {
          if (word.raw.endsWith(sfx.slice(0, k))) stems.add(stem(word.raw + sfx.slice(k)));
        }
      }
      stems.delete(word.stem);
      for (const s of stems) add(await this.lookup(s), EXACT);
    }
    if (completing && [...word.raw].length >= (word.prefix ? 1 : 3)) {
      const prefixes = new Set([word.raw, word.stem]);
      for (const p of prefixes) {
        for (const e of await this.completions(p)) {
          const ratio = [...p].length / [...e.key].length;
          add(e, e.key === word.stem ? EXACT : 0.5 + 0.45 * Math.min(ratio, 1));
        }
      }
    }
    if (word.stop && keys.size === 0) return keys;
    const exact = keys.get(word.stem);
    if (keys.size === 0 || (exact && exact.entry.df <= 2 && keys.size === 1)) {
      for (const e of await this.neighbours(word.stem)) {
        if (!exact || e.df > 4 * exact.entry.df) add(e, FUZZY[e.distance]);
      }
    }
    return keys;
  }

  /** tail loads the postings past the head of an entry, when it has one. */
  async tail(e) {
    if (e.df <= e.list.docs.length || e.shard < 0) return null;
    const list = await this.file('x/' + e.shard + '-' + e.index + '.json');
    return list ? decodePostings(list) : null;
  }

  /** facetDocs returns the documents having value number v of facet id. */
  async facetDocs(id, v) {
    const list = await this.file('f/' + id + '/' + v + '.json');
    return list ? decodeDocs(list) : new Int32Array(0);
  }

  /**
   * search ranks the documents matching query. opts: filters (array of
   * [facet id, [value numbers]]: a document must have one of the values of
   * every facet), sort ("relevance" or "name"), full (load every posting,
   * not only the heads; implied by filters and by sorting by name).
   * Returns {hits: [{doc, score}], total, approximate, terms, words}.
   */
  async search(query, opts = {}) {
    const m = await this.init();
    const ws = parseQuery(query);
    const filters = (opts.filters || []).filter(([, vs]) => vs && vs.length);
    const full = !!opts.full || filters.length > 0 || opts.sort === 'name';

    let allowed = null;
    for (const [id, values] of filters) {
      const set = new Set();
      for (const v of values) for (const d of await this.facetDocs(id, v)) set.add(d);
      allowed = allowed ? new Set([...allowed].filter((d) => set.has(d))) : set;
    }

    const scores = new Map(); // doc -> [sum, words matched]
    const terms = [];
    let approximate = false;
    const perWord = await Promise.all(ws.map((w) => this.matches(w)));
    let counted = 0;
    for (let wi = 0; wi < ws.length; wi++) {
      const keys = perWord[wi];
      if (ws[wi].stop && keys.size === 0) continue;
      counted++;
      const best = new Map();
      for (const { entry, factor } of keys.values()) {
        terms.push(entry.key);
        const lists = [entry.list];
        if (entry.df > entry.list.docs.length) {
          const t = full ? await this.tail(entry) : null;
          if (t) lists.push(t);
          else approximate = true;
        }
        const w = entry.idf * factor;
        for (const { docs, qs } of lists) {
          for (let i = 0; i < docs.length; i++) {
            const d = docs[i];
            if (allowed && !allowed.has(d)) continue;
            const s = w * this.weights[qs[i]];
            const had = best.get(d);
            if (had === undefined || had < s) best.set(d, s);
          }
        }
      }
      for (const [d, s] of best) {
        const cur = scores.get(d);
        if (cur) {
          cur[0] += s;
          cur[1]++;
        } else scores.set(d, [s, 1]);
      }
    }

    let hits;
    if (ws.length === 0 && allowed) {
      hits = [...allowed].map((doc) => ({ doc, score: 0 }));
    } else {
      const n = Math.max(counted, 1);
      hits = [];
      for (const [doc, [sum, k]] of scores) hits.push({ doc, score: (sum * k) / n });
    }
    if (opts.sort === 'name') hits.sort((a, b) => a.doc - b.doc);
    else hits.sort((a, b) => b.score - a.score || a.doc - b.doc);
    return { hits, total: hits.length, approximate, terms: [...new Set(terms)], words: ws };
  }

  /** cards returns the result cards of docs, in order. */
  async cards(docs) {
    const m = await this.init();
    const files = await Promise.all(docs.map((d) => this.file('c/' + Math.floor(d / m.cards) + '.json')));
    return docs.map((d, i) => {
      const c = (files[i] || [])[d % m.cards];
      if (!c) return null;
      const [name, description, format, status, type, tags] = c;
      return { doc: d, name, description, format, status, type, tags, page: m.page.replace('{name}', encodeURIComponent(name)) };
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

function entryOf(e, shard, index) {
  return { key: e[0], df: e[1], idf: e[2], list: decodePostings(e[3]), shard, index };
}

/** highlight splits text into [text, marked] runs: words matching terms or the prefix being typed. */
export function highlight(text, terms, words) {
  const set = new Set(terms);
  const prefixes = words.filter((w) => w.prefix).map((w) => w.raw);
  const out = [];
  let last = 0;
  const re = /[\p{L}\p{N}]+/gu;
  for (const m of String(text).matchAll(re)) {
    const f = fold(m[0]);
    const hit = set.has(stem(f)) || prefixes.some((p) => f.startsWith(p));
    if (!hit) continue;
    if (m.index > last) out.push([text.slice(last, m.index), false]);
    out.push([m[0], true]);
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push([text.slice(last), false]);
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
    const out = { names: cards.map((c) => c && c.name), bytes, requests };
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
