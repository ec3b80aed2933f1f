// The table page: the entry form shows only the fields the chosen game needs, and after a save
// (or a refusal) the screen shows the Schreiber where to go on. Without this script the form
// still works, just longer: the server takes only the chosen game's fields (HandForm.to_data).
// data-games: shown for these games (a group, or one button of a group); data-hide-tout: hidden
// while Tout is ticked.
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
      if (tout && el.hasAttribute("data-hide-tout")) show = false;
      el.hidden = !show;
    });
  }

  // --- defaults that follow the game (a new hand only: a correction keeps what was stored) ---

  function check(group, value) {
    var radio = group.querySelector('input[value="' + value + '"]');
    if (radio && !radio.checked) radio.checked = true;
  }

  // Under Dauerdeckel a game starts with one Deckel, a Mungo, a Sie or a Tout with none
  // (data-default-one lists the games with one); a Deckel tapped by hand stays.
  function applyDefaults(form) {
    if (!form.hasAttribute("data-defaults")) return;
    var checked = form.querySelector('input[name="game"]:checked');
    var game = checked ? checked.value : "";
    var toutBox = form.querySelector('input[name="tout"]');
    var tout = !!(toutBox && toutBox.checked && !toutBox.closest("[hidden]"));
    var deckel = form.querySelector("fieldset.deckel");
    if (deckel && !deckel.hasAttribute("data-touched")) {
      check(deckel, words(deckel.dataset.defaultOne).indexOf(game) >= 0 && !tout ? 1 : 0);
    }
    // A Laufende count the new game cannot have goes back to none.
    var laufende = form.querySelector("fieldset.laufende input:checked");
    if (laufende && laufende.closest("label[hidden]")) check(laufende.closest("fieldset"), 0);
  }

  // 001 §7.1/§7.2: a buyer plays in the seat of the player dealt last (data-seller), who sits
  // out instead: the player buttons dim the seller and offer the buyer.
  function applyPurchase(form) {
    var seller = form.dataset.seller;
    if (!seller) return;
    var bought = form.querySelector('input[name="bought_by"]:checked');
    var buyer = bought ? bought.value : "";
    form.querySelectorAll("fieldset.players label").forEach(function (label) {
      var input = label.querySelector("input");
      if (!input) return;
      if (!("outAtFirst" in label.dataset)) label.dataset.outAtFirst = label.classList.contains("out") ? "1" : "";
      var out = buyer ? input.value === seller || (label.dataset.outAtFirst && input.value !== buyer) : !!label.dataset.outAtFirst;
      label.classList.toggle("out", !!out);
    });
    // A Mungo's order and Augen: the buyer's button instead of the seller's.
    form.querySelectorAll("[data-order] button[data-player]").forEach(function (b) {
      if (!("outAtFirst" in b.dataset)) b.dataset.outAtFirst = b.hidden ? "1" : "";
      var player = b.dataset.player;
      b.hidden = buyer ? player === seller || (!!b.dataset.outAtFirst && player !== buyer) : !!b.dataset.outAtFirst;
    });
  }

  // Mungo: when all but one player's Augen are typed, the last is what is left of 120.
  function completeAugen(form, typed) {
    var fields = Array.prototype.filter.call(
      form.querySelectorAll("fieldset.mungo input[type=number]"),
      function (input) { return !input.closest("[hidden]"); }
    );
    if (typed) delete typed.dataset.auto;
    var open = fields.filter(function (input) { return input.value === "" || input.dataset.auto; });
    if (open.length !== 1) return;
    var sum = 0;
    fields.forEach(function (input) { if (input !== open[0]) sum += parseInt(input.value, 10) || 0; });
    if (sum > 120) return;
    open[0].value = String(120 - sum);
    open[0].dataset.auto = "1";
  }

  // --- a Mungo by taps (spec §2.1 augen_order) ---------------------------------------------
  // The players tapped from fewest to most Augen; "gleich" joins the next one to the group
  // before (tapped when the order is already complete: the last one joins it). The last player
  // falls into place by himself. The order goes into the hidden field augen_order as JSON.

  function orderState(box) {
    var input = box.closest("form").querySelector('input[name="augen_order"]');
    var order = [];
    try { order = input && input.value ? JSON.parse(input.value) : []; } catch (e) { order = []; }
    return { input: input, order: Array.isArray(order) ? order : [] };
  }

  function seatedPlayers(box) {
    return Array.prototype.filter.call(box.querySelectorAll("button[data-player]"), function (b) { return !b.hidden; })
      .map(function (b) { return b.dataset.player; });
  }

  function placed(order) {
    return order.reduce(function (all, group) { return all.concat(group); }, []);
  }

  function showOrder(box, order) {
    var done = placed(order);
    box.querySelectorAll("button[data-player]").forEach(function (b) {
      var at = done.indexOf(b.dataset.player);
      b.setAttribute("aria-pressed", at >= 0 ? "true" : "false");
      b.classList.toggle("outline", at < 0);
    });
    var shown = box.querySelector("[data-order-shown]");
    if (shown && order.length) {
      shown.textContent = order.map(function (group) { return group.join(" = "); }).join(" < ");
    } else if (shown && shown.dataset.hint) shown.innerHTML = shown.dataset.hint;
    box.toggleAttribute("data-same", !!box.sameNext);
  }

  function setOrder(box, order) {
    var st = orderState(box);
    if (!st.input) return;
    var seated = seatedPlayers(box);
    var left = seated.filter(function (p) { return placed(order).indexOf(p) < 0; });
    box.auto = false;
    if (left.length === 1 && order.length) {
      order.push([left[0]]); // the one left has the most
      box.auto = true;
    }
    st.input.value = order.length ? JSON.stringify(order) : "";
    showOrder(box, order);
    st.input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function tapOrder(box, button) {
    var order = orderState(box).order;
    if (box.auto) { order.pop(); box.auto = false; } // the player placed by himself is tapped again
    if (button.hasAttribute("data-order-undo")) {
      box.sameNext = false;
      var last = order[order.length - 1];
      if (last) { last.pop(); if (!last.length) order.pop(); }
      return setOrder(box, order);
    }
    if (button.hasAttribute("data-order-same")) {
      var seated = seatedPlayers(box);
      if (placed(order).length === seated.length - 1 && order.length) {
        // Complete but for the last one: he has as many as the one before.
        var rest = seated.filter(function (p) { return placed(order).indexOf(p) < 0; });
        order[order.length - 1].push(rest[0]);
        box.sameNext = false;
        return setOrder(box, order);
      }
      box.sameNext = order.length > 0;
      return setOrder(box, order);
    }
    var name = button.dataset.player;
    if (placed(order).indexOf(name) >= 0) return setOrder(box, order);
    if (box.sameNext && order.length) order[order.length - 1].push(name);
    else order.push([name]);
    box.sameNext = false;
    setOrder(box, order);
  }

  function resetOrder(form) {
    form.querySelectorAll("[data-order]").forEach(function (box) {
      var st = orderState(box);
      if (st.input) st.input.value = st.input.defaultValue = "";
      box.sameNext = false;
      box.auto = false;
      showOrder(box, []);
    });
  }

  function initOrder(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("[data-order]").forEach(function (box) {
      var shown = box.querySelector("[data-order-shown]");
      if (shown && !shown.dataset.hint) shown.dataset.hint = shown.innerHTML;
      showOrder(box, orderState(box).order);
    });
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("[data-order] button");
    if (!button) return;
    event.preventDefault();
    tapOrder(button.closest("[data-order]"), button);
  });
  document.addEventListener("reset", function (event) {
    if (event.target.matches && event.target.matches("form[data-entry-form]")) {
      var form = event.target;
      setTimeout(function () { resetOrder(form); }, 0); // after the browser reset the fields
    }
  }, true);

  function updateAll(root) {
    initOrder(root);
    (root.querySelectorAll ? root : document).querySelectorAll("form[data-entry-form]").forEach(update);
  }

  // --- the bar under the thumb: what the hand as tapped books (issue 21) ----------------------

  // The preview (the server's, or the phone's own engine offline) names each player's amount in
  // its cells (data-player, data-amount); the bar repeats them under the totals, and the save
  // button says the largest win and loss. An incomplete hand clears them.
  function syncBar(form) {
    var bar = form.querySelector(".thumb-bar");
    if (!bar) return;
    var cells = form.querySelectorAll("#preview .payouts td[data-amount]");
    var text = {};
    var best = null;
    var worst = null;
    cells.forEach(function (cell) {
      var value = parseInt(cell.dataset.amount, 10);
      var strong = cell.querySelector("strong");
      if (isNaN(value) || !strong) return;
      text[cell.dataset.player] = value ? strong.textContent.trim() : "";
      if (value > 0 && (!best || value > best.value)) best = { value: value, text: strong.textContent.trim() };
      if (value < 0 && (!worst || value < worst.value)) worst = { value: value, text: strong.textContent.trim() };
    });
    bar.querySelectorAll("[data-strip-pending]").forEach(function (el) {
      var value = text[el.dataset.stripPending] || "";
      el.textContent = value.replace(/\s*€$/, "");
    });
    var button = bar.querySelector("button.save");
    if (!button) return;
    var amount = button.querySelector(".save-amount");
    if (!amount) {
      amount = document.createElement("small");
      amount.className = "save-amount";
      button.appendChild(amount);
    }
    if (best && worst && best.value === -worst.value) amount.textContent = best.text.replace(/^\+/, "±");
    else amount.textContent = [best && best.text, worst && worst.text].filter(Boolean).join(" / ");
  }

  function watchPreview(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("form[data-entry-form]").forEach(function (form) {
      var preview = form.querySelector("#preview");
      if (!preview || preview.dataset.watched) return;
      preview.dataset.watched = "1";
      new MutationObserver(function () { syncBar(form); }).observe(preview, { childList: true, subtree: true, characterData: true });
      syncBar(form);
    });
  }

  function barHeight() {
    var bar = document.querySelector(".thumb-bar");
    return bar ? bar.getBoundingClientRect().height : 0;
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
    var block = error.closest("fieldset, .field, .switches, details") || error;
    var details = error.closest("details");
    if (details) details.open = true;
    block.scrollIntoView({ block: "center", behavior: "instant" });
    // A refusal of the whole entry has no field: its way forward (the later entry) takes the focus.
    var next = error.nextElementSibling;
    var input = block.querySelector("input:not([type=hidden]):not([disabled]), select, textarea") ||
      (next && next.classList.contains("blocking") ? next.querySelector("a") : null);
    if (input) input.focus({ preventScroll: true });
  }

  // A save: the table state on top, the game buttons under it, focused (the message is in the
  // bar at the bottom, with the totals and the save button).
  function showNextHand(live) {
    var games = live.querySelector("form[data-entry-form] fieldset.games");
    if (!games) return;
    scrollToTop(live, 4);
    if (games.getBoundingClientRect().bottom > window.innerHeight - barHeight()) scrollToTop(games, 4);
    var radio = games.querySelector("input:checked:not([disabled])") || games.querySelector("input:not([disabled])");
    if (radio) radio.focus({ preventScroll: true });
  }

  // Two phones, one hand (issue 30): what the other phone saved, at the top of the screen, in
  // full, and its first choice focused.
  function showTwoPhones(choice) {
    var details = choice.closest("details");
    if (details) details.open = true;
    scrollToTop(choice, 4);
    var button = choice.querySelector("button");
    if (button) button.focus({ preventScroll: true });
  }

  function settle(live) {
    var choice = live.querySelector(".two-phones");
    var error = firstError(live);
    if (choice) showTwoPhones(choice);
    else if (error) showError(error);
    else showNextHand(live);
  }

  document.addEventListener("change", function (event) {
    var form = event.target.closest && event.target.closest("form[data-entry-form]");
    if (!form) return;
    if (event.target.closest("fieldset.deckel")) event.target.closest("fieldset.deckel").setAttribute("data-touched", "");
    // The messages of the last save have been read once the next hand is begun: the bar shrinks
    // back and uncovers the lowest buttons (Gestoßen, Deckel).
    var said = form.querySelector(".thumb-bar .messages");
    if (said) said.remove();
    update(form);
    if (event.target.name === "game" || event.target.name === "tout") applyDefaults(form);
    if (event.target.name === "bought_by") applyPurchase(form);
  });
  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("form[data-entry-form]");
    if (form && event.target.closest("fieldset.mungo")) completeAugen(form, event.target);
  });
  document.addEventListener("htmx:load", function (event) {
    updateAll(event.detail.elt);
    watchPreview(event.detail.elt);
  });
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.target;
    if (target && target.id === "table-live") {
      var live = document.getElementById("table-live");
      if (live) settle(live);
    }
  });
  document.addEventListener("DOMContentLoaded", function () {
    updateAll(document);
    watchPreview(document);
    // A page that came back with a refusal (no htmx): show it. The table page opened at its
    // top starts at the table, as after a save (the menu is a scroll up); a page opened at an
    // anchor (a corrected row) or scrolled already (a reload) stays where it is.
    var form = document.querySelector("form[data-entry-form]");
    var error = form && firstError(form);
    var live = document.getElementById("table-live");
    var choice = live && live.querySelector(".two-phones");
    if (choice) showTwoPhones(choice);
    else if (error) showError(error);
    else if (live && form && form.hasAttribute("data-defaults") && !window.location.hash) {
      // After the stylesheets (the page's own is linked in its body): only then are the places known.
      window.addEventListener("load", function () { if (window.scrollY === 0) showNextHand(live); });
    }
  });
})();
