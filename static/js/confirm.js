// Asks before a form with data-confirm="question" is sent (closing or reopening an evening,
// deleting an entry). Without this script the form is sent at once, as before.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var question = event.target.getAttribute && event.target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) event.preventDefault();
  }, true);
})();
