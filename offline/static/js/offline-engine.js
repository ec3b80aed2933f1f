// The phone's engine off the page's thread (issue 33): a Web Worker that loads Pyodide and
// scoring/engine (the zip the app serves) and answers the table page (offline-table.js).
// Started while the page is still online, so the signal dropping costs nothing; loading the
// WebAssembly and the standard library here never blocks a tap on the page.
//
// Messages (each with an `id`, answered as {id, result} or {id, error}):
// - {op: "start", pyodideUrl, engineUrl}: load Pyodide and import scoring.engine.offline;
// - {op: "table", table, data}: an OfflineTable for the table's JSON (offline.json), under the
//   page's number `table` (the page makes a new one when the stored log changed);
// - {op: "call", table, method, argument}: OfflineTable.<method>(argument), JSON in and out
//   (fold, preview, facts);
// - {op: "drop", table}: the page no longer needs that table.
// Only the standard library Pyodide loads anyway and the engine: no packages.
"use strict";

var pyodide = null; // the runtime, once started (bench_offline reads its memory's size)
var python = null; // Promise of the module scoring.engine.offline
var tables = {}; // Promise of an OfflineTable by the page's number
// ms on the worker's clock at each step of the start, and the clock's origin (bench_offline reads them)
var timings = { origin: performance.timeOrigin };

// The started engine's memory (Pyodide's memory snapshot, issue 33): made once on this phone
// right after the engine is imported (before any table: no one's data in it), kept in Cache
// Storage under the name of the service worker's shell cache, which changes whenever Pyodide or
// the engine does; a later start restores it instead of starting Python and importing the
// engine. Without the service worker's cache there is none.
var SNAPSHOTS = "schafkopf-engine-snapshot";

function snapshotKey() {
  if (!self.caches) return Promise.resolve(null);
  return caches.keys().then(function (names) {
    var shell = names.filter(function (n) { return n.indexOf("schafkopf-shell-") === 0; })[0];
    return shell ? new URL("/offline/engine-snapshot/" + shell, self.location.href).href : null;
  });
}

function savedSnapshot(key) {
  if (!key) return Promise.resolve(null);
  return caches.open(SNAPSHOTS)
    .then(function (cache) { return cache.match(key); })
    .then(function (found) { return found ? found.arrayBuffer() : null; });
}

function saveSnapshot(key, bytes) {
  return caches.open(SNAPSHOTS).then(function (cache) {
    return cache.keys()
      .then(function (old) { return Promise.all(old.map(function (r) { return cache.delete(r); })); })
      .then(function () { return cache.put(key, new Response(bytes)); });
  });
}

function start(pyodideUrl, engineUrl) {
  if (!python) {
    timings.start = performance.now();
    var engine = fetch(engineUrl).then(function (response) {
      if (!response.ok) throw new Error("engine " + response.status);
      return response.arrayBuffer();
    });
    var key = snapshotKey().catch(function () { return null; });
    var snapshot = key.then(savedSnapshot).catch(function () { return null; });
    self.importScripts(pyodideUrl + "pyodide.js");
    timings.script = performance.now();
    python = Promise.all([engine, key, snapshot])
      .then(function (parts) {
        timings.read = performance.now();
        var options = { indexURL: pyodideUrl };
        if (parts[2]) options._loadSnapshot = new Uint8Array(parts[2]);
        else if (parts[1]) options._makeSnapshot = true;
        timings.snapshot = parts[2] ? parts[2].byteLength : 0;
        return self.loadPyodide(options)
          .catch(function (error) {
            if (!options._loadSnapshot) throw error;
            // A snapshot this runtime does not take: started the long way, made again.
            console.warn("engine snapshot not restored:", error);
            parts[2] = null;
            return caches.delete(SNAPSHOTS).then(function () {
              return self.loadPyodide({ indexURL: pyodideUrl, _makeSnapshot: !!parts[1] });
            });
          })
          .then(function (py) { return [py, parts]; });
      })
      .then(function (started) {
        pyodide = started[0];
        var parts = started[1];
        timings.pyodide = performance.now();
        // The engine's files also after a snapshot: a module imported late is read from them.
        pyodide.unpackArchive(parts[0], "zip", { extractDir: "/engine" });
        if (!parts[2]) {
          pyodide.runPython("import sys\nsys.path.insert(0, '/engine')\nimport scoring.engine.offline");
          if (parts[1]) {
            var bytes = pyodide.makeMemorySnapshot();
            timings.made = bytes.byteLength;
            saveSnapshot(parts[1], bytes).catch(function (error) { console.warn("engine snapshot:", error); });
          }
        }
        var module = pyodide.pyimport("scoring.engine.offline");
        timings.engine = performance.now();
        return module;
      });
    python.catch(function () { python = null; });
  }
  return python;
}

function answer(message) {
  switch (message.op) {
    case "start":
      return start(message.pyodideUrl, message.engineUrl).then(function () { return null; });
    case "table":
      tables[message.table] = python.then(function (module) {
        var made = module.OfflineTable(message.data);
        timings.table = performance.now();
        return made;
      });
      return tables[message.table].then(function () { return null; });
    case "call":
      return tables[message.table].then(function (table) { return table[message.method](message.argument); });
    case "drop": {
      var dropped = tables[message.table];
      delete tables[message.table];
      return dropped ? dropped.then(function (table) { table.destroy(); return null; }) : Promise.resolve(null);
    }
    default:
      return Promise.reject(new Error("unknown op " + message.op));
  }
}

self.onmessage = function (event) {
  var message = event.data;
  var reply;
  try {
    reply = answer(message);
  } catch (error) {
    reply = Promise.reject(error);
  }
  reply.then(
    function (result) { self.postMessage({ id: message.id, result: result }); },
    function (error) { self.postMessage({ id: message.id, error: String((error && error.message) || error) }); },
  );
};
