"""Browser tests: Playwright driving Debian's Chromium against pytest-django's live_server.

`make test` installs Chromium with apt; without it (no apt on this machine) these tests skip.
"""

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect, sync_playwright

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))

# How long a test waits for the page before it fails, not how fast the page must be: a machine
# busy with other work (a load of 15 on two cores) answered an htmx swap after more than the
# default 5 s. Playwright's waits end as soon as the condition holds, so a quiet run is no slower.
expect.set_options(timeout=20_000)

# Playwright's sync API runs an event loop in the test's thread; the ORM calls the tests make
# (fixtures, assertions) are still synchronous and safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(item.fspath).parents:
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    """One Playwright per test process: a second one in the same thread is refused."""
    if not CHROMIUM.exists():
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs it with apt)")
    with sync_playwright() as playwright:
        yield playwright


def launch(playwright: Playwright, **options: Any) -> Browser:
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM),
        headless=True,
        args=["--no-sandbox", "--disable-background-networking"],
        **options,
    )


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = launch(playwright)
    yield browser
    browser.close()


def service_workers(request: pytest.FixtureRequest) -> str:
    """ "block" unless the test is marked ``service_worker``: once the app's service worker runs,
    every table page starts the phone's engine (Pyodide) in the background and folds it again
    after every save — seconds of CPU per page that only the offline tests (which make their
    own contexts) and the CSP walk (marked) use."""
    return "allow" if request.node.get_closest_marker("service_worker") else "block"


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    context = browser.new_context(  # a phone
        locale="de-DE", viewport={"width": 390, "height": 844}, service_workers=service_workers(request)
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


@pytest.fixture
def phone(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    """A 390×844 phone with a touch screen: taps, not clicks (``locator.tap()``)."""
    context = browser.new_context(
        locale="de-DE",
        viewport={"width": 390, "height": 844},
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
        service_workers=service_workers(request),
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()
