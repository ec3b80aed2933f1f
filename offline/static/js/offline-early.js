// Issue 33: a table page the service worker answered from its cache (no signal: the phone was
// locked and the browser reloaded the page) starts the engine's worker while the page is still
// being parsed, before the Liste and the page's other scripts; offline-table.js takes it over.
// The service worker marks such a page with `Server-Timing: offline-cache` (templates/offline/sw.js):
// navigator.onLine cannot tell (true on a Wi-Fi without internet, and under the browser tests'
// offline emulation while the page is parsed). Online the engine starts in idle time instead.
// It also reads the table's log (offline.json, from the cache) and has the worker make the table.
(function () {
  "use strict";
  var root = document.getElementById("offline-table");
  var navigation = window.performance && performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
  var fromCache = !!navigation && (navigation.serverTiming || []).some(function (t) { return t.name === "offline-cache"; });
  // false: offline-table.js ran first and started the worker itself.
  if (!root || !fromCache || !window.Worker || window.offlineEngineEarly === false) return;
  var cfg = root.dataset;
  var worker = new Worker(cfg.engineWorkerUrl);
  var early = { worker: worker, answers: [], startedMs: performance.now() };
  worker.onmessage = function (event) { early.answers.push(event.data); }; // until offline-table.js runs
  worker.onerror = function (event) { // the worker's script did not load: the start failed
    event.preventDefault();
    early.answers.push({ id: "early", error: "engine worker" }, { id: "early-table", error: "engine worker" });
  };
  worker.postMessage({
    id: "early",
    op: "start",
    pyodideUrl: new URL(cfg.pyodideUrl, window.location.href).href,
    engineUrl: new URL(cfg.engineUrl, window.location.href).href,
  });
  // The table's log too (from the cache, as offline-table.js would fetch it): the worker makes
  // the table (number 1, the page's first) as soon as Python runs, not after the page's scripts.
  early.doc = fetch(cfg.dataUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
    .then(function (response) { return response.ok && !response.redirected ? response.text() : null; })
    .catch(function () { return null; });
  early.doc.then(function (text) {
    if (text) worker.postMessage({ id: "early-table", op: "table", table: 1, data: text });
  });
  cfg.engineEarlyMs = String(Math.round(early.startedMs)); // bench_offline reads it
  window.offlineEngineEarly = early;
})();
