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

import pytest


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
