// skilldex theme and small page helpers. Loaded in <head> so that a saved
// theme applies before the first paint; the page works without it.
(function () {
  'use strict';
  var KEY = 'skilldex-theme';
  var root = document.documentElement;
  var saved = null;
  try { saved = localStorage.getItem(KEY); } catch (e) { /* storage blocked */ }
  if (saved === 'light' || saved === 'dark') root.dataset.theme = saved;

  function current() {
    if (root.dataset.theme) return root.dataset.theme;
    return window.matchMedia && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }

  function wireTheme() {
    var btn = document.getElementById('sd-theme');
    if (!btn) return;
    btn.hidden = false;
    var text = btn.querySelector('.sd-theme-label') || btn;
    var label = function () {
      var dark = current() === 'dark';
      btn.setAttribute('aria-pressed', dark ? 'true' : 'false');
      text.textContent = dark ? 'Light mode' : 'Dark mode';
    };
    label();
    btn.addEventListener('click', function () {
      var next = current() === 'dark' ? 'light' : 'dark';
      root.dataset.theme = next;
      try { localStorage.setItem(KEY, next); } catch (e) { /* storage blocked */ }
      label();
    });
  }

  // Buttons with data-copy="ID" copy the text of element ID.
  function wireCopy() {
    each(document.querySelectorAll('button[data-copy]'), function (btn) {
      var target = document.getElementById(btn.getAttribute('data-copy'));
      if (!target || !navigator.clipboard) return;
      btn.hidden = false;
      btn.addEventListener('click', function () {
        navigator.clipboard.writeText(target.textContent).then(function () {
          btn.textContent = 'Copied';
          setTimeout(function () { btn.textContent = 'Copy'; }, 1500);
        }, function () {
          btn.textContent = 'Copy failed';
        });
      });
    });
  }

  // "/" focuses the header's search box on pages without their own search.
  function wireSlash() {
    if (document.getElementById('search-app')) return; // search.js handles it
    var box = document.getElementById('sd-q');
    if (!box) return;
    document.addEventListener('keydown', function (e) {
      if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return;
      var t = e.target;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      if (!box.offsetParent) return; // a narrow screen shows a link instead
      e.preventDefault();
      box.focus();
    });
  }

  // The menu of a narrow screen (a details element, which works without
  // this) also closes on Escape, back to its button, and on a click
  // elsewhere, as people expect of a menu.
  function wireMenu() {
    var menu = document.querySelector('.sd-menu');
    if (!menu) return;
    var summary = menu.querySelector('summary');
    document.addEventListener('keydown', function (e) {
      if (e.key !== 'Escape' || !menu.open || !summary.offsetParent) return;
      menu.open = false;
      summary.focus();
    });
    document.addEventListener('click', function (e) {
      if (menu.open && summary.offsetParent && !menu.contains(e.target)) menu.open = false;
    });
  }

  // A site built without an absolute base URL cannot know the address it
  // is read at: each element with data-shell-url gets the absolute URL of
  // its link, as a shell word, and the commands that hold them
  // (data-needs-site) take the place of the prose that stands in for them
  // without JavaScript (data-without-site).
  function wireSiteURL() {
    if (!/^https?:$/.test(location.protocol)) return;
    var words = document.querySelectorAll('[data-shell-url]');
    if (!words.length) return;
    each(words, function (el) {
      el.textContent = shellWord(new URL(el.getAttribute('data-shell-url'), location.href).href);
    });
    each(document.querySelectorAll('[data-needs-site]'), function (el) { el.hidden = false; });
    each(document.querySelectorAll('[data-without-site]'), function (el) { el.hidden = true; });
  }

  // shellWord quotes s for a POSIX shell as build/site's shellWord does.
  function shellWord(s) {
    return /^[A-Za-z0-9_.~:\/%@+=,-]+$/.test(s) ? s : "'" + s.replace(/'/g, "'\\''") + "'";
  }

  // Filters (details elements with data-fold-narrow, open in the page)
  // start folded on a narrow screen, where they would stand between the
  // reader and the skills; without JavaScript they stay open.
  function foldNarrow() {
    if (!window.matchMedia || !matchMedia('(max-width: 47.99rem)').matches) return;
    each(document.querySelectorAll('details[data-fold-narrow]'), function (d) { d.open = false; });
  }

  function each(list, fn) { Array.prototype.forEach.call(list, fn); }

  function ready() { wireSiteURL(); wireTheme(); wireCopy(); wireSlash(); wireMenu(); foldNarrow(); }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', ready);
  else ready();
})();
