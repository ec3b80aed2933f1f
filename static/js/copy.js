// "Link kopieren": a button with data-copy="<id of an input>" copies that input's value to the
// clipboard and says so (data-copied). The clipboard API needs a secure context (https or
// localhost); on a club's plain-http network the input's text is selected and copied the old way.
(function () {
  "use strict";
  function done(button) {
    var label = button.getAttribute("data-copied");
    if (label) button.textContent = label;
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-copy]") : null;
    if (!button) return;
    var input = document.getElementById(button.getAttribute("data-copy"));
    if (!input) return;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(function () { done(button); });
      return;
    }
    input.select();
    if (document.execCommand("copy")) done(button);
  });
})();
