import django_tables2 as tables
from django.core.paginator import EmptyPage
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django_tables2 import RequestConfig

from clubs.ids import parse_id
from clubs.models import Member


def configure_table(request: HttpRequest, table: tables.Table, *, per_page: int | None) -> None:
    """Sort ``table`` and pick its page as the query asks (``?sort=``, ``?page=``, with the
    table's prefix). The page size is the view's, never the query's (``RequestConfig`` takes
    ``?per_page=``: ``-1`` was a 500, ``1`` a page per row); a page that is no number is the
    first, one beyond the last the last. ``per_page=None``: one page, sorted."""
    RequestConfig(request, paginate=False).configure(table)
    if per_page is None:
        return
    page = parse_id(request.GET.get(table.prefixed_page_field)) or 1
    try:
        table.paginate(page=page, per_page=per_page)
    except EmptyPage:
        table.page = table.paginator.page(table.paginator.num_pages)


class MemberTable(tables.Table):
    display_name = tables.Column(verbose_name=_("Name"))
    user = tables.Column(verbose_name=_("Zugang"), accessor="user__username", default="–")
    is_active = tables.BooleanColumn(verbose_name=_("aktiv"))
    actions = tables.TemplateColumn(
        template_name="clubs/member_actions.html",
        verbose_name="",
        orderable=False,
    )

    class Meta:
        model = Member
        fields = ("display_name", "user", "is_active")
        order_by = ("-is_active", "display_name")
        attrs = {"class": "striped"}
        empty_text = _("Noch keine Spieler.")
