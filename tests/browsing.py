"""A headless Chromium for the tests that drive the page, or the reason there is none.

The browser is the system's Chromium (``FANTASYLAND_CHROMIUM``, else ``chromium`` on the
PATH), driven by Playwright. Without one a test module that imports this one is skipped,
unless ``FANTASYLAND_REQUIRE_BROWSER`` is set (as CI sets it), when it fails.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import pytest

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
WAIT = 60_000  # ms a request may take on a loaded machine
STEP = 15_000  # ms a click or a field may wait for its element


def _chromium() -> str | None:
    return os.environ.get("FANTASYLAND_CHROMIUM") or shutil.which("chromium") \
        or shutil.which("chromium-browser")


def no_browser(reason: str):
    if os.environ.get("FANTASYLAND_REQUIRE_BROWSER"):
        pytest.fail(f"FANTASYLAND_REQUIRE_BROWSER is set but no browser can be launched: "
                    f"{reason}", pytrace=False)
    pytest.skip(f"no browser: {reason}", allow_module_level=True)


try:
    from playwright import sync_api
except ImportError:  # the test extra is not installed
    no_browser("Playwright is not installed (pip install -e '.[test]')")


@contextmanager
def launched() -> Iterator[sync_api.Browser]:
    """A Chromium for the length of the block (a module's fixture)."""
    executable = _chromium()
    if executable is None:
        no_browser("no chromium on the PATH and FANTASYLAND_CHROMIUM is not set")
    playwright = sync_api.sync_playwright().start()
    try:
        browser = playwright.chromium.launch(executable_path=executable)
    except Exception as error:  # a missing library, a sandbox refused: no browser here
        playwright.stop()
        no_browser(f"{executable} did not start: {str(error).splitlines()[0]}")
    try:
        yield browser
    finally:
        browser.close()
        playwright.stop()


class Page:
    """A page of the server in a fresh browser context, that fails the test on a script
    error and refuses (and records) every request to anywhere but the server."""

    def __init__(self, browser, server, viewport):
        self.server = server
        self.context = browser.new_context(viewport=viewport)
        self.outside: list[str] = []
        self.errors: list[str] = []
        origin = urlsplit(server.url).netloc
        self.context.route("**/*", lambda route: self._route(route, origin))
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.set_default_timeout(STEP)

    def _route(self, route, origin):
        url = urlsplit(route.request.url)
        if url.scheme in ("data", "blob") or url.netloc == origin:
            route.continue_()
        else:
            self.outside.append(route.request.url)
            route.abort()

    def open(self, view: str):
        self.page.goto(f"{self.server.url}#{view}")
        self.page.wait_for_selector("body[data-ready]", timeout=WAIT)
        return self.page

    def close(self):
        self.context.close()
        assert not self.errors, f"script errors on the page: {self.errors}"
        assert not self.outside, f"the page asked for outside addresses: {self.outside}"
