"""The shipped strength tables: written from the rules, and checked against a fresh build.

``evaluator.strength`` loads its tables from the package data file
``evaluator/data/strength.npz`` instead of generating them at every import. This module
writes that file from ``strength.build_tables()``, byte for byte the same on every run: an
uncompressed zip of one ``.npy`` per table, in a fixed order, with fixed timestamps, so that a
test can hold the shipped file identical to a fresh build. After a change to the rules of hand
strength, write it again and commit it:

    python -m evaluator.tables            # rewrite evaluator/data/strength.npz
    python -m evaluator.tables --check    # exit 1 if the shipped file is not a fresh build
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

from evaluator.strength import TABLE_NAMES, TABLES_FILE, build_tables

#: Where the source tree keeps the file (the installed package holds a copy).
SOURCE_FILE = Path(__file__).resolve().parent / "data" / TABLES_FILE
_EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can carry


def encode(tables: Mapping[str, np.ndarray]) -> bytes:
    """The file's bytes for ``tables``: a function of the arrays alone (names, dtypes, shapes
    and values), not of the time, the machine or the platform."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for name in TABLE_NAMES:
            array = io.BytesIO()
            np.lib.format.write_array(array, np.ascontiguousarray(tables[name]),
                                      version=(1, 0), allow_pickle=False)
            entry = zipfile.ZipInfo(f"{name}.npy", date_time=_EPOCH)
            entry.create_system = 3  # as written on Unix, wherever it is written
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, array.getvalue())
    return buffer.getvalue()


def fresh() -> bytes:
    """The bytes of a fresh build of the tables from the rules."""
    return encode(build_tables())


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evaluator.tables",
        description="Write the strength tables, generated from the rules, into the package "
                    "data file that evaluator.strength loads at import.")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 unless the file is a fresh build")
    parser.add_argument("--output", type=Path, default=SOURCE_FILE,
                        help="the file to write or check (default: the package's own)")
    args = parser.parse_args(argv)
    data = fresh()
    if args.check:
        same = args.output.is_file() and args.output.read_bytes() == data
        print(f"{args.output}: {'a fresh build' if same else 'NOT a fresh build'} "
              f"(fresh sha256 {digest(data)})")
        return 0 if same else 1
    args.output.write_bytes(data)
    print(f"wrote {args.output} ({len(data):,} bytes, sha256 {digest(data)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
