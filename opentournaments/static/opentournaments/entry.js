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

  document.querySelectorAll("form[data-zero-sum]").forEach(function (form) {
    form.addEventListener("input", function () { update(form); });
    update(form);
  });
})();
