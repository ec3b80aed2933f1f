"""Club pages. Each view: access → form → service → redirect (see clubs/access.py)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import selectors, services
from clubs.access import ClubAccess, Need, club_view
from clubs.forms import ClubForm, ClubSettingsForm, GrantAccessForm, MemberForm, RoleForm
from clubs.models import Invitation, Member, Membership, Role
from clubs.tables import MemberTable, configure_table


def _apply(form: Form, error: ValidationError) -> None:
    """Put a service's ValidationError on the form, by field where the form has that field."""
    if hasattr(error, "error_dict"):
        for field, errors in error.error_dict.items():
            form.add_error(field if field in form.fields else None, errors)
    else:
        form.add_error(None, error)


@login_required
@require_http_methods(["GET"])
def my_clubs(request: HttpRequest) -> HttpResponse:
    context = {
        "memberships": selectors.memberships_of(request.user),
        "invitations": selectors.invitations_for(request.user),
    }
    return render(request, "clubs/my_clubs.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def club_create(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if form.is_valid():
        club = services.club_create(name=form.cleaned_data["name"], owner=request.user)
        messages.success(request, _("Verein „%(name)s“ angelegt.") % {"name": club.name})
        return redirect(club)
    return render(request, "clubs/club_create.html", {"form": form})


@club_view(Need.READ, methods=["GET"])
def club_home(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    counts = selectors.club_counts(club=access.club)
    return render(request, "clubs/home.html", {"access": access, "counts": counts})


@club_view(Need.MANAGE)
def club_settings(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    club = access.club
    initial = {"name": club.name, "language": club.language, "game": club.game}
    form = ClubSettingsForm(request.POST or None, initial=initial)
    if form.is_valid():
        services.club_rename(club=club, name=form.cleaned_data["name"])
        if form.cleaned_data["game"]:
            services.club_set_game(club=club, game=form.cleaned_data["game"])
        if form.cleaned_data["language"]:
            services.club_set_language(club=access.club, language=form.cleaned_data["language"])
            translation.activate(access.club.language)  # the message below in the language just chosen
        messages.success(request, _("Gespeichert."))
        return redirect("clubs:settings", slug=access.club.slug)
    return render(request, "clubs/settings.html", {"access": access, "form": form})


@club_view(Need.READ, methods=["GET"])
def member_list(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    table = MemberTable(
        selectors.club_members(club=access.club),
        exclude=() if access.membership.can_manage else ("actions",),
    )
    configure_table(request, table, per_page=50)
    return render(request, "clubs/member_list.html", {"access": access, "table": table})


@club_view(Need.MANAGE)
def member_add(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    form = MemberForm(request.POST or None)
    if form.is_valid():
        try:
            member = services.member_create(club=access.club, display_name=form.cleaned_data["display_name"])
        except ValidationError as error:
            _apply(form, error)
        else:
            messages.success(request, _("%(name)s spielt jetzt mit.") % {"name": member.display_name})
            return redirect("clubs:member_list", slug=access.club.slug)
    return render(request, "clubs/member_form.html", {"access": access, "form": form, "member": None})


@club_view(Need.MANAGE)
def member_edit(request: HttpRequest, access: ClubAccess, member_id: int) -> HttpResponse:
    member = get_object_or_404(Member, club=access.club, pk=member_id)
    form = MemberForm(request.POST or None, initial={"display_name": member.display_name})
    if form.is_valid():
        try:
            services.member_update(member=member, display_name=form.cleaned_data["display_name"])
        except ValidationError as error:
            _apply(form, error)
        else:
            messages.success(request, _("Gespeichert."))
            return redirect("clubs:member_list", slug=access.club.slug)
    return render(request, "clubs/member_form.html", {"access": access, "form": form, "member": member})


@club_view(Need.MANAGE, methods=["POST"])
def member_active(request: HttpRequest, access: ClubAccess, member_id: int) -> HttpResponse:
    """POST active=1 reactivates, anything else deactivates."""
    member = get_object_or_404(Member, club=access.club, pk=member_id)
    active = request.POST.get("active") == "1"
    services.member_set_active(member=member, active=active)
    if active:
        messages.success(request, _("%(name)s ist wieder aktiv.") % {"name": member.display_name})
    else:
        messages.success(request, _("%(name)s ist jetzt inaktiv.") % {"name": member.display_name})
    return redirect("clubs:member_list", slug=access.club.slug)


@club_view(Need.MANAGE)
def logins(request: HttpRequest, access: ClubAccess) -> HttpResponse:
    """The club's logins with their roles, the open invitations, and the form that creates a
    login or invites an existing one (clubs.services.membership_grant)."""
    form = GrantAccessForm(request.POST or None, players=selectors.players_without_login(club=access.club))
    if form.is_valid():
        try:
            granted = services.membership_grant(club=access.club, invited_by=request.user, **form.cleaned_data)
        except ValidationError as error:
            _apply(form, error)
        else:
            if granted.membership is not None:
                name = granted.membership.user.get_username()
                messages.success(request, _("%(user)s hat jetzt Zugang.") % {"user": name})
            else:
                # The same words whether a login of that name exists or not.
                messages.success(
                    request,
                    _(
                        "Einladung an „%(user)s“ gespeichert. Gibt es diesen Zugang, sieht er sie unter "
                        "„Meine Vereine“ und gehört zum Verein, sobald er sie annimmt."
                    )
                    % {"user": granted.invitation.username},
                )
            return redirect("clubs:logins", slug=access.club.slug)
    return render(
        request,
        "clubs/logins.html",
        {
            "access": access,
            "form": form,
            "memberships": selectors.club_logins(club=access.club),
            "invitations": selectors.club_invitations(club=access.club),
            "roles": Role.choices,
        },
    )


@club_view(Need.MANAGE, methods=["POST"])
def invitation_withdraw(request: HttpRequest, access: ClubAccess, invitation_id: int) -> HttpResponse:
    invitation = get_object_or_404(Invitation, club=access.club, pk=invitation_id)
    services.invitation_withdraw(invitation=invitation)
    messages.success(request, _("Einladung zurückgezogen."))
    return redirect("clubs:logins", slug=access.club.slug)


def _my_invitation(request: HttpRequest, invitation_id: int) -> Invitation:
    """An invitation addressed to the logged-in user's name; 404 for any other."""
    return get_object_or_404(selectors.invitations_for(request.user), pk=invitation_id)


@login_required
@require_http_methods(["POST"])
def invitation_accept(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitation = _my_invitation(request, invitation_id)
    membership = services.invitation_accept(invitation=invitation, user=request.user)
    messages.success(request, _("Sie gehören jetzt zu „%(club)s“.") % {"club": membership.club.name})
    return redirect(membership.club)


@login_required
@require_http_methods(["POST"])
def invitation_decline(request: HttpRequest, invitation_id: int) -> HttpResponse:
    invitation = _my_invitation(request, invitation_id)
    services.invitation_decline(invitation=invitation, user=request.user)
    messages.success(request, _("Einladung abgelehnt."))
    return redirect("clubs:my_clubs")


@club_view(Need.MANAGE, methods=["POST"])
def login_role(request: HttpRequest, access: ClubAccess, membership_id: int) -> HttpResponse:
    membership = get_object_or_404(Membership, club=access.club, pk=membership_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Unbekannte Rolle."))
    else:
        try:
            services.membership_set_role(membership=membership, role=form.cleaned_data["role"])
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            messages.success(request, _("Rolle gespeichert."))
    if membership.pk == access.membership.pk and not membership.can_manage:
        # An owner who gave up the owner role can no longer see the logins page.
        return redirect(access.club)
    return redirect("clubs:logins", slug=access.club.slug)


@club_view(Need.MANAGE, methods=["POST"])
def login_revoke(request: HttpRequest, access: ClubAccess, membership_id: int) -> HttpResponse:
    membership = get_object_or_404(Membership, club=access.club, pk=membership_id)
    try:
        services.membership_revoke(membership=membership)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("clubs:logins", slug=access.club.slug)
    messages.success(request, _("Zugang entfernt."))
    if membership.user_id == request.user.pk:
        return redirect("clubs:my_clubs")
    return redirect("clubs:logins", slug=access.club.slug)
