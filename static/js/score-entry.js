// The table page: the entry form shows only the fields the chosen game needs, and after a save
// (or a refusal) the screen shows the Schreiber where to go on. Without this script the form
// still works, just longer: the server takes only the chosen game's fields (HandForm.to_data).
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

  // --- where the thumb is after a save or a refusal ----------------------------------------

  function scrollToTop(el, margin) {
    var top = el.getBoundingClientRect().top + window.scrollY - (margin || 0);
    window.scrollTo({ top: Math.max(top, 0), behavior: "instant" });
  }

  function firstError(root) {
    var errors = root.querySelectorAll(".field-error, .message-error");
    for (var i = 0; i < errors.length; i++) {
      if (errors[i].textContent.trim() && !errors[i].closest("[hidden]")) return errors[i];
    }
    return null;
  }

  // A refusal: the first error in the middle of the screen, its field focused.
  function showError(error) {
    var block = error.closest("fieldset, .field, .switches, details, form") || error;
    var details = error.closest("details");
    if (details) details.open = true;
    block.scrollIntoView({ block: "center", behavior: "instant" });
    var input = block.querySelector("input:not([type=hidden]):not([disabled]), select, textarea");
    if (input) input.focus({ preventScroll: true });
  }

  // A save: the message and the table state on top, the game buttons under the thumb, focused.
  function showNextHand(live) {
    var games = live.querySelector("form[data-entry-form] fieldset.games");
    if (!games) return;
    scrollToTop(live, 8);
    if (games.getBoundingClientRect().bottom > window.innerHeight) scrollToTop(games, 8);
    var radio = games.querySelector("input:checked:not([disabled])") || games.querySelector("input:not([disabled])");
    if (radio) radio.focus({ preventScroll: true });
  }

  function settle(live) {
    var error = firstError(live);
    if (error) showError(error);
    else showNextHand(live);
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form[data-entry-form]");
    if (form) update(form);
  });
  document.addEventListener("htmx:load", function (event) { updateAll(event.detail.elt); });
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (target && target.id === "table-live") {
      var live = document.getElementById("table-live");
      if (live) settle(live);
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    updateAll(document);
    // A page that came back with a refusal (no htmx): show it. A plain load stays where it is.
    var form = document.querySelector("form[data-entry-form]");
    var error = form && firstError(form);
    if (error) showError(error);
  });
})();
