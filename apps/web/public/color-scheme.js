/*
 * Runs before the first paint (index.html loads it in the head, as a file: the server's
 * Content-Security-Policy allows no inline script). It sets the colour scheme that src/lib/color-scheme.ts
 * will apply once the app has loaded, so a dark page is never first painted light or the reverse.
 */
/* global window, document */
(function () {
  var chosen = null;
  try {
    chosen = window.localStorage.getItem('vexil-color-scheme');
  } catch {
    // Storage may be refused (privacy settings); the system's preference still holds.
  }
  var scheme = chosen === 'light' || chosen === 'dark' ? chosen : null;
  if (!scheme) {
    var prefersDark = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches;
    scheme = prefersDark ? 'dark' : 'light';
  }
  document.documentElement.setAttribute('data-mantine-color-scheme', scheme);
})();
