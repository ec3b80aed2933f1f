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
var timings = {}; // ms on the worker's clock at each step of the start (bench_offline reads them)

function start(pyodideUrl, engineUrl) {
  if (!python) {
    var engine = fetch(engineUrl).then(function (response) {
      if (!response.ok) throw new Error("engine " + response.status);
      return response.arrayBuffer();
    });
    python = Promise.resolve()
      .then(function () {
        timings.start = performance.now();
        self.importScripts(pyodideUrl + "pyodide.js");
        return Promise.all([self.loadPyodide({ indexURL: pyodideUrl }), engine]);
      })
      .then(function (parts) {
        pyodide = parts[0];
        timings.pyodide = performance.now();
        pyodide.unpackArchive(parts[1], "zip", { extractDir: "/engine" });
        pyodide.runPython("import sys\nsys.path.insert(0, '/engine')");
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
