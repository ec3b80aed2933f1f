// The big screen of an open tournament (issue 24 §6): every player, in as many columns as fit the
// window at a readable size; where they do not all fit, pages that turn by themselves every
// data-turn seconds ("Seite 2/4"). htmx swaps in a fresh board every half minute; the page shown
// stays, and the new rows are laid out on htmx:afterSwap, before the browser paints them, so
// nothing flickers. The sizes go on <body> as custom properties (CSSOM, which the CSP allows), not
// on the board: htmx copies the old board's attributes onto the new one while it settles, and a
// copied style attribute is an inline style the CSP refuses (as tournaments/live-fit.js found).
// Without this script the rows stand in one long list.
(function () {
  "use strict";
  var SMALLEST = 14; // px: read from the back of the room on a 720p projector
  var PHONE_SMALLEST = 10; // px: a phone in the hand (issue 29: every page fits 390 px)
  var LARGEST = 48;
  var page = 0;
  var pages = 1;
  var perPage = 0;
  var timer = null;
  var turnSeconds = 0;

  function board() {
    return document.getElementById("room-board");
  }

  function setProperty(name, value) {
    document.body.style.setProperty(name, String(value));
  }

  // The widest name of a prize winner or a podium place, in em of the board (the type's size
  // scales every length): the name column is at least that wide, so those names stand whole
  // (issue 31 §7). Measured on a canvas: most rows are hidden while the board is laid out. At
  // most 24 em for the name itself, so one absurdly long name does not squeeze every page into one
  // column.
  var canvas = document.createElement("canvas").getContext("2d");
  function winnerNameEm(b) {
    var widest = 8;
    var names = b.querySelectorAll(".room-rows > .room-row.winner .c-name, .room-rows > .room-row.podium .c-name");
    for (var i = 0; i < names.length; i++) {
      var style = getComputedStyle(names[i]);
      canvas.font = style.fontWeight + " 100px " + style.fontFamily;
      var text = names[i].firstChild ? names[i].firstChild.textContent : "";
      var width = Math.min(24, canvas.measureText(text.trim()).width / 100 + 0.3);
      // Its marks (nachgemeldet, korrigiert) too, in their type of 0.7 em: a winner's line whole.
      var marks = names[i].querySelectorAll("small");
      for (var j = 0; j < marks.length; j++) {
        width += (0.7 * canvas.measureText(" " + marks[j].textContent.trim()).width) / 100;
      }
      widest = Math.max(widest, width);
    }
    return widest;
  }

  // A column of words (the prize, "entschieden durch") as wide as its widest entry, head
  // included, in em of its own type, at most ``cap``: a fixed width would leave the names less
  // room than the row has (issue 31 §7).
  function fitColumn(b, name, pad, cap) {
    var cells = b.querySelectorAll(".room-row ." + name);
    var widest = 0;
    for (var i = 0; i < cells.length; i++) {
      var style = getComputedStyle(cells[i]);
      canvas.font = style.fontWeight + " 100px " + style.fontFamily;
      widest = Math.max(widest, canvas.measureText(cells[i].textContent.trim()).width / 100);
    }
    if (cells.length) setProperty("--room-w-" + name.slice(2), Math.min(cap, widest + pad).toFixed(2) + "em");
  }

  // The head row's least width (the name at its narrowest), at the current size.
  function leastWidth(head) {
    head.parentNode.classList.add("measuring");
    var width = head.getBoundingClientRect().width;
    head.parentNode.classList.remove("measuring");
    return width;
  }

  // How the rows fall at ``size`` px: columns, rows per column, pages.
  function plan(b, rows, size) {
    setProperty("--room-size", size + "px");
    var heads = b.querySelector(".room-heads");
    var list = b.querySelector(".room-rows");
    var head = heads.firstElementChild;
    var gap = parseFloat(getComputedStyle(list).columnGap) || 0;
    var least = leastWidth(head);
    var cols = Math.max(1, Math.floor((list.clientWidth + gap) / (least + gap)));
    var rowHeight = head.getBoundingClientRect().height;
    var room = window.innerHeight - list.getBoundingClientRect().top - size * 0.4;
    var perCol = Math.max(1, Math.floor(room / rowHeight));
    var count = Math.max(1, Math.ceil(rows.length / (perCol * cols)));
    // As few columns as these pages need (wider, so longer names show whole), and the pages
    // filled evenly rather than the last one left nearly empty.
    cols = Math.ceil(rows.length / count / perCol);
    perCol = Math.ceil(rows.length / count / cols);
    // ``fits``: one column is as wide as the screen at most (else the points run off its edge).
    return { size: size, cols: cols, perCol: perCol, pages: count, fits: least <= list.clientWidth + 1 };
  }

  function show() {
    var b = board();
    if (!b) return;
    var rows = b.querySelectorAll(".room-rows > .room-row");
    for (var i = 0; i < rows.length; i++) {
      rows[i].classList.toggle("on", Math.floor(i / perPage) === page);
    }
    var label = b.querySelector(".room-page");
    if (label) {
      label.textContent = pages > 1
        ? b.getAttribute("data-page-label").replace("{page}", page + 1).replace("{pages}", pages)
        : "";
    }
    b.setAttribute("data-page", String(page + 1));
    b.setAttribute("data-pages", String(pages));
  }

  function layout() {
    var b = board();
    if (!b) return;
    document.body.classList.add("room-js");
    var rows = b.querySelectorAll(".room-rows > .room-row");
    var heads = b.querySelector(".room-heads");
    if (!heads || !rows.length) return;
    while (heads.children.length > 1) heads.removeChild(heads.lastElementChild);
    setProperty("--room-cols", 1);
    fitColumn(b, "c-prize", 0.3, 14);  // money and a Sachpreis: "60,00 € · Geräuchertes"
    fitColumn(b, "c-decided", 0.7, 9);
    var nameMin = winnerNameEm(b).toFixed(2) + "em";
    var size = Math.max(SMALLEST, Math.min(window.innerHeight / 52, window.innerWidth / 80));
    // The winners' names always whole (issue 31 §7): in type a little smaller where that keeps
    // the pages that narrower names would need, else on one page more.
    setProperty("--room-name-min", "8em");
    var narrow = plan(b, rows, size);
    setProperty("--room-name-min", nameMin);
    var best = null;
    for (var s = size; s >= SMALLEST && !best; s /= 1.06) {
      var wide = plan(b, rows, s);
      if (wide.pages <= narrow.pages && wide.fits) best = wide;
    }
    for (s = size; s >= SMALLEST && !best; s /= 1.06) {  // else the largest type whose row fits
      var fitting = plan(b, rows, s);
      if (fitting.fits) best = fitting;
    }
    best = best || plan(b, rows, SMALLEST);
    // A phone: below the projector's smallest type until one column fits the screen.
    while (!best.fits && best.size > PHONE_SMALLEST) best = plan(b, rows, Math.max(PHONE_SMALLEST, best.size / 1.06));
    size = best.size;
    // Larger type where the pages leave room: as long as it takes no more pages and no more
    // columns, and the row still fits the screen (few players get large type on one page; names
    // keep their width).
    while (size < LARGEST) {
      size = Math.min(LARGEST, size * 1.06);
      var larger = plan(b, rows, size);
      if (larger.pages > best.pages || larger.cols > best.cols || !larger.fits) break;
      best = larger;
    }
    setProperty("--room-size", best.size + "px");
    setProperty("--room-cols", best.cols);
    setProperty("--room-per-col", best.perCol);
    for (var c = 1; c < best.cols; c++) heads.appendChild(heads.firstElementChild.cloneNode(true));
    pages = best.pages;
    perPage = best.perCol * best.cols;
    if (page >= pages) page = 0;
    show();
    document.body.setAttribute("data-laid-out", String(best.size));
  }

  function turn() {
    page = (page + 1) % pages;
    show();
  }

  function start() {
    layout();
    var b = board();
    turnSeconds = b ? parseInt(b.getAttribute("data-turn"), 10) || 12 : 12;
    timer = window.setInterval(turn, turnSeconds * 1000);
  }

  document.addEventListener("DOMContentLoaded", start);
  document.addEventListener("htmx:afterSwap", layout);
  window.addEventListener("resize", layout);
})();
