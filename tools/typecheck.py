"""Type-checks the package as it installs (a developer's tool; .ci/run runs it).

``python3 tools/typecheck.py [MYPY_ARGUMENT ...]`` from anywhere. The repository keeps the
layers at its root (``evaluator/``, ``optimizer/``, ``cli/``), and pyproject.toml maps them into
the package ``fantasyland`` only when it is installed, which mypy cannot see in the source
tree. So the package is laid out in a temporary folder, ``fantasyland/__init__.py`` and each
layer a symbolic link to this checkout's, and mypy checks it there with the settings of
pyproject.toml (``[tool.mypy]``): ``fantasyland.evaluator`` under ``--strict``, then the
whole package with mypy's defaults. Errors name the files as they are in the checkout. The
exit code is the worse of the two runs' (1: errors found, 2: mypy could not run).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("evaluator", "optimizer", "cli")
RUNS = (("--strict", "-p", "fantasyland.evaluator"), ("-p", "fantasyland"))


def lay_out(folder: Path) -> None:
    """``folder/fantasyland`` as the package installs, made of links to this checkout."""
    package = folder / "fantasyland"
    package.mkdir()
    (package / "__init__.py").symlink_to(ROOT / "fantasyland" / "__init__.py")
    for layer in LAYERS:
        (package / layer).symlink_to(ROOT / layer, target_is_directory=True)


def checkout_paths(text: str) -> str:
    """mypy's report with the laid-out paths (``fantasyland/cli/x.py``) as in the checkout."""
    return re.sub(rf"^fantasyland/(?=(?:{'|'.join(LAYERS)})/)", "", text, flags=re.MULTILINE)


def main(extra: list[str]) -> int:
    status = 0
    with tempfile.TemporaryDirectory(prefix="fantasyland-typecheck.") as name:
        folder = Path(name)
        lay_out(folder)
        for run in RUNS:
            command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                       "--cache-dir", str(folder / "cache"), *run, *extra]
            print("+ mypy " + " ".join(run + tuple(extra)), flush=True)
            done = subprocess.run(command, cwd=folder, capture_output=True, text=True)
            sys.stdout.write(checkout_paths(done.stdout))
            sys.stderr.write(checkout_paths(done.stderr))
            status = max(status, done.returncode)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
