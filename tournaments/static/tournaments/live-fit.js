// The big screen shows every participant (issue 20): the board's type is set to the largest size
// at which the whole board fits the window, again after each htmx refresh and when the window
// changes size. Every length of the board is in em, so one font size scales all of it. Without
// this script the stylesheet's size (from the window's height and width) is a near fit.
// The size goes on <body> as the custom property --live-size (CSSOM, which the CSP allows), not on
// the board: htmx copies the old board's attributes onto the new one while it settles, and a
// copied style attribute is an inline style the CSP refuses.
(function () {
  "use strict";
  var SMALLEST = 6;
  var LARGEST = 64;

  function fits(board) {
    if (board.getBoundingClientRect().bottom > window.innerHeight) return false;
    if (document.documentElement.scrollWidth > window.innerWidth) return false;
    var blocks = board.querySelectorAll(".live-block, .live-head");
    for (var i = 0; i < blocks.length; i++) {
      if (blocks[i].scrollWidth > blocks[i].clientWidth + 1) return false;
    }
    return true;
  }

  function fit() {
    var board = document.getElementById("live-board");
    if (!board) return;
    var body = document.body;
    body.classList.add("live-fitted");
    var low = SMALLEST;
    var high = LARGEST;
    while (high - low > 0.25) {
      var middle = (low + high) / 2;
      body.style.setProperty("--live-size", middle + "px");
      if (fits(board)) low = middle; else high = middle;
    }
    body.style.setProperty("--live-size", low + "px");
    body.setAttribute("data-fitted", String(low));
  }

  document.addEventListener("DOMContentLoaded", fit);
  document.addEventListener("htmx:afterSettle", fit);
  window.addEventListener("resize", fit);
})();
