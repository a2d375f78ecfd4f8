/* The language switch (docs/site/language_switch.cmake) leads to the same page in another language; this keeps the
 * reader's place in it too: a section has the same anchor in every language (docs.translations.<language> checks
 * that the headings match), so the link takes the current one along. */
document.addEventListener('click', function (event) {
  'use strict';
  var link = event.target.closest ? event.target.closest('#tilelab-languages a') : null;
  if (link && window.location.hash) link.hash = window.location.hash;
}, true);
