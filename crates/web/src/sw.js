// The service worker: keeps the site for offline use. Scripts, styles, fonts and the
// WebAssembly have content-hashed names, so they are served from the cache for ever (the engine's
// net too, once the engine has first fetched it); pages go
// to the network first (a new version shows at once) and fall back to the cache offline. The
// API (rooms) is never cached. Written by crates/web/build.rs: the version and the file list
// are filled in at build time.
const CACHE = 'qi-__VERSION__';
const PAGES = ['/', '/xq', '/puzzles', '/huarong'];
const FILES = ["__PRECACHE__"];
// The favicon's hashed address: `/favicon.ico`, which browsers ask on their own, is answered with it.
const FAVICON = '__FAVICON__';

/**
 * A response that can answer a navigation: a static server redirects `/xq` to `/xq/`, and a
 * redirected response must not be used for another request.
 * @param {Response} response
 */
async function cleaned(response) {
  if (!response.redirected) return response;
  const { status, statusText, headers } = response;
  return new Response(await response.blob(), { status, statusText, headers });
}

async function keepPage(cache, path, response) {
  if (response.ok) await cache.put(path, await cleaned(response));
}

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(FILES);
    await Promise.all(PAGES.map(async (path) => keepPage(cache, path, await fetch(path))));
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('qi-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

/** The cached page for a path: `/xq/`, `/xq/index.html` and `/xq?g=…` are all `/xq`. */
function pageKey(url) {
  const path = url.pathname.replace(/index\.html$/, '').replace(/(.)\/$/, '$1');
  return PAGES.includes(path) ? path : null;
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  // A room's page (`/xq?room=…`) lives on its server: never kept, never served from here.
  if (url.searchParams.has('room')) return;
  if (url.pathname === '/favicon.ico') {
    event.respondWith(caches.match(FAVICON).then((hit) => hit || fetch(request)));
    return;
  }
  const page = pageKey(url);
  if (page) {
    event.respondWith(
      fetch(request)
        .then((response) => {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => keepPage(cache, page, copy));
          return response;
        })
        .catch(() => caches.match(page).then((hit) => hit || Response.error())),
    );
    return;
  }
  event.respondWith(caches.match(request).then((hit) => hit || fetchAndKeep(request)));
});

/**
 * Fetches a file that is not precached; the engine's net (hashed, so it never changes under
 * its name) is kept once fetched, so that the computer and analysis work offline after their
 * first use without making every first visit download it.
 * @param {Request} request
 */
async function fetchAndKeep(request) {
  const response = await fetch(request);
  if (response.ok && new URL(request.url).pathname.endsWith('.nnue')) {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}
