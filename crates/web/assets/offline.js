// @ts-check
// Every page: keeps the site for offline use (the service worker, /sw.js), and marks a page
// served with no server behind it (`qi site` writes <meta name="qi-server" content="none">) so
// that what needs one, playing a friend in a room, is hidden.

if (document.querySelector('meta[name="qi-server"][content="none"]')) {
  document.documentElement.dataset.server = 'none';
}
if ('serviceWorker' in navigator && (location.protocol === 'https:' || location.hostname === 'localhost' || location.hostname === '127.0.0.1')) {
  navigator.serviceWorker.register('/sw.js').catch(() => {
    // no offline copy; the site works the same online
  });
}
