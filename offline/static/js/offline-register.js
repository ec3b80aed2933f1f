// Installs the service worker (templates/offline/sw.js, served from the site's root so its
// scope covers the table pages): the score sheet then opens and works without signal.
// Logging out drops the phone's copies of table pages (club data on a phone others may use)
// and the worker's note of whose they were; entries still waiting to be sent stay (IndexedDB),
// so nothing typed is lost: only their own login sends them (offline-table.js).
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  var script = document.currentScript;
  var url = (script && script.dataset.serviceWorker) || "/sw.js";
  var logout = script && script.dataset.logout;
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function (error) {
      console.warn("service worker not installed:", error);
    });
  });
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!logout || !window.caches || form.getAttribute("action") !== logout || form.dataset.cachesCleared) return;
    event.preventDefault();
    form.dataset.cachesCleared = "1";
    caches
      .keys()
      .then(function (names) {
        return Promise.all(names.filter(function (name) {
          return name.indexOf("schafkopf-tables") === 0 || name === "schafkopf-login";
        }).map(function (name) { return caches.delete(name); }));
      })
      .finally(function () { form.submit(); });
  });
})();
