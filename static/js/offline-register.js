// Installs the service worker (templates/offline/sw.js, served from the site's root so its
// scope covers the table pages): the score sheet then opens and works without signal.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  var script = document.currentScript;
  var url = (script && script.dataset.serviceWorker) || "/sw.js";
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function (error) {
      console.warn("service worker not installed:", error);
    });
  });
})();
