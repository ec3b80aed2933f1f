// The score sheet without signal (issue 16). Online the table page works as it always does
// (htmx, server-rendered). Without signal this script stands in for the server:
// - the same engine: Pyodide runs scoring/engine (the zip the app serves) on the table's rules
//   and stored log (offline.json), for the live preview and the amounts of what is typed;
// - a queue: each entry saved offline is kept in IndexedDB (idb) with its idempotency key and
//   shown as "noch nicht übertragen"; when the signal returns they are sent in order to
//   offline/senden/, which stores each once (the key) and says "stale" when another phone
//   entered meanwhile: the entry then goes after those (the server's order wins) and is shown
//   as moved; a refusal stays at the entry, with its fields ready to load back into the form;
// - a shared phone (issue 22): each entry keeps the login that typed it (the page's data-login,
//   offline/logins.py), and a page lists, folds and sends only its own login's entries. Another
//   login's entries of this table are shown apart, never sent unless this login chooses to send
//   them as its own (or discards them); a page whose login is no longer the one logged in sends
//   nothing.
// Texts come translated from the page's <script id="offline-texts"> (offline/texts.py).
(function () {
  "use strict";

  var root = document.getElementById("offline-table");
  if (!root || !window.idb || !window.fetch) return;
  var cfg = root.dataset;
  var lang = document.documentElement.lang || "de";
  var offline = !navigator.onLine;
  // The service worker answered this page from its cache (no signal; sw.js marks it): the
  // engine starts at once even where navigator.onLine still says true (offline-early.js).
  var fromCache = (function () {
    var navigation = window.performance && performance.getEntriesByType && performance.getEntriesByType("navigation")[0];
    return !!navigation && (navigation.serverTiming || []).some(function (t) { return t.name === "offline-cache"; });
  })();
  var data = null; // the table's rules, players, log, stored keys (offline.json)
  var python = null; // Promise: the engine started in its worker (startPython)
  var table = null; // Promise of the OfflineTable for `data`
  var folded = null; // the fold of the waiting entries: {entries, totals, state}
  var status = ""; // a line about the engine or the sending
  var syncing = false;
  // The next updateForms starts the entry form afresh: after a save or an undo, and on a page
  // opened offline as long as nothing was tapped on it yet ("load").
  var renewNext = "load";
  var tapped = false;
  var sentKey = "schafkopf-offline-sent:" + cfg.dataUrl; // how many entries the last sending stored

  // Issue 30: the entry form as the server rendered it, copied before any tap. After an entry
  // saved (or taken back) offline the form is made anew from this copy and set to the next
  // state's facts and defaults (entry_facts.table_facts: the server's own), so nothing a tap left
  // on the last hand's form (a value, a "touched" mark) carries over into the next one.
  var pristine = (function () {
    var form = document.getElementById("entry-form");
    if (!form || !form.hasAttribute("data-defaults")) return null;
    // A page that came back with a refusal holds what was typed: no copy of a new hand's form.
    var refused = Array.prototype.some.call(form.querySelectorAll(".field-error"), function (e) { return e.textContent.trim(); });
    if (refused) return null;
    var copy = form.cloneNode(true);
    copy.querySelectorAll(".thumb-bar .messages, .save-amount").forEach(function (node) { node.remove(); });
    return copy;
  })();

  var db = idb.openDB("schafkopf-offline", 1, {
    upgrade: function (database) {
      database.createObjectStore("entries", { keyPath: "key" }).createIndex("table", "table");
    },
  });

  var texts = JSON.parse(document.getElementById("offline-texts").textContent);

  function t(name, values) {
    var text = texts[name] || name;
    Object.keys(values || {}).forEach(function (key) {
      text = text.replace("{" + key + "}", values[key]);
    });
    return text;
  }

  // --- the queue (IndexedDB) ------------------------------------------------------------------

  // Every entry kept for this table, whoever typed it (mine() tells this page's own).
  function records() {
    return db
      .then(function (d) { return d.getAllFromIndex("entries", "table", cfg.dataUrl); })
      .then(function (list) { return list.sort(function (a, b) { return a.seq - b.seq; }); });
  }
  function mine(record) { return record.login === cfg.login; }
  function put(record) { return db.then(function (d) { return d.put("entries", record); }); }
  function remove(key) { return db.then(function (d) { return d.delete("entries", key); }); }

  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }

  // --- the engine (Pyodide in a Web Worker, offline-engine.js) ---------------------------------

  var worker = null; // the engine's Web Worker
  var asked = {}; // its unanswered messages by id: {resolve, reject}
  var lastAsked = 0;
  var tableCount = 0; // the page's number of the worker's latest OfflineTable
  var ready = false; // the engine has answered for the current table
  var earlyTable = null; // the table offline-early.js had the worker make: {doc: Promise of its JSON text, made}

  function ask(message) {
    return new Promise(function (resolve, reject) {
      message.id = ++lastAsked;
      asked[message.id] = { resolve: resolve, reject: reject };
      worker.postMessage(message);
    });
  }

  function absolute(url) { return new URL(url, window.location.href).href; }

  // Loads Pyodide and the engine in the worker; resolves when the engine can make tables.
  // A page from the cache has it started already, while the page was parsed (offline-early.js).
  function startPython() {
    if (!python) {
      var early = window.offlineEngineEarly;
      window.offlineEngineEarly = false; // taken (or offline-early.js comes too late: it stays idle)
      worker = early ? early.worker : new Worker(cfg.engineWorkerUrl);
      var answered = function (data) {
        var answer = asked[data.id];
        delete asked[data.id];
        if (!answer) return;
        if ("error" in data) answer.reject(new Error(data.error));
        else answer.resolve(data.result);
      };
      worker.onmessage = function (event) { answered(event.data); };
      worker.onerror = function (event) { // the worker's script itself did not load
        event.preventDefault();
        Object.keys(asked).forEach(function (id) { asked[id].reject(new Error("engine worker")); });
        asked = {};
      };
      if (early) {
        python = new Promise(function (resolve, reject) { asked.early = { resolve: resolve, reject: reject }; });
        earlyTable = {
          doc: early.doc,
          made: new Promise(function (resolve, reject) { asked["early-table"] = { resolve: resolve, reject: reject }; }),
        };
        earlyTable.made.catch(function () {});
        early.answers.forEach(answered); // what the worker answered before this script ran
      } else {
        python = ask({ op: "start", pyodideUrl: absolute(cfg.pyodideUrl), engineUrl: absolute(cfg.engineUrl) });
      }
      python.catch(function () {
        python = null;
        if (worker) worker.terminate();
        worker = null;
      });
    }
    return python;
  }

  function fetchData() {
    return fetch(cfg.dataUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (response.status === 410) return response.json().then(tableGone);
        if (!response.ok || response.redirected) throw new Error("offline.json " + response.status);
        return response.json();
      })
      .then(function (doc) {
        data = doc;
        return doc;
      });
  }

  // The OfflineTable for the latest data, with the waiting entries folded on top: a handle
  // ({id}) for call(), which asks the worker.
  function startEngine() {
    if (!table) {
      ready = false;
      if (offline) {
        status = t("loading");
        render();
      }
      if (!cfg.engineStartMs) cfg.engineStartMs = String(Math.round(performance.now()));
      var id = ++tableCount;
      var stored = 0; // entries of the stored log in this table
      var make = function () {
        return Promise.all([startPython(), data ? data : fetchData()]).then(function (parts) {
          stored = parts[1].log.length;
          return ask({ op: "table", table: id, data: JSON.stringify(parts[1]) });
        });
      };
      var early = earlyTable;
      earlyTable = null;
      // A page from the cache: the worker is making table 1 from the log offline-early.js read.
      var made = early && id === 1
        ? early.doc.then(function (text) {
          if (!text) return make();
          var doc = JSON.parse(text);
          if (!data) data = doc;
          stored = doc.log.length;
          return startPython().then(function () { return early.made; });
        })
        : make();
      table = made
        .then(function () {
          var engine = { id: id };
          if (status === t("loading")) status = "";
          return foldWith(engine).then(function () {
            ready = true;
            if (!cfg.engineReadyMs) cfg.engineReadyMs = String(Math.round(performance.now()));
            cfg.engineLog = String(stored); // the stored entries the engine has folded
            return engine;
          });
        });
      table.catch(
        function (error) {
          console.warn("offline engine:", error);
          table = null;
          if (!offline) return; // online nothing needs it yet: tried again when it does
          status = t("failed");
          render();
        },
      );
    }
    return table;
  }

  // Online, after the stored log changed (a save, a correction): the engine folds the new log
  // in the background, so the signal dropping finds it ready; the previous table is dropped.
  function refreshEngine() {
    if (!table) return;
    var previous = table;
    table = null;
    startEngine().then(function () {
      previous.then(function (engine) { return ask({ op: "drop", table: engine.id }); }).catch(function () {});
    }, function () {});
  }

  // While online, in idle time after the page loaded: only on a phone whose service worker
  // serves the app's files from its cache (no data spent), see docs/offline.md "Measured".
  function startInBackground() {
    if (offline || table || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    var idle = window.requestIdleCallback || function (f) { return setTimeout(f, 200); };
    idle(function () { if (!offline && !table) startEngine().catch(function () {}); }, { timeout: 3000 });
  }

  function call(engine, method, argument) {
    return ask({ op: "call", table: engine.id, method: method, argument: JSON.stringify(argument) }).then(JSON.parse);
  }

  function waiting(list) {
    return list.filter(function (r) { return r.status === "waiting" && mine(r); });
  }

  // Facts for entries saved before the engine was ready, each against the state before it.
  function completeFacts(engine, list) {
    var done = Promise.resolve();
    var pending = waiting(list);
    pending.forEach(function (record, i) {
      if (record.entry || record.unknown) return;
      done = done
        .then(function () { return call(engine, "fold", pending.slice(0, i).map(function (r) { return r.entry || null; })); })
        .then(function () { return call(engine, "facts", record); })
        .then(function (facts) {
          if (facts.ok) record.entry = facts.entry;
          else if (facts.unknown) record.unknown = true;
          else {
            record.status = "conflict";
            record.errors = { __all__: [facts.error.message] };
          }
          return put(record);
        });
    });
    return done;
  }

  // Fold the waiting entries on top of the stored log; show them and the state after them.
  function foldWith(engine) {
    return records()
      .then(function (list) { return completeFacts(engine, list); })
      .then(records)
      .then(function (list) {
        return call(engine, "fold", waiting(list).map(function (r) { return r.entry || null; })).then(function (answer) {
          folded = answer;
          render(list);
          // The form in a task of its own: each stays short on a slow phone (issue 33).
          return nextTask().then(updateForms);
        });
      });
  }

  function nextTask() {
    return new Promise(function (resolve) { setTimeout(resolve, 0); });
  }

  function refold() {
    return table ? table.then(foldWith) : records().then(render);
  }

  // --- forms ------------------------------------------------------------------------------------

  function formTarget(form) {
    if (!form || form.tagName !== "FORM") return null;
    var action = form.getAttribute("action");
    if (action === cfg.entryUrl) return "entry";
    if (action === cfg.eventUrl) return "event";
    return null;
  }

  function field(form, suffix) {
    return Array.prototype.find.call(form.elements, function (el) {
      return el.name === suffix || el.name.slice(-suffix.length - 1) === "-" + suffix;
    });
  }

  function submission(form, target, submitter) {
    var fields = {};
    new FormData(form, submitter || null).forEach(function (value, name) {
      if (name === "csrfmiddlewaretoken") return;
      (fields[name] = fields[name] || []).push(String(value));
    });
    return { target: target, fields: fields };
  }

  function nextNumber() {
    return (data ? data.log.length : 0) + (folded ? folded.entries.length : 0) + 1;
  }

  // The paper's "Nr." of the next hand: events are no hands (issue 21, scoring.labels.paper_numbers).
  function nextHandNumber() {
    var stored = data ? data.log.filter(function (entry) { return !("event" in entry); }).length : 0;
    var waiting = folded ? folded.entries.filter(function (r) { return r.ok ? !("event" in r.result) : r.unknown; }).length : 0;
    return stored + waiting + 1;
  }

  // The page's forms were rendered for the stored log; after entries saved offline the next
  // hand is someone else's deal, maybe in another round, under Dauerdeckel or a vote, and has
  // another number. The engine's table facts (entry_facts.table_facts, the ones the server
  // renders) say all of it; this only applies them to the page.
  function updateForms() {
    if (!folded || !data || !offline) return; // online the page is the server's
    var state = folded.state;
    var fresh = !!pristine && (renewNext === true || (renewNext === "load" && !tapped));
    var form = fresh ? renewForm() : document.getElementById("entry-form");
    renewNext = false;
    applyFacts(state, form);
    if (form && fresh) applyInitial(form, state.initial || {});
    else if (form) {
      var dealer = form.querySelector('select[name="dealer"]');
      if (dealer) {
        // Moved along only where the Schreiber did not choose another dealer (a deal out of turn).
        var untouched = Array.prototype.some.call(dealer.options, function (option) {
          return option.defaultSelected && option.value === dealer.value;
        });
        Array.prototype.forEach.call(dealer.options, function (option) {
          option.defaultSelected = option.value === state.dealer;
        });
        if (untouched) dealer.value = state.dealer;
      }
      form.querySelectorAll('input[name="deckel"]').forEach(function (radio) {
        radio.defaultChecked = radio.value === (state.deckel_required ? "1" : "0");
      });
    }
    document.querySelectorAll("#table-live form").forEach(function (f) {
      if (!formTarget(f)) return;
      var expected = field(f, "expected_number");
      if (expected) expected.value = expected.defaultValue = String(nextNumber());
      var button = f.querySelector("button.save, .as-json button[type=submit]");
      // Only the label: the save button of the bar also shows the amount (score-entry.js).
      var label = button && (button.querySelector(".save-label") || button);
      if (label) label.textContent = label.textContent.replace(/\d+/, String(nextHandNumber()));
    });
    root.querySelectorAll("[data-dealer]").forEach(function (el) {
      el.textContent = t("dealer", { name: state.dealer });
    });
    if (form) form.dispatchEvent(new Event("change", { bubbles: true })); // score-entry.js: the fields of the game
    markBar(); // a fresh form brings the server's bar
  }

  // A fresh entry form from the server's copy, in place of the one just saved. htmx and
  // score-entry.js take it up as a form the server sent (htmx:load).
  function renewForm() {
    var old = document.getElementById("entry-form");
    if (!old) return null;
    var form = pristine.cloneNode(true);
    old.replaceWith(form);
    if (window.htmx) window.htmx.process(form);
    form.dispatchEvent(new CustomEvent("htmx:load", { bubbles: true, detail: { elt: form } }));
    return form;
  }

  // The server's initial values of the next hand (entry_facts.form_defaults) on a fresh form:
  // each field's default and its value.
  function applyInitial(form, initial) {
    Object.keys(initial).forEach(function (name) {
      var value = initial[name];
      var wanted = (Array.isArray(value) ? value : [value]).map(function (v) {
        return v === true ? "on" : v === false || v === null ? null : String(v);
      });
      Array.prototype.forEach.call(form.querySelectorAll('[name="' + name + '"]'), function (input) {
        if (input.type === "radio" || input.type === "checkbox") {
          input.checked = input.defaultChecked = wanted.indexOf(input.value) >= 0;
        } else if (input.tagName === "SELECT") {
          Array.prototype.forEach.call(input.options, function (option) {
            option.selected = option.defaultSelected = wanted.indexOf(option.value) >= 0;
          });
        } else {
          input.value = input.defaultValue = wanted[0] || "";
        }
      });
    });
  }

  function words(list) { return (list || []).join(" "); }

  function setHidden(node, hidden) { if (node) node.hidden = !!hidden; }

  // The tap form, the vote, the table state and the sheet's totals as the server renders them
  // for these facts (_entry_form.html, _vote.html, _state.html, _sheet.html).
  function applyFacts(state, form) {
    var vote = document.getElementById("vote-form");
    setHidden(vote, !state.vote_pending);
    if (form) {
      form.hidden = !!state.vote_pending && !!vote;
      var out = state.sitting_out || [];
      var labels = (data.labels || {});
      // the games of the round (the others disabled with the round as the reason, or hidden)
      if (state.games) {
        var reason = t("notInRound", { round: (labels.rounds || {})[state.round] || state.round });
        form.querySelectorAll('input[name="game"]').forEach(function (radio) {
          var label = radio.closest("label");
          var allowed = state.games.indexOf(radio.value) >= 0;
          var known = state.games_disabled.indexOf(radio.value) >= 0;
          radio.disabled = !allowed;
          if (!allowed && radio.checked) radio.checked = false;
          label.hidden = !allowed && !known;
          label.classList.toggle("disabled", !allowed);
          var small = label.querySelector("small");
          if (known && !small) label.lastElementChild.appendChild(small = el("small"));
          if (small) small.textContent = known ? reason : "";
          if (small && !known) small.remove();
        });
        // in the server's order: the round's games, the disabled ones, the hidden ones
        var row = form.querySelector('input[name="game"]').closest(".pill-row");
        state.games.concat(state.games_disabled, state.games_hidden || []).forEach(function (game) {
          var input = row.querySelector('input[name="game"][value="' + game + '"]');
          if (input) row.appendChild(input.closest("label"));
        });
        // the marks that follow the table, as the server renders them (entry_facts.form_marks)
        var marks = state.marks || {};
        var declarer = form.querySelector('input[name="declarer"]');
        var declarerBox = declarer && declarer.closest("fieldset");
        if (declarerBox) declarerBox.dataset.games = marks.declarer;
        var suit = form.querySelector('input[name="suit"]');
        if (suit) suit.closest("fieldset").dataset.games = marks.suit;
        var bid = form.querySelector('input[name="bid"]');
        if (bid) bid.closest(".field").dataset.games = marks.bid;
        var deckel = form.querySelector("fieldset.deckel");
        if (deckel) {
          deckel.dataset.games = marks.deckel;
          deckel.dataset.defaultOne = marks.deckel_one;
        }
        // who sells his cards at five or six (001 §7.1/§7.2): the player dealt last
        if (state.seller && form.hasAttribute("data-seller")) form.dataset.seller = state.seller;
      }
      // who plays: the one sitting out dimmed, no Augen for him, the buyers of this deal
      form.querySelectorAll('input[name="declarer"], input[name="partner"]').forEach(function (radio) {
        radio.closest("label").classList.toggle("out", out.indexOf(radio.value) >= 0);
      });
      form.querySelectorAll("fieldset.mungo .row-fields input").forEach(function (input) {
        var name = input.closest(".field").querySelector("label").textContent.trim();
        input.closest(".field").hidden = out.indexOf(name) >= 0;
      });
      form.querySelectorAll('input[name="kontra_by"]').forEach(function (box) {
        box.closest("label").hidden = out.indexOf(box.value) >= 0;
        if (box.closest("label").hidden) box.checked = false;
      });
      form.querySelectorAll("[data-order] button[data-player]").forEach(function (b) {
        b.hidden = out.indexOf(b.dataset.player) >= 0;
      });
      form.querySelectorAll('input[name="bought_by"]').forEach(function (radio) {
        var buyer = !radio.value || (state.buyers || []).indexOf(radio.value) >= 0;
        radio.closest("label").hidden = !buyer;
        if (!buyer && radio.checked) radio.checked = false;
      });
    }
    renderState(state);
    renderTotals();
  }

  // _state.html for the facts of the phone's own fold.
  function renderState(state) {
    var box = document.querySelector("#table-live .table-state");
    if (!box) return;
    var labels = data.labels || {};
    var rounds = labels.rounds || {};
    var badge = function (text, css) { return el("span", { class: "badge" + (css ? " " + css : ""), text: text }); };
    var dealer = el("span", { class: "badge" }, [document.createTextNode(t("giver") + " "), el("strong", { text: state.dealer })]);
    var line = [dealer];
    if (state.sitting_out.length) line.push(badge(t("sittingOut") + " " + state.sitting_out.join(", ")));
    if (state.round !== "normal") {
      line.push(badge((rounds[state.round] || state.round) + (state.bock ? " · Bock ×" + state.bock_factor : ""), "round-" + state.round));
    }
    if (state.deckel_required) line.push(badge(t("deckelRequired"), "deckel"));
    if (state.vote_pending) line.push(badge(t("voteDue"), "alert"));
    if (state.stock) line.push(badge(t("stock") + " " + money(state.stock, false)));
    var parts = [el("p", {}, spaced(line))];
    if (state.pending_rounds.length) {
      var text = state.pending_rounds.map(function (r) {
        return (rounds[r.round] || r.round) + (r.games ? " (" + t("gamesLeft", { n: r.games }) + ")" : "") +
          " – " + (r.in_force ? t("running") : t("queued"));
      }).join("; ");
      parts.push(el("p", { class: "rounds" }, [el("small", { text: t("rounds") + " " + text })]));
    }
    if (state.stoeckle.length) {
      var games = labels.games || {};
      var rows = state.stoeckle.map(function (row) {
        var cells = row[1].length ? row[1].map(function (g) { return el("span", { class: "stoeckle-game", text: games[g] || g }); })
          : [el("em", { text: t("allPlayed") })];
        return el("tr", row[0] === state.must_play ? { class: "must-play" } : {}, [el("th", { scope: "row", text: row[0] }), el("td", {}, cells)]);
      });
      var panel = el("div", { class: "stoeckle" });
      if (state.must_play) {
        panel.appendChild(el("p", {}, [el("span", { class: "badge alert", text: t("mustPlay", { who: state.must_play }) })]));
      }
      panel.appendChild(el("table", { class: "stoeckle-table" }, [el("caption", { text: t("stoeckle") }), el("tbody", {}, rows)]));
      parts.push(panel);
    }
    box.replaceChildren.apply(box, parts);
    box.setAttribute("data-offline", "");
  }

  function spaced(nodes) {
    var out = [];
    nodes.forEach(function (node, i) { if (i) out.push(document.createTextNode(" ")); out.push(node); });
    return out;
  }

  // The sheet's sum row and the totals in the bar under the thumb: the stored totals and the
  // waiting entries' (the phone's own fold).
  function renderTotals() {
    if (!folded) return;
    data.players.forEach(function (name) {
      var value = folded.totals[name] || 0;
      document.querySelectorAll("[data-strip-total]").forEach(function (cell) {
        if (cell.getAttribute("data-strip-total") !== name) return;
        cell.textContent = money(value, false).replace("\u00a0€", "");
        cell.classList.toggle("neg", value < 0);
        cell.classList.toggle("pos", value > 0);
      });
    });
    var cells = document.querySelectorAll("#table-live .sheet-table thead tr.sum th.total");
    if (cells.length !== data.players.length) return;
    data.players.forEach(function (name, i) {
      var value = folded.totals[name] || 0;
      cells[i].textContent = money(value, false).replace("\u00a0€", "");
      cells[i].classList.toggle("neg", value < 0);
      cells[i].classList.toggle("pos", value > 0);
      cells[i].setAttribute("data-total", name);
    });
  }

  function freshKeys(used) {
    document.querySelectorAll("#table-live form").forEach(function (form) {
      var key = formTarget(form) && field(form, "idempotency_key");
      if (key && (used === null || used.indexOf(key.value) >= 0)) key.value = key.defaultValue = newKey();
    });
  }

  function enqueue(form, target, submitter) {
    status = "";
    return startEngine()
      .then(function (engine) {
        updateForms();
        var sub = submission(form, target, submitter);
        return call(engine, "preview", sub).then(function (check) { return [sub, check]; });
      })
      .then(function (checked) {
        var sub = checked[0];
        var check = checked[1];
        if (!check.ok && !check.unknown) {
          showPreview(form, check);
          return null; // the server would refuse it too: fix it first, nothing is queued
        }
        return records().then(function (list) {
          var keyField = field(form, "idempotency_key");
          var key = keyField && keyField.value ? keyField.value : newKey();
          var existing = list.find(function (r) { return r.key === key; });
          var last = list.length ? list[list.length - 1].seq : 0;
          var record = Object.assign(sub, {
            key: key,
            table: cfg.dataUrl,
            login: cfg.login,
            by: cfg.user,
            seq: existing ? existing.seq : last + 1,
            typedFor: nextNumber(),
            status: "waiting",
            entry: check.ok ? check.entry : null,
            what: check.ok ? lines(check.result) : "",
            unknown: !!check.unknown,
            savedAt: new Date().toISOString(),
          });
          return put(record).then(function () { return record; });
        });
      })
      .then(function (record) {
        if (!record) return;
        // The tap form starts afresh for the next hand (updateForms); any other form is emptied.
        if (form.id === "entry-form" && pristine) {
          renewNext = true;
          tapped = false;
        }
        else form.reset();
        status = t("saved", { n: record.typedFor });
        return refold().then(function () {
          freshKeys(null);
          nextHand(t("saved", { n: record.typedFor }));
        });
      }, function () { render(); });
  }

  // After a save or an undo offline the screen is where the server's answer puts it online
  // (score-entry.js): the table state on top, the game buttons focused, what happened in the bar.
  function nextHand(said) {
    var form = document.getElementById("entry-form");
    var preview = form && form.querySelector("#preview");
    if (preview) preview.textContent = t("hint");
    announce(said);
    var live = document.getElementById("table-live");
    var games = form && !form.hidden ? form.querySelector("fieldset.games") : null;
    var top = function (node) { return node.getBoundingClientRect().top + window.scrollY - 4; };
    if (live) window.scrollTo({ top: Math.max(top(live), 0), behavior: "instant" });
    if (!games) return;
    var bar = form.querySelector(".thumb-bar");
    var room = window.innerHeight - (bar ? bar.getBoundingClientRect().height : 0);
    if (games.getBoundingClientRect().bottom > room) window.scrollTo({ top: Math.max(top(games), 0), behavior: "instant" });
    var radio = games.querySelector("input:checked:not([disabled])") || games.querySelector("input:not([disabled])");
    if (radio) radio.focus({ preventScroll: true });
  }

  // A line in the bar under the thumb, where the server's messages stand online (_thumb_bar.html):
  // it goes with the next tap (score-entry.js), by itself or when tapped (page.js).
  function announce(text) {
    var form = document.getElementById("entry-form");
    var bar = form && !form.hidden ? form.querySelector(".thumb-bar") : null;
    if (!bar || !text) return;
    var old = bar.querySelector(".messages");
    if (old) old.remove();
    var box = el("section", { class: "messages", "aria-live": "polite" }, [
      el("p", { class: "message message-success", "data-dismiss": "", text: text }),
    ]);
    bar.insertBefore(box, bar.firstChild);
    box.dispatchEvent(new CustomEvent("htmx:load", { bubbles: true, detail: { elt: box } })); // page.js: goes by itself
  }

  // Issue 30: an entry still waiting on this phone taken back (the undo offline, or "Verwerfen" at
  // its row): it is never sent; the ones typed after it move up a number, and the form is the
  // server's for the table without it.
  function takeBack(record, said) {
    return records().then(function (all) {
      var later = all.filter(function (r) {
        return mine(r) && r.seq > record.seq && (r.status === "waiting" || r.status === "conflict");
      });
      return remove(record.key).then(function () {
        return Promise.all(later.map(function (r) {
          r.typedFor -= 1;
          if (r.sendAs) r.sendAs -= 1;
          return put(r);
        }));
      });
    }).then(function () {
      status = "";
      if (pristine) {
        renewNext = true;
        tapped = false;
      }
      return refold();
    }).then(function () {
      freshKeys(null);
      nextHand(said);
    });
  }

  // The last entry of this login still waiting on this phone (the one "rückgängig" takes back).
  function lastWaiting(list) {
    var open = list.filter(function (r) { return mine(r) && (r.status === "waiting" || r.status === "conflict"); });
    return open.length ? open[open.length - 1] : null;
  }

  // "Nr. 5 rückgängig" over the Liste, offline: it names the last entry waiting on the phone.
  function labelUndo(list) {
    document.querySelectorAll('form[action="' + cfg.undoUrl + '"] button[type=submit]').forEach(function (b) {
      if (!b.dataset.serverLabel) b.dataset.serverLabel = b.textContent;
      var last = offline ? lastWaiting(list) : null;
      b.textContent = last ? t("undoWaiting", { n: last.typedFor }) : b.dataset.serverLabel;
    });
  }

  function undoOffline() {
    return records().then(function (list) {
      var last = lastWaiting(list);
      if (!last) {
        announce(t("undoNeedsSignal"));
        return;
      }
      if (!window.confirm(t("undoConfirm", { n: last.typedFor, what: last.what || "" }))) return;
      return takeBack(last, t("undone", { n: last.typedFor, what: last.what || "" }));
    });
  }

  // Put a refused entry's fields back into its form, with its key: saving it there (online or
  // offline) replaces the refused one, so nothing typed is lost and nothing is stored twice.
  function loadIntoForm(record) {
    var forms = Array.prototype.filter.call(document.querySelectorAll("#table-live form"), function (f) {
      if (formTarget(f) !== record.target) return false;
      if (record.target === "event") return field(f, "event") && field(f, "event").value === (record.fields.prefix || [""])[0];
      return ("data" in record.fields) === !!f.elements.namedItem("data");
    });
    var form = forms[0];
    if (!form) return;
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.name === "csrfmiddlewaretoken" || el.type === "hidden") return;
      var values = record.fields[el.name] || [];
      if (el.type === "radio" || el.type === "checkbox") el.checked = values.indexOf(el.value) >= 0;
      else if (el.tagName === "SELECT" && el.multiple) {
        Array.prototype.forEach.call(el.options, function (o) { o.selected = values.indexOf(o.value) >= 0; });
      } else el.value = values.length ? values[0] : "";
    });
    field(form, "idempotency_key").value = record.key;
    // It goes right after the stored entries, before those still waiting behind it.
    var expected = field(form, "expected_number");
    if (expected && data) expected.value = String(data.log.length + 1);
    var details = form.closest("details");
    if (details) details.open = true;
    form.dispatchEvent(new Event("change", { bubbles: true }));
    form.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  // --- sending, when the signal is back ------------------------------------------------------------

  function body(record, expected, token) {
    var params = new URLSearchParams();
    Object.keys(record.fields).forEach(function (name) {
      if (/(^|-)expected_number$/.test(name)) return;
      record.fields[name].forEach(function (value) { params.append(name, value); });
    });
    var prefix = record.target === "event" && record.fields.prefix ? record.fields.prefix[0] + "-" : "";
    params.append(prefix + "expected_number", String(expected));
    params.append("target", record.target);
    params.append("login", record.login); // the server stores it only under that login
    // Dealt in turn when typed: the server puts in whoever is in turn where the entry lands.
    if (record.entry && !record.entry.event && !("dealer" in record.entry)) params.append("in_turn", "1");
    params.append("csrfmiddlewaretoken", token);
    return params;
  }

  function send(record, token) {
    var expected = record.sendAs || record.typedFor;
    var attempts = 0;
    function attempt() {
      attempts += 1;
      return fetch(cfg.sendUrl, {
        method: "POST",
        credentials: "same-origin",
        headers: { Accept: "application/json" },
        body: body(record, expected, token),
      }).then(function (response) {
        // A 403 that says "refused": this login may not write at this table (a championship
        // table has its Schreiber); a 410: the table is not there any more (an open tournament's
        // table handed back to paper). Shown at the entry like any refusal, not tried again.
        var refused = (response.status === 403 || response.status === 410) &&
          (response.headers.get("Content-Type") || "").indexOf("json") >= 0;
        if (response.redirected || (response.status !== 200 && !refused)) {
          throw new Error("send " + response.status);
        }
        return response.json().then(function (answer) {
          if (answer.status === "foreign") throw otherLogin();
          if (answer.status === "stale" && attempts < 5) {
            // Another phone entered meanwhile: the server's order wins, this one goes after.
            expected = answer.next;
            record.sendAs = expected;
            return attempt();
          }
          if (answer.status === "stored") {
            if (answer.number === record.typedFor) return remove(record.key).then(function () { return true; });
            record.status = "moved";
            record.stored = answer.number;
            return put(record).then(function () { return true; });
          }
          record.status = "conflict";
          record.errors = answer.errors || { __all__: [answer.status] };
          return put(record).then(function () { return false; });
        });
      });
    }
    return attempt();
  }

  // The table is not there any more (410 with the queue's "refused" answer): every entry of this
  // login still waiting for it is refused with the server's reason, shown at the entry; nothing
  // is sent again (issue 31 §9: not an endless "will retry" for a page that is gone).
  function tableGone(answer) {
    return records().then(function (all) {
      return Promise.all(waiting(all).map(function (record) {
        record.status = "conflict";
        record.errors = answer.errors || { __all__: [answer.status] };
        return put(record);
      }));
    }).then(function () {
      var error = new Error("table gone");
      error.gone = true;
      throw error;
    });
  }

  // The phone is logged in as another login than this page's (a login that expired and another
  // one on this phone since): this page sends nothing under it.
  function otherLogin() {
    var error = new Error("another login");
    error.otherLogin = true;
    return error;
  }

  function sync() {
    if (syncing || offline) return Promise.resolve();
    syncing = true;
    var answered = false; // the server stored or refused something: show its sheet
    // Entries stored by this sending (said until tapped away, issue 30): kept at once, so a
    // reload in the middle of sending loses none of the count.
    function counted(n) { if (n) sessionStorage.setItem(sentKey, String(sentCount() + n)); }
    return records()
      .then(function (all) {
        var list = all.filter(mine);
        if (!list.some(function (r) { return r.status === "waiting" || r.status === "conflict"; })) return;
        return fetchData().then(function (doc) {
          if (doc.login !== cfg.login) throw otherLogin();
          // What the server has already (a lost answer, a refused entry fixed in the form) goes.
          var gone = list.filter(function (r) { return r.status !== "moved" && doc.keys.indexOf(r.key) >= 0; });
          answered = gone.length > 0;
          // A waiting one the server has was sent by this phone and its answer lost (the page
          // reloaded while sending, the signal dropped again): it went, so it is counted.
          counted(gone.filter(function (r) { return r.status === "waiting"; }).length);
          return Promise.all(gone.map(function (r) { return remove(r.key); }))
            .then(records)
            .then(function (rest) {
              var chain = Promise.resolve(true);
              rest.filter(mine).forEach(function (record) {
                if (record.status !== "waiting" && record.status !== "conflict") return;
                chain = chain.then(function (goOn) {
                  // In order: after a refusal the later entries wait until it is fixed.
                  if (!goOn || record.status === "conflict") return false;
                  status = t("sending");
                  render();
                  return send(record, doc.csrf_token).then(function (ok) {
                    answered = true;
                    if (ok) counted(1);
                    return ok;
                  });
                });
              });
              return chain;
            });
        });
      })
      .then(function () {
        status = "";
        syncing = false;
        // The page as the server has it now: the sheet with the sent entries and their amounts,
        // the form for the round in force (a refused entry stays in the queue, shown again).
        // Loaded anew, not reloaded: a reload would put it back where it was scrolled, at the
        // Liste now that the queue above the form is gone (issue 30); it opens at the next hand.
        if (answered) window.location.replace(window.location.pathname + window.location.search);
        else return refold();
      }, function (error) {
        console.warn("offline send:", error);
        syncing = false;
        status = error.gone ? "" : t(error.otherLogin ? "otherLogin" : "retry");
        return refold();
      });
  }

  // --- showing it -------------------------------------------------------------------------------

  function money(value, signed) {
    if (value === null || value === undefined) return "–";
    var text = cfg.unit === "cent"
      ? new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value / 100) + "\u00a0€"
      : new Intl.NumberFormat(lang).format(value);
    return (signed && value > 0 ? "+" : "") + text;
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (name) {
      if (name === "text") node.textContent = attrs.text;
      else node.setAttribute(name, attrs[name]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }

  function sign(value) { return value > 0 ? "pos" : value < 0 ? "neg" : ""; }

  // The engine's suit words as the table's rule book says them ("Solo Gras" → "Solo Laub"
  // under Allgäu), as the server's lines do (scoring.labels.club_words).
  var suitWords = JSON.parse(cfg.suitWords || "{}");
  function clubWords(text) {
    Object.keys(suitWords).forEach(function (word) {
      text = text.replace(new RegExp("(^|[^\\wäöüß])" + word + "(?![\\wäöüß])", "g"), "$1" + suitWords[word]);
    });
    return text;
  }

  function lines(result) {
    return result.lines.map(function (line) {
      return clubWords(line.label) + (line.amount !== undefined ? " " + line.amount : "");
    }).join(" · ");
  }

  // ``list``: the list's entries (Skat: the declarer's, in points) instead of the payouts.
  function payoutRow(result, players, list) {
    return el("tr", {}, players.map(function (name) {
      var value = list ? result.list[name] || 0 : result.payouts[name];
      var out = result.sitting_out.indexOf(name) >= 0;
      var text = list ? (value ? (value > 0 ? "+" : "") + new Intl.NumberFormat(lang).format(value) : "") : money(value, true);
      return el("td", { class: sign(value) + (out ? " out" : ""), "data-player": name, "data-amount": String(value) }, [
        el("small", { text: name }),
        el("strong", { text: text }),
      ]);
    }));
  }

  // The server's reasons, each after the label of its field as the page shows it.
  function errorText(record) {
    return Object.keys(record.errors || {}).map(function (name) {
      var input = document.querySelector('#table-live form [name="' + name + '"]');
      var box = input && (input.closest("fieldset") || input.closest(".field"));
      var label = box && box.querySelector("legend, label");
      var text = record.errors[name].join(" ");
      return label && name !== "__all__" ? label.textContent.trim() + ": " + text : text;
    }).join(" ");
  }

  function button(label, action) {
    var b = el("button", { type: "button", class: "outline secondary", text: label });
    b.addEventListener("click", action);
    return b;
  }

  // Another login's entries of this table, typed on this phone: shown, never sent silently.
  // A login that may write here may send one as its own (it is then stored under this login)
  // or discard it; left alone, the login that typed it sends it when it is logged in here again.
  function renderForeign(foreign) {
    if (!foreign.length) return;
    var canWrite = !!cfg.canWrite;
    root.appendChild(el("h2", { text: t("foreignHeading") }));
    foreign.forEach(function (record) {
      var text = t("foreign", { n: record.sendAs || record.typedFor, by: record.by ? "\u201e" + record.by + "\u201c" : t("someone") });
      root.appendChild(el("div", { class: "offline-foreign", "data-key": record.key }, [
        el("p", {}, [document.createTextNode(text), el("br"), el("small", { text: record.what || "" })]),
        canWrite ? button(t("adopt"), function () {
          if (!window.confirm(t("adoptConfirm"))) return;
          // It keeps its place in the order typed and the number it was typed as.
          record.login = cfg.login;
          record.by = cfg.user;
          put(record).then(refold).then(function () {
            if (offline) startEngine();
            return sync();
          });
        }) : null,
        canWrite ? button(t("discard"), function () {
          if (window.confirm(t("discardConfirm"))) remove(record.key).then(refold);
        }) : null,
      ]));
    });
  }

  function sentCount() { return Number(sessionStorage.getItem(sentKey) || 0); }

  // "3 Einträge übertragen" on top of the table, after the queue went, until it is tapped away.
  function renderSent() {
    var live = document.getElementById("table-live");
    var shown = document.getElementById("offline-sent");
    var n = sentCount();
    if (!n || offline || !live) {
      if (shown) shown.remove();
      return;
    }
    var text = n === 1 ? t("sentOne") : t("sentMany", { n: n });
    if (shown && shown.parentNode === live) {
      shown.firstChild.textContent = text + " ";
      return;
    }
    if (shown) shown.remove();
    var note = el("p", { id: "offline-sent", class: "notice offline-sent", role: "status" }, [
      document.createTextNode(text + " "),
      button(t("dismiss"), function () {
        sessionStorage.removeItem(sentKey);
        renderSent();
      }),
    ]);
    live.insertBefore(note, live.firstChild);
  }

  // Without signal the Liste button in the bar says so (no line more above the form: issue 30).
  function markBar() {
    document.querySelectorAll(".thumb-bar .to-sheet").forEach(function (link) {
      var mark = link.querySelector(".offline-mark");
      if (offline && !mark) link.appendChild(el("small", { class: "offline-mark", text: t("offlineMark") }));
      if (!offline && mark) mark.remove();
    });
  }

  function render(all) {
    if (!all) return records().then(render);
    // Issue 30: what waits on the phone stands above the Liste, under the form: the form keeps its
    // place between the table state and the bar, online and offline alike.
    var slot = document.getElementById("offline-slot");
    if (slot && root.parentNode !== slot) slot.appendChild(root);
    labelUndo(all);
    renderSent();
    markBar();
    var list = all.filter(mine);
    var foreign = all.filter(function (r) { return !mine(r) && r.status !== "moved"; });
    var players = data ? data.players : [];
    var open = list.filter(function (r) { return r.status !== "moved"; });
    var notes = list.filter(function (r) { return r.status === "moved"; });
    root.replaceChildren();
    root.hidden = !(offline || list.length || foreign.length || status);
    if (offline) root.appendChild(el("p", { class: "offline-banner", text: t("offline") }));
    if (status) root.appendChild(el("p", { class: "offline-status", text: status }));
    renderForeign(foreign);
    notes.forEach(function (record) {
      // Stored under a smaller number: an entry was deleted meanwhile, nobody entered one.
      var why = record.stored < record.typedFor ? "movedUp" : "moved";
      root.appendChild(el("p", { class: "offline-note", "data-moved": String(record.stored) }, [
        document.createTextNode(t(why, { typed: record.typedFor, stored: record.stored }) + " "),
        button(t("dismiss"), function () { remove(record.key).then(refold); }),
      ]));
    });
    if (!open.length) return;
    var results = folded ? folded.entries : [];
    var index = 0;
    var blocked = null;
    var rows = open.map(function (record) {
      var cells = [];
      var result = null;
      if (record.status === "waiting") {
        var folding = results[index++];
        result = folding && folding.ok ? folding.result : null;
      }
      var state;
      if (record.status === "conflict") {
        state = el("div", { class: "offline-conflict", role: "alert" }, [
          el("p", { text: t("conflict", { reason: errorText(record) }) }),
          button(t("fix"), function () { loadIntoForm(record); }),
          button(t("discard"), function () {
            if (window.confirm(t("discardConfirm"))) remove(record.key).then(refold);
          }),
        ]);
        blocked = blocked || record.typedFor;
      } else {
        var badge = el("span", { class: "badge offline-waiting", text: blocked ? t("blocked", { n: blocked }) : t("waiting") });
        // Thrown away before it is sent (issue 30): never sent, the later ones move up a number.
        var discard = button(t("discard"), function () {
          var n = record.typedFor;
          if (window.confirm(t("discardConfirm"))) takeBack(record, t("discarded", { n: n }));
        });
        discard.classList.add("offline-discard");
        state = el("span", {}, [badge, discard]);
      }
      var what = result ? lines(result) : record.unknown ? t("amountLater") : record.what || "";
      cells.push(el("td", { text: String(record.sendAs || record.typedFor) }));
      cells.push(el("td", { class: "what" }, [document.createTextNode(what), state]));
      players.forEach(function (name) {
        var value = result ? result.payouts[name] : null;
        // bare amounts, as the Liste's: the five or six columns fit a 390 px phone without cutting a digit
        var text = money(value, true).replace("\u00a0€", "");
        cells.push(el("td", { class: "num " + sign(value || 0), "data-player": name, "data-amount": value === null ? "" : String(value), text: text }));
      });
      return el("tr", { class: "offline-entry offline-" + record.status, "data-key": record.key }, cells);
    });
    // Short names, as the Liste's columns: the queue fits a 390 px phone (issue 21).
    var shortNames = JSON.parse(cfg.shortNames || "{}") || {};
    var head = el("tr", {}, [el("th", { text: "Nr." }), el("th", { text: "" })].concat(players.map(function (name) {
      return el("th", { class: "num", title: name, text: shortNames[name] || name });
    })));
    var totals = folded ? folded.totals : {};
    var sum = el("tr", { class: "sum" }, [el("th"), el("th", { text: t("totals") })].concat(players.map(function (name) {
      return el("th", { class: "num " + sign(totals[name] || 0), "data-total": name, text: folded ? money(totals[name], false).replace("\u00a0€", "") : "" });
    })));
    root.appendChild(el("h2", { text: t("heading") }));
    root.appendChild(el("div", { class: "overflow-auto" }, [
      el("table", { class: "sheet-table offline-queue" }, [el("thead", {}, [head, sum]), el("tbody", {}, rows.reverse())]),
    ]));
    if (folded && offline) root.appendChild(el("p", { "data-dealer": "", text: t("dealer", { name: folded.state.dealer }) }));
  }

  function showPreview(form, answer) {
    var box = form.querySelector("#preview");
    if (!box) return;
    box.replaceChildren();
    if (answer.ok) {
      var players = data.players;
      if (answer.result.list) {
        // A kept list (Skat): the game value and what the list writes, as the server's preview.
        box.appendChild(el("p", { class: "game-value" }, [el("strong", { text: t("value", { value: answer.result.value }) })]));
      }
      box.appendChild(el("table", { class: "payouts", "data-offline": "" }, [el("tbody", {}, [payoutRow(answer.result, players, !!answer.result.list)])]));
      var rounds = (data.labels || {}).rounds || {};
      var prefix = answer.result.round !== "normal" ? (rounds[answer.result.round] || answer.result.round) + ": " : "";
      box.appendChild(el("p", { class: "lines" }, [el("small", { text: prefix + lines(answer.result) })]));
      var triggered = answer.result.triggered || [];
      if (triggered.length) {
        var said = triggered.map(function (k) { return ((data.labels || {}).triggers || {})[k] || k; }).join(", ");
        box.appendChild(el("p", { class: "lines triggers" }, [el("strong", { text: t("triggers") + " " + said })]));
      }
      if (!cfg.firstPreviewMs) cfg.firstPreviewMs = String(Math.round(performance.now()));
    } else if (answer.unknown) {
      box.appendChild(el("p", {}, [el("small", { text: t("unknown") })]));
    } else if (answer.error.code === "missing_field" && answer.error.field === "game") {
      box.appendChild(el("p", {}, [el("small", { text: t("hint") })]));
    } else if (answer.error.code === "missing_field") {
      box.appendChild(el("p", { "data-offline": "" }, [el("small", { text: t("missing", { what: answer.error.message }) })]));
    } else {
      box.appendChild(el("p", { class: "field-error", "data-offline": "" }, [el("small", { text: answer.error.message })]));
    }
  }

  var timer = null;
  function schedulePreview(event) {
    if (!offline) return;
    var form = event.target.closest && event.target.closest("#entry-form");
    if (!form) return;
    clearTimeout(timer);
    timer = setTimeout(function () {
      if (!ready) {
        // Opened without signal: the form is there at once, the engine a moment later.
        var box = form.querySelector("#preview");
        if (box) box.replaceChildren(el("p", { class: "offline-status" }, [el("small", { text: t("loading") })]));
      }
      startEngine().then(function (engine) {
        return call(engine, "preview", submission(form, "entry"));
      }).then(function (answer) { showPreview(form, answer); });
    }, 150);
  }

  // --- wiring ---------------------------------------------------------------------------------------

  function goOffline() {
    if (offline) return;
    offline = true;
    // Started in the background while online, the engine is ready: the fold only puts the
    // page's form in offline hands (applyFacts). Folded already with nothing waiting (the usual
    // case online), the page applies that fold itself: the worker stays free for the first
    // offline preview (issue 33: at CPU ÷ 4 the two queued behind each other).
    var fold = function () { return startEngine().then(foldWith); };
    if (ready && table && folded && !folded.entries.length) {
      records().then(function (list) {
        if (!ready || waiting(list).length) return fold();
        render(list);
        updateForms();
      }).catch(function () {});
    } else {
      fold().catch(function () {});
    }
    render();
  }

  // Saving without signal: the queue instead of htmx (capture: before htmx sees the submit).
  document.addEventListener("submit", function (event) {
    if (offline && cfg.undoUrl && event.target.getAttribute && event.target.getAttribute("action") === cfg.undoUrl) {
      // Without signal "rückgängig" takes back what waits on this phone (the server's needs the signal).
      event.preventDefault();
      event.stopImmediatePropagation();
      undoOffline();
      return;
    }
    var target = formTarget(event.target);
    if (!target || !offline) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    // the vote's buttons carry its choice (a button that submits names itself in the form data)
    var submitter = event.submitter && event.submitter.name ? event.submitter : null;
    enqueue(event.target, target, submitter);
  }, true);
  // No requests while offline (the preview is the engine's then) ...
  document.addEventListener("htmx:beforeRequest", function (event) {
    if (offline) event.preventDefault();
  });
  // ... and a save that found no network goes into the queue.
  document.addEventListener("htmx:sendError", function (event) {
    var elt = event.detail.elt;
    goOffline();
    var target = formTarget(elt);
    var clicked = document.activeElement;
    var submitter = clicked && clicked.form === elt && clicked.name ? clicked : null;
    if (target) enqueue(elt, target, submitter);
  });
  document.addEventListener("input", schedulePreview, true);
  ["input", "change"].forEach(function (type) {
    document.addEventListener(type, function (event) {
      if (event.isTrusted && event.target.closest && event.target.closest("#entry-form")) tapped = true;
    }, true);
  });
  document.addEventListener("change", schedulePreview, true);
  // Online, keep the phone's copy of the page and the log as fresh as the screen.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (offline || !event.detail.target || event.detail.target.id !== "table-live") return;
    prime(true).then(refreshEngine);
    sync();
  });
  window.addEventListener("offline", goOffline);
  window.addEventListener("online", function () {
    offline = false;
    render();
    sync();
  });

  // Keep the phone's copy of the table's log current; on the visit that installed the service
  // worker, the page itself came from the network before the worker was there: fetch it again.
  function prime(page) {
    if (offline) return Promise.resolve();
    if (page) fetch(window.location.pathname, { credentials: "same-origin" }).catch(function () {});
    return fetchData().catch(function () {});
  }
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.addEventListener("controllerchange", function () {
      prime(true);
      startInBackground();
    });
  }
  if (fromCache) cfg.fromCache = "1"; // the browser tests read it
  // Opened without signal: the worker starts at once (or was started while the page was parsed),
  // beside reading the queue and the log.
  if (offline || fromCache) startPython().catch(function () {});

  records().then(function (list) {
    if (!list.length) prime(false);
    // A page from the cache still carries the key of an entry already in the queue.
    freshKeys(list.map(function (r) { return r.key; }));
    if (offline || fromCache || list.some(function (r) { return mine(r) && r.status !== "moved"; })) startEngine();
    else {
      render(list);
      if (document.readyState === "complete") startInBackground();
      else window.addEventListener("load", startInBackground);
    }
    if (!offline) sync();
  });
})();
