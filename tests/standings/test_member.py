"""Statistics of one member agree with counting the member's hands one by one."""

from collections import Counter, defaultdict

from scoring.models import LedgerEntry, Session
from standings.selectors import Period, member_statistics
from tools.synthetic import History


def test_statistics_equal_counting_hand_by_hand(history: History, points_history: History) -> None:
    member = history.members[0]
    stats = member_statistics(member=member, period=Period.all_time())
    rows = list(LedgerEntry.objects.filter(member=member).select_related("entry"))
    played = [r for r in rows if r.won is not None]

    by_unit = defaultdict(list)
    for r in rows:
        by_unit[r.unit].append(r)
    assert [f.unit for f in stats.units] == ["cent", "point"]
    for figures in stats.units:
        mine = by_unit[figures.unit]
        assert figures.total == sum(r.amount for r in mine)
        assert figures.games == sum(r.won is not None for r in mine)
        assert figures.won == sum(r.won is True for r in mine)
        wins = [r.amount for r in mine if r.won is not None and r.amount > 0]
        losses = [r.amount for r in mine if r.won is not None and r.amount < 0]
        assert figures.biggest_win == (max(wins) if wins else None)
        assert figures.biggest_loss == (min(losses) if losses else None)
        evenings = Counter()
        for r in mine:
            evenings[r.session_id] += r.amount
        best = max(evenings.values())
        worst = min(evenings.values())
        assert (figures.best_evening.amount if figures.best_evening else None) == (best if best > 0 else None)
        assert (figures.worst_evening.amount if figures.worst_evening else None) == (worst if worst < 0 else None)

    declared = [r for r in rows if r.role == "declarer"]
    games = Counter(r.entry.game for r in declared)
    assert {g.game: g.played for g in stats.declarer_games} == dict(games)
    assert {g.game: g.won for g in stats.declarer_games} == {
        game: sum(r.won is True for r in declared if r.entry.game == game) for game in games
    }
    assert stats.declarer_total.played == len(declared)

    c = stats.counts
    assert c["partner_games"] == sum(r.role == "partner" for r in rows)
    assert c["partner_won"] == sum(r.role == "partner" and r.won is True for r in rows)
    assert c["solos"] == sum(r.entry.solo for r in declared)
    assert c["solos_won"] == sum(r.entry.solo and r.won is True for r in declared)
    assert c["tout"] == sum(r.entry.tout for r in declared)
    assert c["sie"] == sum(r.entry.game == "sie" for r in declared)
    sides = [r for r in rows if r.role in ("declarer", "partner")]
    assert c["laufende"] == sum(r.entry.laufende for r in sides)
    assert c["laufende_hands"] == sum(r.entry.laufende > 0 for r in sides)
    assert c["schneider_for"] == sum(r.entry.schneider and r.won is True for r in played)
    assert c["schneider_against"] == sum(r.entry.schneider and r.won is False for r in played)
    assert c["schwarz_for"] == sum(r.entry.schwarz and r.won is True for r in played)
    assert c["schwarz_against"] == sum(r.entry.schwarz and r.won is False for r in played)

    assert stats.evenings_played == len({r.session_id for r in rows})
    assert stats.club_evenings == Session.objects.filter(club=history.club).count()
    assert 0 < stats.attendance <= 1


def test_an_evening_counts_only_that_evening(history: History) -> None:
    session = Session.objects.filter(club=history.club).order_by("date").last()
    member = LedgerEntry.objects.filter(session=session).first().member
    stats = member_statistics(member=member, period=Period.evening(session))
    assert stats.units[0].total == sum(r.amount for r in LedgerEntry.objects.filter(session=session, member=member))
    assert (stats.evenings_played, stats.club_evenings) == (1, 1)


def test_a_member_who_did_not_play(history: History, world) -> None:
    stats = member_statistics(member=history.members[0], period=Period.season(2019))
    assert stats.units == [] and stats.declarer_games == []
    assert stats.attendance is None
