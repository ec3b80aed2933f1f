from django.contrib import admin

from clubs.models import Club, Member, Membership


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


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "club", "role"]
    list_filter = ["role", "club"]
    search_fields = ["user__username", "club__name"]
    autocomplete_fields = ["club", "user"]
