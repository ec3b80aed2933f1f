// What every page does (issue 21):
// - A page shown again by Back from the browser's back/forward cache is the page as it was when
//   it was left: the money and the table state may have changed since (a save at the table, a
//   correction). It is loaded again instead. The server also marks its pages no-store
//   (config/middleware.py), which keeps most browsers from keeping them at all.
// - A message goes away on a tap; a success or a note also by itself after a few seconds, a
//   warning after a little longer; an error stays until it is tapped.
(function () {
  "use strict";

  window.addEventListener("pageshow", function (event) {
    if (event.persisted) window.location.reload();
  });

  var LIFETIME = { success: 6000, info: 6000, warning: 12000 };

  function dismiss(message) {
    var box = message.parentNode;
    message.remove();
    if (box && box.classList.contains("messages") && !box.querySelector(".message")) box.remove();
  }

  function arm(root) {
    (root.querySelectorAll ? root : document).querySelectorAll(".message[data-dismiss]:not([data-armed])").forEach(function (message) {
      message.setAttribute("data-armed", "");
      var kind = Object.keys(LIFETIME).find(function (tag) { return message.classList.contains("message-" + tag); });
      if (kind) setTimeout(function () { dismiss(message); }, LIFETIME[kind]);
    });
  }

  document.addEventListener("click", function (event) {
    var message = event.target.closest && event.target.closest(".message[data-dismiss]");
    if (message && !event.target.closest("a, button")) dismiss(message);
  });
  document.addEventListener("DOMContentLoaded", function () { arm(document); });
  document.addEventListener("htmx:load", function (event) { arm(event.detail.elt); });
})();

// A table wider than the screen (a phone at 390 px) is shown as cards instead of scrolling
// sideways (issue 29, item 4): one card per row, each cell under its column's heading
// (data-label, shown by app.css for table.stacked). A table that fits stays a table.
(function () {
  "use strict";

  function headings(table) {
    var row = table.tHead && table.tHead.rows[table.tHead.rows.length - 1];
    var out = [];
    if (!row) return out;
    Array.prototype.forEach.call(row.cells, function (cell) {
      for (var i = 0; i < (cell.colSpan || 1); i++) out.push(cell.innerText.trim());
    });
    return out;
  }

  function stack(root) {
    (root.querySelectorAll ? root : document).querySelectorAll("main table:not(.stacked):not(.no-stack)").forEach(function (table) {
      var box = table.parentElement;
      if (!box || table.offsetParent === null || table.scrollWidth <= box.clientWidth + 1) return;
      var labels = headings(table);
      Array.prototype.forEach.call(table.tBodies, function (body) {
        Array.prototype.forEach.call(body.rows, function (row) {
          var column = 0;
          Array.prototype.forEach.call(row.cells, function (cell) {
            if (labels[column] && !cell.hasAttribute("data-label")) cell.setAttribute("data-label", labels[column]);
            column += cell.colSpan || 1;
          });
        });
      });
      table.classList.add("stacked");
    });
  }

  document.addEventListener("DOMContentLoaded", function () { stack(document); });
  document.addEventListener("htmx:load", function (event) { stack(event.detail.elt); });
  window.addEventListener("resize", function () { stack(document); });
})();
