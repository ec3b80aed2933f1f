"""Standings, statistics, charts and their downloads. Read-only: every view is a GET for any
member of the club (clubs/access.py), picks the period from the query (forms_stats.PeriodForm),
calls a selector and renders it as a page, an SVG chart, a PDF or a workbook.

The standings page links its charts as images (their own requests), so the page itself costs
one GROUP BY over the ledger; the PDFs embed the same SVG inline.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.access import ClubAccess, Need, club_view
from clubs.ids import parse_id
from clubs.models import Club, Member
from clubs.tables import configure_table
from clubs.words import words_for
from scoring.models import Session
from standings import charts, exports
from standings import selectors as stats
from standings.exports import block_label
from standings.forms import PeriodForm
from standings.tables import TABLES, GamesTable

PER_PAGE = 25
YEARS = 6  # season links above the picker; older seasons through the picker's year field


def _period(request: HttpRequest, club: Club) -> tuple[PeriodForm, stats.Period]:
    form = PeriodForm(request.GET or None, club=club)
    return form, form.chosen()


def _svg(svg: str) -> HttpResponse:
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["X-Content-Type-Options"] = "nosniff"
    return response


def _member_param(request: HttpRequest, club: Club) -> Member | None:
    raw = request.GET.get("member")
    if not raw:
        return None
    member_id = parse_id(raw)
    if member_id is None:
        raise Http404
    return get_object_or_404(Member, club=club, pk=member_id)


def _unit_blocks(
    request: HttpRequest, club: Club, period: stats.Period, *, chart: str, chart_alt: str, paginate: bool
) -> list[dict[str, Any]]:
    """One block per unit of the period's standings: its table and its running-total chart
    (``chart``: the chart's address, perhaps with a query, to which the unit is added)."""
    blocks = []
    for block in stats.standings(club=club, period=period):
        table_class = TABLES[block.kind]
        table = table_class(block.rows, unit=block.unit, slug=club.slug, query=period.query, prefix=f"{block.key}-")
        configure_table(request, table, per_page=PER_PAGE if paginate else None)
        label = block_label(block)
        blocks.append(
            {
                "label": label,
                "table": table,
                "chart": f"{chart}{'&' if '?' in chart else '?'}unit={block.unit}",
                "chart_alt": chart_alt % {"unit": label},
            }
        )
    return blocks


@club_view(Need.READ, methods=("GET",))
def standings(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    club = access.club
    form, period = _period(request, club)
    chart = reverse("stats:chart_running", kwargs={"slug": club.slug}) + f"?{period.query}"
    alt = _("Verlauf (%(unit)s): der Stand jedes Spielers über den Zeitraum")
    blocks = _unit_blocks(request, club, period, chart=chart, chart_alt=alt, paginate=True)
    context = {
        "access": access,
        "form": form,
        "period": period,
        "blocks": blocks,
        "years": stats.club_years(club=club)[:YEARS],
    }
    return render(request, "standings/standings.html", context)


@club_view(Need.READ, methods=("GET",))
def standings_pdf(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    club = access.club
    _form, period = _period(request, club)
    pdf = exports.standings_pdf(club=club, period=period, standings=stats.standings(club=club, period=period))
    return exports.file_response(pdf, exports.PDF, f"{club.slug}-tabelle-{period.slug}.pdf")


@club_view(Need.READ, methods=("GET",))
def standings_xlsx(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    club = access.club
    _form, period = _period(request, club)
    data = exports.standings_workbook(club=club, period=period, standings=stats.standings(club=club, period=period))
    return exports.file_response(data, exports.XLSX, f"{club.slug}-tabelle-{period.slug}.xlsx")


@club_view(Need.READ, methods=("GET",))
def chart_running(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    """``?<period>&unit=cent[&member=ID]``: every player's running total over the period."""
    club = access.club
    _form, period = _period(request, club)
    member = _member_param(request, club)
    found = stats.period_running_totals(club=club, period=period, member=member)
    unit = request.GET.get("unit")
    chart = next((c for c in found if c.unit == unit), found[0] if found else None)
    if chart is None:
        chart = stats.RunningTotals(unit or "cent", [], [])
    title = _("Verlauf · %(period)s") % {"period": period.label}
    return _svg(charts.running_totals_svg(chart, title=title))


@club_view(Need.READ, methods=("GET",))
def chart_games(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    """``?<period>[&member=ID]``: games by type (as declarer, for one member)."""
    club = access.club
    _form, period = _period(request, club)
    member = _member_param(request, club)
    games = stats.games_by_type(club=club, period=period, member=member)
    if member is None:
        title = _("Spiele nach Art · %(period)s") % {"period": period.label}
    else:
        as_declarer = words_for(club.game).as_declarer
        title = _("%(name)s %(as_declarer)s · %(period)s") % {
            "name": member.display_name,
            "as_declarer": as_declarer,
            "period": period.label,
        }
    return _svg(charts.games_svg(games, title=title))


@club_view(Need.READ, methods=("GET",))
def member(request: HttpRequest, access: ClubAccess, member_id: int) -> HttpResponse:
    player = get_object_or_404(Member, club=access.club, pk=member_id)
    form, period = _period(request, access.club)
    statistics = stats.member_statistics(member=player, period=period)
    games = GamesTable(statistics.declarer_games)
    configure_table(request, games, per_page=None)
    context = {
        "access": access,
        "club": access.club,
        "member": player,
        "period": period,
        "stats": statistics,
        "form": form,
        "games_table": games,
        "years": stats.club_years(club=access.club)[:YEARS],
    }
    return render(request, "standings/member.html", context)


@club_view(Need.READ, methods=("GET",))
def member_pdf(request: HttpRequest, access: ClubAccess, member_id: int) -> HttpResponse:
    player = get_object_or_404(Member, club=access.club, pk=member_id)
    _form, period = _period(request, access.club)
    pdf = exports.member_pdf(member=player, period=period)
    return exports.file_response(
        pdf, exports.PDF, f"{access.club.slug}-{slugify(player.display_name)}-{period.slug}.pdf"
    )


def _evening(access: ClubAccess, session_id: int) -> Session:
    return get_object_or_404(Session, club=access.club, pk=session_id)


@club_view(Need.READ, methods=("GET",))
def evening(request: HttpRequest, access: ClubAccess, session_id: int) -> HttpResponse:
    session = _evening(access, session_id)
    period = stats.Period.evening(session)
    chart = reverse("stats:evening_chart", kwargs={"slug": access.club.slug, "session_id": session.pk})
    alt = _("Verlauf (%(unit)s): der Stand jedes Spielers Spiel für Spiel")
    blocks = _unit_blocks(request, access.club, period, chart=chart, chart_alt=alt, paginate=False)
    context = {"access": access, "session": session, "period": period, "blocks": blocks}
    return render(request, "standings/evening.html", context)


@club_view(Need.READ, methods=("GET",))
def evening_chart(request: HttpRequest, access: ClubAccess, session_id: int) -> HttpResponse:
    """``?unit=cent``: every player's running total over the evening, hand by hand."""
    session = _evening(access, session_id)
    found = stats.evening_running_totals(session=session)
    unit = request.GET.get("unit")
    chart = next((c for c in found if c.unit == unit), found[0] if found else stats.RunningTotals("cent", [], []))
    title = _("Verlauf · %(period)s") % {"period": stats.Period.evening(session).label}
    return _svg(charts.running_totals_svg(chart, title=title))


@club_view(Need.READ, methods=("GET",))
def evening_pdf(request: HttpRequest, access: ClubAccess, session_id: int) -> HttpResponse:
    session = _evening(access, session_id)
    pdf = exports.evening_pdf(session=session)
    return exports.file_response(pdf, exports.PDF, f"{access.club.slug}-abend-{session.date.isoformat()}.pdf")
