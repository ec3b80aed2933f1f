"""The rules the page walk (tests/e2e/pagewalk.py) reads a page by, checked on words alone: what
it must find, and what it must let pass (the game's own terms, the club's names)."""

from tests.e2e import pagewalk


def test_keys_sections_and_raw_choices_are_found() -> None:
    found = pagewalk.code_words(
        ["Grundpreis Rufspiel", "price_rufspiel", "Pokale (001 §11.6)", "(raw choice) pflicht", "Regel: allgaeu"],
        keys={"price_rufspiel", "allgaeu", "games"},
        values={"pflicht"},
    )
    assert len(found) == 4
    # A key that is an English word of its own is not a key in a sentence.
    assert pagewalk.code_words(["32 games per round", "(raw choice) Zenzi Mayr"], keys={"games"}) == []


def test_german_is_found_but_not_the_games_words_or_the_clubs_names() -> None:
    assert pagewalk.german_words(["Wertungszettel (PDF)", "Tisch 1"], data=[]) == [
        "Wertungszettel: Wertungszettel (PDF)",
        "Tisch: Tisch 1",
    ]
    passing = ["Rufspiel with Zenzi Mayr, 2 Laufende", "Rimini-Runde", "Muss-Spiel: no Stoß allowed", "Schützenheim"]
    assert pagewalk.german_words(passing, data=["Zenzi Mayr", "Schützenheim"]) == []


def test_one_date_format_per_page() -> None:
    assert pagewalk.date_formats(["30.10.2026", "02.10.2026 Krone"]) == []
    assert pagewalk.date_formats(["30.10.2026", "best evening 10/02/2026", "Nov. 28, 2026"]) != []
