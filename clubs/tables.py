import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from clubs.models import Member


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
