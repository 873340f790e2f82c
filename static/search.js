// skilldex search page: search as you type over the site's JSON index
// (ranking in search-core.js), facet filters, sort, highlighted matches,
// keyboard navigation, and the query and filters in the URL.
//
// It runs on search/index.html, which the pages writer makes (see the
// DOM contract in DESIGN.md); without JavaScript that page's form lands on
// the full catalog. Nothing here parses HTML: every node is built with DOM
// calls and every text set with textContent.

import { Index, codeParts, emptyFilterNote, highlight, mistypedNote } from './search-core.js';

const PAGE = 20; // results shown at first, and added by "Show more"
const FACET_VALUES = 8; // values shown per facet before "Show all"

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...children) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') n.className = v;
    else n.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children) if (c !== null && c !== undefined) n.append(c);
  return n;
}

/** marked returns text with its code spans as <code> and the terms doc counted as <mark> elements. */
function marked(text, res, doc) {
  const frag = document.createDocumentFragment();
  const terms = res.termsOf(doc);
  for (const [part, code] of codeParts(text || '')) {
    const into = code ? el('code') : frag;
    for (const [s, hit] of highlight(part, terms)) {
      into.append(hit ? el('mark', null, s) : document.createTextNode(s));
    }
    if (code) frag.append(into);
  }
  return frag;
}

function start() {
  const app = $('search-app');
  const input = $('search-q');
  const form = $('search-form');
  const list = $('search-results');
  const status = $('search-status');
  const facetsBox = $('search-facets');
  const sortSel = $('search-sort');
  if (!app || !input || !list) return;

  const base = document.documentElement.dataset.base || '/';
  const indexURL = app.dataset.index || base + 'search/';
  const index = new Index(async (path, id) => {
    const url = indexURL + path + (id ? '?v=' + encodeURIComponent(id) : '');
    const r = await fetch(url, path === 'manifest.json' ? { cache: 'no-cache' } : undefined);
    if (!r.ok) return null;
    return r.json();
  });

  // state: the query, the sort, and the selected facet values by facet id.
  const state = { q: '', sort: 'relevance', filters: new Map() };
  let shown = 0;
  let current = null; // last search result
  let seq = 0; // answers to older keystrokes are dropped

  // The results are a list of links, as a page of links would be: the
  // arrow keys move the focus from the search box down the links and
  // back, and Enter follows the focused link as it does anywhere. (A
  // combobox's listbox may not hold links, and its options would be
  // links' lookalikes without their menu and middle click.)
  list.setAttribute('aria-label', 'Search results');
  const more = el('button', { type: 'button', class: 'search-more', hidden: true }, 'Show more');
  list.after(more);

  function readURL() {
    const p = new URLSearchParams(location.search);
    state.q = p.get('q') || '';
    state.sort = p.get('sort') === 'name' ? 'name' : 'relevance';
    state.filters = new Map();
    for (const f of (index.manifest && index.manifest.facets) || []) {
      const vs = p.getAll(f.id).filter(Boolean);
      if (vs.length) state.filters.set(f.id, new Set(vs));
    }
    input.value = state.q;
    if (sortSel) sortSel.value = state.sort;
  }

  function writeURL(push) {
    const p = new URLSearchParams();
    if (state.q) p.set('q', state.q);
    if (state.sort !== 'relevance') p.set('sort', state.sort);
    for (const [id, vs] of state.filters) for (const v of [...vs].sort()) p.append(id, v);
    const qs = p.toString();
    const url = location.pathname + (qs ? '?' + qs : '') + location.hash;
    if (url === location.pathname + location.search + location.hash) return;
    if (push) history.pushState(null, '', url);
    else history.replaceState(null, '', url);
  }

  // filterNumbers maps the selected value names to the index's numbers.
  async function filterNumbers() {
    const out = [];
    for (const [id, names] of state.filters) {
      const values = await index.facetValues(id);
      const nums = values.filter((v) => names.has(v[0])).map((v) => v[2]);
      out.push([id, nums.length ? nums : [-1]]);
    }
    return out;
  }

  async function run() {
    const my = ++seq;
    const filters = await filterNumbers();
    const res = await index.search(state.q, { sort: state.sort, filters });
    if (my !== seq) return;
    current = res;
    shown = 0;
    list.replaceChildren();
    if (!state.q.trim() && filters.length === 0) {
      status.textContent = 'Type to search ' + index.manifest.count + ' skills.';
      more.hidden = true;
      return;
    }
    const n = res.total;
    const notes = [n === 0 ? 'No skill matches.' : (res.approximate ? 'About ' : '') + n + (n === 1 ? ' skill matches.' : ' skills match.')];
    if (n === 0 && filters.length > 0) notes.push('The ticked filters leave some skills out: untick them to search every skill.');
    // As skilldex search notes them.
    for (const m of res.mistyped || []) notes.push(mistypedNote(m));
    for (const c of res.emptyFilters || []) {
      const note = emptyFilterNote(c);
      notes.push(note[0].toUpperCase() + note.slice(1) + '.');
    }
    status.textContent = notes.join(' ');
    await showMore(my);
  }

  async function showMore(my) {
    const res = current;
    const docs = res.hits.slice(shown, shown + PAGE).map((h) => h.doc);
    const cards = await index.cards(docs);
    if (my !== seq) return;
    for (const [j, c] of cards.entries()) {
      if (!c) continue;
      const doc = docs[j];
      const i = shown++;
      const href = base + c.page;
      const labels = el('span', { class: 'search-labels' });
      for (const l of [c.type, valueLabel('format', c.format), c.status]) if (l) labels.append(el('span', { class: 'search-label' }, l));
      for (const p of c.plugins) labels.append(el('span', { class: 'search-label' }, 'plugin: ' + p));
      const tags = el('span', { class: 'search-tags' });
      for (const t of c.tags || []) tags.append(el('span', { class: 'search-tag' }, t));
      const li = el(
        'li',
        { id: 'search-result-' + i, class: 'search-result' },
        el('a', { href }, el('span', { class: 'search-name' }, marked(c.name, res, doc))),
        el('p', { class: 'search-description' }, marked(c.description, res, doc)),
        labels,
        tags,
      );
      list.append(li);
    }
    more.hidden = shown >= res.hits.length;
  }

  // focusResult focuses the link of result i, or the search box when i is
  // before the first.
  function focusResult(i) {
    const links = list.querySelectorAll('.search-result > a');
    if (i < 0) input.focus();
    else if (links.length) links[Math.min(i, links.length - 1)].focus();
  }

  list.addEventListener('keydown', (e) => {
    const links = [...list.querySelectorAll('.search-result > a')];
    const i = links.indexOf(document.activeElement);
    if (i < 0) return;
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      focusResult(i + 1);
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      focusResult(i - 1);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      focusResult(-1);
    }
  });

  // valueLabel is how the value of facet id is shown: the manifest's label for
  // it (the format skill-md is SKILL.md), else the value itself.
  function valueLabel(id, value) {
    const f = (index.manifest.facets || []).find((f) => f.id === id);
    return (f && f.labels && f.labels[value]) || value;
  }

  async function renderFacets() {
    if (!facetsBox) return;
    facetsBox.replaceChildren();
    for (const f of index.manifest.facets) {
      const box = el('fieldset', { class: 'search-facet' }, el('legend', null, f.label));
      const ul = el('ul', { role: 'list' });
      const selected = state.filters.get(f.id) || new Set();
      const add = (values, all) => {
        ul.replaceChildren();
        values.forEach(([name, count], k) => {
          const on = selected.has(name);
          if (!all && k >= FACET_VALUES && !on) return;
          const cb = el('input', { type: 'checkbox', name: f.id, value: name, checked: on });
          cb.addEventListener('change', () => toggle(f.id, name, cb.checked));
          ul.append(el('li', null, el('label', null, cb, ' ' + valueLabel(f.id, name) + ' ', el('span', { class: 'search-count' }, '(' + count + ')'))));
        });
      };
      add(f.values, false);
      box.append(ul);
      if (f.values.length > FACET_VALUES || f.all) {
        const btn = el('button', { type: 'button', class: 'search-facet-all' }, 'Show all');
        btn.addEventListener('click', async () => {
          add(await index.facetValues(f.id), true);
          btn.remove();
        });
        box.append(btn);
      }
      facetsBox.append(box);
    }
  }

  function toggle(id, name, on) {
    const set = state.filters.get(id) || new Set();
    if (on) set.add(name);
    else set.delete(name);
    if (set.size) state.filters.set(id, set);
    else state.filters.delete(id);
    writeURL(true);
    run();
  }

  input.addEventListener('input', () => {
    state.q = input.value;
    writeURL(false);
    run();
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'ArrowDown' && list.querySelector('.search-result > a')) {
      e.preventDefault();
      focusResult(0);
    } else if (e.key === 'Escape') {
      input.value = '';
      state.q = '';
      writeURL(false);
      run();
    }
  });
  if (form) {
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      state.q = input.value;
      writeURL(true);
      run();
    });
  }
  if (sortSel) {
    sortSel.addEventListener('change', () => {
      state.sort = sortSel.value === 'name' ? 'name' : 'relevance';
      writeURL(true);
      run();
    });
  }
  // The focus goes to the first result shown, which the button was above:
  // a keyboard or screen reader stays where the reading goes on.
  more.addEventListener('click', async () => {
    const first = shown;
    await showMore(seq);
    if (shown > first) focusResult(first);
  });
  document.addEventListener('keydown', (e) => {
    if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    e.preventDefault();
    input.focus();
    input.select();
  });
  window.addEventListener('popstate', async () => {
    readURL();
    await renderFacets();
    run();
  });

  index
    .init()
    .then(async () => {
      readURL();
      await renderFacets();
      await run();
    })
    .catch(() => {
      status.textContent = 'Search is unavailable: the index could not be loaded.';
    });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
