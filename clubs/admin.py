from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.translation import gettext as _

from clubs.logins import canonical_username, find_login
from clubs.models import Club, Invitation, Member, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    autocomplete_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Member)
class MemberAdmin(admin.ModelAdmin):
    list_display = ["display_name", "club", "user", "is_active"]
    list_filter = ["is_active", "club"]
    search_fields = ["display_name", "user__username"]
    autocomplete_fields = ["club", "user"]


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["username", "club", "role", "created_at"]
    list_filter = ["role", "club"]
    search_fields = ["username", "club__name"]
    readonly_fields = ["username_key"]

    def save_model(self, request: HttpRequest, obj: Invitation, form: forms.ModelForm, change: bool) -> None:
        obj.username_key = canonical_username(obj.username)
        super().save_model(request, obj, form, change)


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["club", "user"]


def _clean_username(form: forms.ModelForm) -> str:
    """The admin's forms refuse a name that is another login's by ``clubs.logins``' rule."""
    username = form.cleaned_data["username"]
    other = find_login(username)
    if other is not None and other.pk != form.instance.pk:
        raise ValidationError(
            _("Diesen Benutzernamen gibt es schon (Groß- und Kleinschreibung und Zeichenbreite zählen nicht).")
        )
    return username


class LoginCreationForm(AdminUserCreationForm):
    def clean_username(self) -> str:
        return _clean_username(self)


class LoginChangeForm(UserChangeForm):
    def clean_username(self) -> str:
        return _clean_username(self)


User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class LoginAdmin(UserAdmin):
    """Django's user admin with the project's rule for usernames (clubs/logins.py)."""

    add_form = LoginCreationForm
    form = LoginChangeForm
