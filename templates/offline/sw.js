// The service worker of the score sheet (issue 16), rendered by offline.views.
//
// A plain worker rather than Workbox: workbox-sw loads its modules from a CDN unless every
// module is vendored and pointed at, and the score sheet needs three small things only:
// - install: cache the app's static files, Pyodide and the engine (the "shell"), all at once;
// - static files and the engine: cache first (their cache is renamed when any of them changes);
// - a table page and its offline.json: network first, the cached copy when there is no signal;
//   any other page: the network, the offline page without signal.
"use strict";

const VERSION = "{{ version }}";
const SHELL = "schafkopf-shell-" + VERSION;
const TABLES = "schafkopf-tables";
const PRECACHE = {{ precache|safe }};
const STATIC_PREFIX = {{ static_prefix|safe }};
const OFFLINE_PAGE = {{ offline_page|safe }};
const ENGINE = {{ engine|safe }};
// A table page, and the JSON of its rules and log.
const TABLE_PATH = /^\/clubs\/[^/]+\/abende\/\d+\/tische\/\d+\/(offline\.json)?$/;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL).then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" })))),
  );
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("schafkopf-shell-") && n !== SHELL).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

async function cacheFirst(request) {
  const cached = await caches.match(request, { cacheName: SHELL, ignoreSearch: true, ignoreVary: true });
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(SHELL);
    cache.put(request, response.clone());
  }
  return response;
}

async function networkFirst(request, fallback) {
  const cache = await caches.open(TABLES);
  // One copy per page, whatever its query (?changed=… only highlights rows).
  const url = new URL(request.url);
  const key = url.origin + url.pathname;
  try {
    const response = await fetch(request);
    // Only complete answers: a redirect to the login page is not the table.
    if (response.ok && !response.redirected) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const cached = await cache.match(key, { ignoreVary: true });
    if (cached) return cached;
    if (fallback) {
      const page = await caches.match(fallback, { cacheName: SHELL, ignoreVary: true });
      if (page) return page;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_PREFIX) || url.pathname === ENGINE) {
    event.respondWith(cacheFirst(request));
  } else if (TABLE_PATH.test(url.pathname)) {
    event.respondWith(networkFirst(request, request.mode === "navigate" ? OFFLINE_PAGE : null));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE_PAGE, { cacheName: SHELL, ignoreVary: true })));
  }
});
