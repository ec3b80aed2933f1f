// The service worker of the score sheet (issue 16), rendered by offline.views.
//
// A plain worker rather than Workbox: workbox-sw loads its modules from a CDN unless every
// module is vendored and pointed at, and the score sheet needs three small things only:
// - install: cache the app's static files, Pyodide and the engine (the "shell"), all at once;
// - static files and the engine: cache first (their cache is renamed when any of them changes);
// - a table page and its offline.json: network first, the cached copy when there is no signal;
//   any other page: the network, the offline page without signal.
// A phone may be shared (issue 22): every page and JSON of the server names its login in the
// header X-Offline-Login (offline/logins.py; "-" when nobody is logged in). The worker keeps the
// table pages in one cache per login and remembers the login the server named last: without
// signal it serves only that login's copies, and when another login (or nobody) is named, the
// copies of every other login are deleted.
"use strict";

const VERSION = "{{ version }}";
const SHELL = "schafkopf-shell-" + VERSION;
const TABLES = "schafkopf-tables-"; // + the login's id
const LOGIN = "schafkopf-login"; // the login named last (one entry, LOGIN_KEY → its id)
const LOGIN_KEY = "/offline/login";
const LOGIN_HEADER = "X-Offline-Login";
const NOBODY = "-";
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
      // The shell of an older version, and the one table cache of every login before issue 22.
      .then((names) => Promise.all(names.filter((n) => (n.startsWith("schafkopf-shell-") && n !== SHELL) || n === "schafkopf-tables").map((n) => caches.delete(n))))
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

async function currentLogin() {
  const entry = await caches.match(LOGIN_KEY, { cacheName: LOGIN });
  return entry ? entry.text() : NOBODY;
}

// The server named the login of `response` (or nobody): that login is now the phone's, and
// the table pages of any other login go.
async function noteLogin(response) {
  const login = response.headers.get(LOGIN_HEADER);
  if (!login) return null; // not a page of the server's (an error on the way)
  if ((await currentLogin()) !== login) {
    await (await caches.open(LOGIN)).put(LOGIN_KEY, new Response(login));
  }
  const names = await caches.keys();
  await Promise.all(names.filter((n) => n.startsWith(TABLES) && n !== TABLES + login).map((n) => caches.delete(n)));
  return login;
}

// A table page served from the cache says so (issue 33): offline-early.js reads the mark from the
// page's navigation timing and starts the engine while the page is still being parsed.
function fromCache(response) {
  const headers = new Headers(response.headers);
  headers.append("Server-Timing", "offline-cache");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

async function networkFirst(request, fallback) {
  // One copy per page, whatever its query (?changed=… only highlights rows).
  const url = new URL(request.url);
  const key = url.origin + url.pathname;
  try {
    const response = await fetch(request);
    const login = await noteLogin(response);
    // Only complete answers: a redirect to the login page is not the table.
    if (response.ok && !response.redirected && login && login !== NOBODY) {
      await (await caches.open(TABLES + login)).put(key, response.clone());
    }
    return response;
  } catch (error) {
    const login = await currentLogin();
    const cached = login === NOBODY ? null : await caches.match(key, { cacheName: TABLES + login, ignoreVary: true });
    if (cached && request.mode === "navigate") return fromCache(cached);
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
    event.respondWith(
      fetch(request).then(
        async (response) => {
          await noteLogin(response).catch((error) => console.warn("login not noted:", error));
          return response;
        },
        () => caches.match(OFFLINE_PAGE, { cacheName: SHELL, ignoreVary: true }),
      ),
    );
  }
});
