"""Issue 30 item 4: every stored hand reopens in its correction form as it was entered, and saved
unchanged it is the very same facts (the view then writes nothing, ``test_unchanged_correction``).

Properties (hypothesis) over every preset, at random points of a random evening (Bock-, Mungo-,
Stöckles- and Gardareizrunden, tables of five with bought cards):

- a hand tapped into the Schafkopf form and stored reopens in that form with the same buttons and
  fields selected, and read back it is identical to what was stored;
- every sampled hand of every family (``scoring.engine.samples``: what an import or a script
  stores) reopens in the form ``entry_form_class`` picks for it (the tap form, or JSON where the
  tap form cannot show it) and read back it is the same facts.

Pure forms and the engine: no database.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import safejson
from scoring.engine import registry
from scoring.engine.core import EngineError
from scoring.engine.entry_facts import TIE_AUGEN, declarer_kinds
from scoring.engine.presets.schafkopf import SchafkopfRules
from scoring.engine.presets.schafkopf_games import CALLABLE, GAMES, KONTRA_KINDS, SUITS
from scoring.engine.samples import random_hand, seated_hand
from scoring.engine.session import TableState, advance, preview, start
from scoring.forms.entry import EntryContext
from scoring.forms.families import as_post
from scoring.forms.hand import RESULT_CHOICES, HandForm, RawEntryForm, entry_form_class
from scoring.selectors import TableSetup
from tests.properties import examples

PLAYERS = ("Sepp", "Zenzi", "Girgl", "Vroni", "Kathi", "Hias")
ALLGAEU_BOCK = {"preset": "allgaeu", "options": {"bock_triggers": ["6060", "3090", "schwarz"]}}
# (rules, players): every preset, and the tables whose forms differ (five with bought cards, a
# Dreihaxer, the rounds and tie lines a club turns on).
TABLES: list[tuple[Any, int]] = [
    *((name, 4) for name in registry.PRESETS if name not in ("skat", "skat-seeger")),
    ("allgaeu", 5),
    (ALLGAEU_BOCK, 4),
    ({"preset": "standard", "options": {"steigern": True, "max_kontra": 4}}, 4),
    ("saukopf", 3),
    ("skat", 3),
    ("skat-seeger", 3),
]


def evening(rules: Any, seats: int, rng: random.Random) -> tuple[TableSetup, TableState]:
    """The table after a random stretch of an evening: hands of the engine's mix for the round in
    force, the votes it asks for, now and then an event."""
    ruleset, table = registry.load_with_table(rules)
    players = PLAYERS[:seats]
    setup = TableSetup(ruleset, table, players, players[0], {})
    state = start(ruleset, table, players, players[0])
    for _ in range(rng.randint(0, 30)):
        entry = next_entry(setup, state, rng)
        try:
            _result, state = advance(ruleset, table, state, entry)
        except EngineError:
            continue
    return setup, state


def next_entry(setup: TableSetup, state: TableState, rng: random.Random) -> dict[str, Any]:
    if state.vote_pending:
        return {"event": "vote", "choice": rng.choice(("mungorunde", "bockrunde"))}
    if rng.random() < 0.05:
        return {"event": rng.choice(("vergeben", "zusammengeworfen"))}
    return sample(setup, state, rng)


def sample(setup: TableSetup, state: TableState, rng: random.Random) -> dict[str, Any]:
    if isinstance(setup.ruleset, SchafkopfRules):
        stoeckle = dict(state.stoeckle) if state.stoeckle else None
        return seated_hand(setup.ruleset, rng, state.seats, state.buyers, state.round, stoeckle)
    return random_hand(setup.ruleset, rng, state.seats)


def accepted(setup: TableSetup, state: TableState, facts: dict[str, Any]) -> bool:
    try:
        preview(setup.ruleset, setup.rules, state, facts)
    except EngineError:
        return False
    return True


def reopened(context: EntryContext, facts: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """The correction form for stored ``facts``, as the browser posts it back unchanged."""
    form_class = entry_form_class(context, facts)
    if form_class is RawEntryForm:
        initial = {"data": safejson.dumps_printable(facts)}
    elif hasattr(form_class, "initial_from"):
        initial = form_class.initial_from(facts, context)
    else:  # an event
        initial = dict(facts)
    return form_class, initial


def read_back(context: EntryContext, facts: dict[str, Any]) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    form_class, initial = reopened(context, facts)
    form = form_class(as_post(initial), context=context)
    assert form.is_valid(), (facts, initial, form.errors)
    return form, initial, form.to_data()


# --- a hand tapped into the Schafkopf form ---------------------------------------------------------


def tapped(form: HandForm, state: TableState, rng: random.Random) -> dict[str, Any]:
    """What a Schreiber taps for one hand: only the fields the chosen game shows."""
    game = rng.choice(form.games)
    kind = GAMES[game].kind
    post: dict[str, Any] = {"game": game, "dealer": state.dealer}
    if rng.random() < 0.1:
        post["dealer"] = rng.choice(state.players)  # dealt out of turn (001 §8.4)
    if kind in declarer_kinds(state):
        post["declarer"] = rng.choice(state.seats)
    if kind == "partner":
        post["partner"] = rng.choice([s for s in state.seats if s != post["declarer"]])
        post["called"] = rng.choice(CALLABLE)
    if GAMES[game].needs_suit:
        post["suit"] = rng.choice(SUITS)
    tout = kind == "solo" and rng.random() < 0.15
    if tout:
        post["tout"] = True
    if kind == "bettel" or tout:
        post["result"] = rng.choice(("won", "lost"))
    elif kind in ("partner", "solo"):
        roll = rng.random()
        if roll < 0.3 and form.ties:
            post["result"] = rng.choice(form.ties)[0]
        elif roll < 0.6:
            post["result"] = rng.choice(RESULT_CHOICES)[0]
        else:
            post["augen"] = rng.choice((0, 30, 31, 60, 61, 90, 91, 120, rng.randint(0, 120)))
            if rng.random() < 0.5:
                post["result"] = rng.choice(RESULT_CHOICES)[0]
        ober_unter = form.rules.opt("laufende_ober_unter_only")
        most = GAMES[game].max_laufende(ober_unter)
        if most and rng.random() < 0.5:
            post["laufende"] = rng.randint(0, most)
    if "kontra" in form.fields and kind in KONTRA_KINDS and rng.random() < 0.3:
        post["kontra"] = rng.randint(1, form.rules.opt("max_kontra"))
    if kind in ("ramsch", "leasters"):
        if rng.random() < 0.5:
            shares = [rng.randint(0, 40) for _ in state.seats]
            shares[-1] = 120 - sum(shares[:-1])
            for name, augen in zip(state.seats, shares, strict=True):
                post[f"augen_{state.players.index(name)}"] = augen
        else:
            order = list(state.seats)
            rng.shuffle(order)
            post["augen_order"] = safejson.dumps_printable([[name] for name in order])
        if "kontra_by" in form.fields and rng.random() < 0.2:
            post["kontra_by"] = rng.sample(list(state.seats), rng.randint(1, 2))
    if "deckel" in form.fields and form.deckel:
        post["deckel"] = rng.randint(0, form.rules.opt("max_deckel"))
    bid_shown = kind in form.options["bid_kinds"] and (form.options["bid_with_tout"] or not tout)
    if "bid" in form.fields and bid_shown and rng.random() < 0.7:
        post["bid"] = rng.randrange(62, 122, 2)
    if "bought_by" in form.fields and state.buyers and rng.random() < 0.3:
        post["bought_by"] = rng.choice(state.buyers)
    if "fehler_by" in form.fields and rng.random() < 0.05:
        post["fehler_by"] = rng.choice(state.seats)
    return post


def as_entered(form: HandForm, post: dict[str, Any]) -> dict[str, Any]:
    """The buttons and fields the reopened form must show selected: what was tapped, except Augen
    typed on a tie line with no result, which are the very facts that line's button stores and so
    reopen as that button (docs/score-sheet.md, "A correction reopens as entered")."""
    out = dict(post)
    line = {augen: value for value, augen in TIE_AUGEN.items()}.get(out.get("augen"))
    if "result" not in out and line in {value for value, _label in form.ties}:
        out["result"] = line
        del out["augen"]
    return out


@settings(max_examples=examples(400), deadline=None)
@given(table=st.sampled_from([t for t in TABLES if t[0] not in ("saukopf", "doppelkopf", "skat", "skat-seeger")]),
       seed=st.integers(0, 2**32))  # fmt: skip
def test_a_tapped_hand_reopens_as_it_was_tapped_and_reads_back_identical(table: tuple[Any, int], seed: int) -> None:
    rng = random.Random(seed)
    setup, state = evening(*table, rng)
    if state.vote_pending:
        return
    context = EntryContext(setup, state, state.entries + 1)
    for _ in range(5):
        post = tapped(HandForm(context=context), state, rng)
        entered = HandForm(as_post(post), context=context)
        if not entered.is_valid():
            continue
        facts = entered.to_data()
        if not accepted(setup, state, facts):
            continue
        assert entry_form_class(context, facts) is HandForm, facts  # never the JSON editor
        form, initial, typed = read_back(context, facts)
        assert safejson.identical(typed, facts), (post, facts, typed)
        expected = as_entered(form, post)
        shown = {key: initial.get(key) for key in expected}
        assert {k: str(v) for k, v in shown.items()} == {k: str(v) for k, v in expected.items()}, (post, initial)
        hidden = set(initial) - set(expected)
        # A field not tapped opens empty or at its default (no augen beside a tie-line button).
        assert all(initial[key] in (None, "", 0, False, [], state.dealer) for key in hidden), (post, initial)


@settings(max_examples=examples(400), deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32))
def test_every_stored_hand_reads_back_as_the_same_facts(table: tuple[Any, int], seed: int) -> None:
    rng = random.Random(seed)
    setup, state = evening(*table, rng)
    if state.vote_pending:
        return
    context = EntryContext(setup, state, state.entries + 1)
    for _ in range(5):
        facts = sample(setup, state, rng)
        if not accepted(setup, state, facts):
            continue
        form, _initial, typed = read_back(context, facts)
        assert form.same_facts(typed, facts), (facts, typed)


def first_hand(rules: Any) -> EntryContext:
    ruleset, table = registry.load_with_table(rules)
    players = PLAYERS[:4]
    return EntryContext(
        TableSetup(ruleset, table, players, players[0], {}), start(ruleset, table, players, players[0]), 1
    )


def test_a_90_30_hand_reopens_with_its_button_selected() -> None:
    """The case of the issue: saved with the 90:30 button, it opens with the button, no Augen."""
    context = first_hand("allgaeu")
    state = context.state
    facts = {"game": "rufspiel", "declarer": state.seats[0], "partner": state.seats[1], "called": "eichel", "augen": 90}
    initial = HandForm.initial_from(facts, context)
    assert initial["result"] == "a90" and "augen" not in initial
    assert HandForm.initial_from({**facts, "result": "won"}, context)["augen"] == 90  # counted and tapped


def test_a_counted_schwarz_without_a_result_reopens_with_its_button() -> None:
    """120 Augen and 8 Stiche with no result (an import, the demo): "Schwarz" tapped beside the Augen,
    which the form sends as the result the engine reads from them anyway: the same facts."""
    context = first_hand("allgaeu")
    state = context.state
    facts = {"game": "solo", "suit": "eichel", "declarer": state.seats[0], "augen": 120, "tricks": 8, "deckel": 1}
    form, initial, typed = read_back(context, facts)
    assert initial["result"] == "won_schwarz" and initial["augen"] == 120
    assert typed == {**facts, "result": "won_schwarz"} and form.same_facts(typed, facts)
    assert not form.same_facts({**typed, "augen": 119}, facts)
