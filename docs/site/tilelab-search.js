/* Full-text search of the TileLab site, offline: Doxygen's search box finds names and page titles; pressing
 * Enter in it opens fulltext_search.html?q=..., which searches the text of every page
 * (tilelab-search-index.js, written at docs build time by docs/site/fulltext_index.cmake). */
(function () {
  'use strict';

  /** The lower-case words of a query. */
  function words(query) {
    return query.toLowerCase().split(/\s+/).filter(function (word) { return word.length > 0; });
  }

  /** Pages that contain every word, most occurrences first, each with an excerpt around its first hit. */
  function search(index, query) {
    var wanted = words(query);
    if (wanted.length === 0) return [];
    var hits = [];
    index.forEach(function (page) {
      var text = page.text.toLowerCase();
      var title = page.title.toLowerCase();
      var score = 0;
      for (var i = 0; i < wanted.length; ++i) {
        var count = text.split(wanted[i]).length - 1 + 10 * (title.split(wanted[i]).length - 1);
        if (count === 0) return;
        score += count;
      }
      var at = text.indexOf(wanted[0]);
      var start = Math.max(0, at - 80);
      var excerpt = (start > 0 ? '… ' : '') + page.text.substr(start, 220) + ' …';
      hits.push({ page: page, score: score, excerpt: excerpt });
    });
    hits.sort(function (a, b) { return b.score - a.score; });
    return hits;
  }

  /** Fills the results list of the search page for the query in its address (?q=...). */
  function showResults(container) {
    var query = new URLSearchParams(window.location.search).get('q') || '';
    var field = document.getElementById('tilelab-search-field');
    if (field) field.value = query;
    container.textContent = '';
    if (!query) return;
    var hits = search(window.tilelabSearchIndex || [], query);
    var summary = document.createElement('p');
    summary.className = 'tilelab-search-summary';
    summary.textContent = hits.length + (hits.length === 1 ? ' page contains ' : ' pages contain ') + '"' + query + '"';
    container.appendChild(summary);
    var list = document.createElement('ol');
    hits.forEach(function (hit) {
      var item = document.createElement('li');
      var link = document.createElement('a');
      link.href = hit.page.url;
      link.textContent = hit.page.title;
      var excerpt = document.createElement('div');
      excerpt.className = 'tilelab-search-excerpt';
      excerpt.textContent = hit.excerpt;
      item.appendChild(link);
      item.appendChild(excerpt);
      list.appendChild(item);
    });
    container.appendChild(list);
  }

  /** Enter in Doxygen's search box (built by Doxygen's menu script after the page loads, hence the listener on
   *  the document) or in the search page's own field opens the full-text results. */
  function onEnterInSearchField(event) {
    var field = event.target;
    if (event.key !== 'Enter' || !field || (field.id !== 'MSearchField' && field.id !== 'tilelab-search-field')) return;
    var query = field.value.trim();
    if (!query) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    window.location.href = 'fulltext_search.html?q=' + encodeURIComponent(query);
  }

  document.addEventListener('keydown', onEnterInSearchField, true);
  document.addEventListener('DOMContentLoaded', function () {
    var container = document.getElementById('tilelab-search-results');
    if (container) showResults(container);
  });
})();
