// The desk's quick entry (opentournaments/views.py round_entry): while a table's points are typed,
// their sum is shown under them, so a slip is seen before saving. The server checks it again
// (services.table_figures_enter); without JavaScript the page works the same, minus this line.
(function () {
  "use strict";

  function update(form) {
    var out = form.querySelector("output.points-sum");
    if (!out) return;
    var sum = 0;
    var complete = true;
    form.querySelectorAll("input[data-points]").forEach(function (input) {
      var value = input.value.trim().replace("−", "-");
      if (!/^-?\d+$/.test(value)) { complete = false; return; }
      sum += parseInt(value, 10);
    });
    out.textContent = out.dataset.label + " " + sum + (complete && sum === 0 ? " ✓" : "");
    out.classList.toggle("off", complete && sum !== 0);
  }

  // A Preisskat's list (skat.md §6): each player's Seeger-Fabian total from the typed figures,
  // Spielpunkte + 50 × (won − lost) + 40 or 30 × the others' lost games (three or four at the table).
  function number(input) {
    var value = input ? input.value.trim().replace("−", "-") : "";
    return /^-?\d+$/.test(value) ? parseInt(value, 10) : null;
  }

  function seeger(table) {
    var rows = Array.prototype.slice.call(table.querySelectorAll("tbody tr"));
    var figures = rows.map(function (row) {
      return [number(row.querySelector("input[data-points]")), number(row.querySelector("input[data-won]")),
        number(row.querySelector("input[data-lost]"))];
    });
    var complete = figures.every(function (f) { return f[0] !== null && f[1] !== null && f[2] !== null; });
    var allLost = figures.reduce(function (sum, f) { return sum + (f[2] || 0); }, 0);
    var bonus = rows.length === 3 ? 40 : 30;
    rows.forEach(function (row, i) {
      var f = figures[i];
      var out = row.querySelector("output.seeger-total");
      out.textContent = complete ? String(f[0] + 50 * (f[1] - f[2]) + bonus * (allLost - f[2])) : "";
    });
  }

  document.querySelectorAll("table[data-seeger]").forEach(function (table) {
    table.addEventListener("input", function () { seeger(table); });
    seeger(table);
  });

  document.querySelectorAll("form[data-zero-sum]").forEach(function (form) {
    form.addEventListener("input", function () { update(form); });
    update(form);
  });
})();
