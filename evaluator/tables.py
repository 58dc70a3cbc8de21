"""The shipped tables: written from the rules, and checked against a fresh build.

Two modules load tables from package data instead of generating them at every import:
``evaluator.strength`` (``evaluator/data/strength.npz``: every hand's strength) and
``evaluator.joker_patterns`` (``evaluator/data/joker_patterns.npz``: what each pattern of a
row holding jokers can play as). This module writes those files, byte for byte the same on
every run: an uncompressed zip of one ``.npy`` per table, in a fixed order, with fixed
timestamps, so that a test can hold each shipped file identical to a fresh build. After a
change to the rules of hand strength or of jokers, write them again and commit them:

    python -m fantasyland.evaluator.tables            # rewrite both files
    python -m fantasyland.evaluator.tables --check    # exit 1 if one is not a fresh build
"""

from __future__ import annotations

import argparse
import hashlib
import io
import sys
import zipfile
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from fantasyland.evaluator import joker_patterns, strength

#: Each shipped file: its name, its tables in order, and how they are built.
SHIPPED = {
    "strength": (strength.TABLES_FILE, strength.TABLE_NAMES, strength.build_tables),
    "joker-patterns": (joker_patterns.PATTERNS_FILE, joker_patterns.TABLE_NAMES,
                       joker_patterns.build_tables),
}
#: Where the source tree keeps the files (the installed package holds copies).
SOURCE_DIR = Path(__file__).resolve().parent / "data"
_EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can carry


def encode(tables: Mapping[str, np.ndarray], names: Sequence[str]) -> bytes:
    """The file's bytes for ``tables``: a function of the arrays alone (names, dtypes, shapes
    and values), not of the time, the machine or the platform."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for name in names:
            array = io.BytesIO()
            np.lib.format.write_array(array, np.ascontiguousarray(tables[name]),
                                      version=(1, 0), allow_pickle=False)
            entry = zipfile.ZipInfo(f"{name}.npy", date_time=_EPOCH)
            entry.create_system = 3  # as written on Unix, wherever it is written
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, array.getvalue())
    return buffer.getvalue()


def fresh(*, table: str = "strength") -> bytes:
    """The bytes of a fresh build of one shipped file's tables from the rules."""
    _, names, build = SHIPPED[table]
    return encode(build(), names)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def main(*, argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fantasyland.evaluator.tables",
        description="Write the tables generated from the rules (hand strengths, and what "
                    "rows holding jokers can play as) into the package data files that the "
                    "evaluator loads at import.")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 unless every file is a fresh build")
    parser.add_argument("--table", choices=sorted(SHIPPED), action="append",
                        help="only this file (repeatable; default: all of them)")
    parser.add_argument("--output", type=Path,
                        help="the file to write or check, for one --table (default: the "
                             "package's own)")
    args = parser.parse_args(argv)
    chosen = args.table or list(SHIPPED)
    if args.output is not None and len(chosen) != 1:
        parser.error("--output needs exactly one --table")
    failed = False
    for table in chosen:
        output = args.output or SOURCE_DIR / SHIPPED[table][0]
        data = fresh(table=table)
        if args.check:
            same = output.is_file() and output.read_bytes() == data
            print(f"{output.name}: {'a fresh build' if same else 'NOT a fresh build'} "
                  f"(fresh sha256 {digest(data)})")
            failed |= not same
        else:
            output.write_bytes(data)
            print(f"wrote {output.name} ({len(data):,} bytes, sha256 {digest(data)})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
