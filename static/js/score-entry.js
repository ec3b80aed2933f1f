// The entry form shows only the fields the chosen game needs. The server takes only those
// anyway (HandForm.to_data), so without this script the form still works, just longer.
// data-games: shown for these games; data-games-tout: also shown for these when Tout is ticked;
// data-hide-tout: hidden while Tout is ticked.
(function () {
  "use strict";

  function words(value) {
    return value ? value.split(" ") : [];
  }

  function update(form) {
    var checked = form.querySelector('input[name="game"]:checked');
    var game = checked ? checked.value : "";
    var toutBox = form.querySelector('input[name="tout"]');
    var toutBlock = toutBox ? toutBox.closest("[data-games]") : null;
    var tout = !!(toutBox && toutBox.checked && toutBlock && words(toutBlock.dataset.games).indexOf(game) >= 0);
    form.querySelectorAll("[data-games]").forEach(function (el) {
      var show = words(el.dataset.games).indexOf(game) >= 0;
      if (tout && words(el.dataset.gamesTout).indexOf(game) >= 0) show = true;
      if (tout && el.hasAttribute("data-hide-tout")) show = false;
      el.hidden = !show;
    });
  }

  function updateAll(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("form[data-entry-form]").forEach(update);
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form[data-entry-form]");
    if (form) update(form);
  });
  document.addEventListener("htmx:load", function (event) { updateAll(event.detail.elt); });
  document.addEventListener("DOMContentLoaded", function () { updateAll(document); });
})();
