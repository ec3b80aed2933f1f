// Opened without signal (issue 33): start the engine's worker (offline-engine.js) while the
// browser is still reading the page, before offline-table.js runs (it runs once the whole
// Liste is parsed: on a slow phone a second or two later). offline-table.js takes the worker
// over from window.offlineEngine. Online nothing happens here: there offline-table.js starts
// the engine in idle time.
(function () {
  "use strict";
  var root = document.getElementById("offline-table");
  if (navigator.onLine || !root || !window.Worker) return;
  var cfg = root.dataset;
  var worker = new Worker(cfg.engineWorkerUrl);
  var absolute = function (url) { return new URL(url, window.location.href).href; };
  cfg.engineStartMs = String(Math.round(performance.now()));
  window.offlineEngine = {
    worker: worker,
    started: new Promise(function (resolve, reject) {
      worker.addEventListener("message", function (event) {
        if (event.data.id !== "boot") return;
        if ("error" in event.data) reject(new Error(event.data.error));
        else resolve(event.data.result);
      });
      worker.addEventListener("error", function () { reject(new Error("engine worker")); });
    }),
  };
  worker.postMessage({ id: "boot", op: "start", pyodideUrl: absolute(cfg.pyodideUrl), engineUrl: absolute(cfg.engineUrl) });
})();
