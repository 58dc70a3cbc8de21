"""The installed package as a user gets it from ``pip install``: preset data and the script.

Cheap by design: nothing is built or installed here. Each check starts a subprocess in a
temporary directory, so it sees the installed copy and not this checkout. Where the package
or its ``fantasyland`` script is not installed (a plain checkout), the checks skip and say so;
``.ci/run`` installs the package in a fresh environment and sets ``FANTASYLAND_REQUIRE_INSTALL``,
which turns those skips into failures.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

PRESETS = ("chinese", "deuce", "double-deck", "pineapple", "pineapple-joker", "progressive",
           "progressive-joker", "standard", "ultimate")
IVEY = "6s 6c 4h / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"
INSTALL_HINT = "install it with: python3 -m pip install '.[test]'"

# Lists the preset files the installed package carries, and loads each one through the registry.
PRESET_PROBE = """
import json
from importlib import resources
from fantasyland import evaluator
files = sorted(p.name for p in resources.files("fantasyland.evaluator.presets").iterdir()
               if p.name.endswith(".toml"))
names = sorted(evaluator.find_rules(n).name for n in evaluator.preset_names())
print(json.dumps({"module": evaluator.__file__, "files": files, "presets": names}))
"""


def _env() -> dict[str, str]:
    """This environment without PYTHONPATH, so that only installed code can be imported."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}


def _run(args: list[str], cwd) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env=_env(), capture_output=True, text=True,
                          encoding="utf-8", timeout=120)


def _not_installed(reason: str) -> None:
    """Skip, unless the caller (CI) has just installed the package and requires it."""
    if os.environ.get("FANTASYLAND_REQUIRE_INSTALL"):
        pytest.fail(reason)
    pytest.skip(reason)


def _script() -> str | None:
    """The ``fantasyland`` script of this interpreter's environment, else the one on PATH."""
    return (shutil.which("fantasyland", path=sysconfig.get_path("scripts"))
            or shutil.which("fantasyland"))


def _probe(program: str, cwd: Path) -> dict:
    """What ``program`` prints as JSON, run by this interpreter outside the checkout (so it
    sees the installed package); skipped, or failed under CI, where none is installed."""
    probe = _run([sys.executable, "-c", program], cwd=cwd)
    if "No module named 'fantasyland'" in probe.stderr:
        _not_installed(f"the fantasyland package is not installed for {sys.executable}; "
                       + INSTALL_HINT)
    assert probe.returncode == 0, probe.stderr
    return json.loads(probe.stdout)


def test_installed_package_carries_the_preset_rules_files(tmp_path):
    found = _probe(PRESET_PROBE, tmp_path)
    assert found["files"] == sorted(f"{name}.toml" for name in PRESETS), found["module"]
    assert found["presets"] == list(PRESETS)


# Reads the strength tables the installed package carries, and builds them afresh to compare.
TABLES_PROBE = """
import json
from importlib import resources
from fantasyland.evaluator import tables
shipped = resources.files("fantasyland.evaluator.data").joinpath("strength.npz")
print(json.dumps({"module": tables.__file__, "present": shipped.is_file(),
                  "fresh": shipped.is_file() and shipped.read_bytes() == tables.fresh()}))
"""


def test_installed_package_carries_the_strength_tables_as_built(tmp_path):
    found = _probe(TABLES_PROBE, tmp_path)
    assert found["present"] and found["fresh"], found["module"]


# The top-level names the installed distribution put in site-packages, read from its record.
TOP_LEVEL_PROBE = """
import json
from importlib import metadata
files = [str(f) for f in metadata.distribution("fantasyland").files]
tops = sorted({f.split("/")[0] for f in files if not f.startswith("..")
               and ".dist-info/" not in f and not f.startswith("__editable__")})
print(json.dumps({"tops": tops, "editable": any("__editable__" in f for f in files)}))
"""


def test_the_install_puts_one_name_in_site_packages(tmp_path):
    """``pip install .`` installs the package ``fantasyland`` and no other top-level name
    (``cli``, ``evaluator`` and ``optimizer`` are its subpackages, not names of their own that
    another distribution could clash with)."""
    found = _probe(TOP_LEVEL_PROBE, tmp_path)
    if found["editable"]:
        _not_installed("the package is installed in editable mode, which records no files")
    assert found["tops"] == ["fantasyland"]


def test_every_package_of_the_checkout_is_installed():
    """pyproject.toml lists the packages one by one, since the layers are mapped into
    ``fantasyland``: a new subpackage left out of the list would not install."""
    import tomllib

    root = Path(__file__).resolve().parents[1]
    config = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]
    mapped = {Path(path): name for name, path in config["setuptools"]["package-dir"].items()}
    found = set()
    for top, name in mapped.items():
        for init in (root / top).rglob("__init__.py"):
            found.add(".".join([name, *init.parent.relative_to(root / top).parts]))
    assert sorted(config["setuptools"]["packages"]) == sorted(found)


@pytest.fixture
def script() -> str:
    path = _script()
    if path is None:
        _not_installed("the fantasyland console script is neither in this interpreter's "
                    "scripts directory nor on PATH; " + INSTALL_HINT)
    return path


def test_console_script_scores_a_set_from_another_directory(script, tmp_path):
    result = _run([script, "score", IVEY, "--json"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["royalties"] == {"top": 1, "middle": 0, "bottom": 6, "total": 7}
    assert data["fouled"] is False


def test_console_script_reports_bad_input_in_one_line_with_exit_code_2(script, tmp_path):
    result = _run([script, "score", "6s 6c 4x / Td Ts 9c Qs 8c / 3h 3d 3s 2h 2d"], cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith("error: bad card '4x'")
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_console_script_serves_the_page_from_another_directory(script, tmp_path):
    """``fantasyland serve`` works after the README's install: its dependencies are the
    package's own, and the page is package data."""
    import re
    import signal
    import urllib.request

    server = subprocess.Popen([script, "serve", "--port", "0", "--workers", "1", "--history",
                               str(tmp_path / "history.sqlite3")], cwd=tmp_path, env=_env(),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              start_new_session=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.search(r"(http://\S+/)", line)
        assert found, line + server.stdout.read()
        with urllib.request.urlopen(found.group(1), timeout=30) as page:
            assert page.read().lower().startswith(b"<!doctype html")
        request = urllib.request.Request(found.group(1) + "api/score", method="POST",
                                         data=json.dumps({"board": IVEY}).encode(),
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as answer:
            assert json.loads(answer.read())["royalties"]["total"] == 7
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        if server.stdout is not None:
            server.stdout.close()
