"""What every `card-referee` command shares for the terminal: its exit codes, bad input as one
line, reading a JSON file as the service reads a body, and text and JSON written safely."""
from __future__ import annotations

import json
import re
import sys

# Exit codes: 0 all actions valid (or seed matches), 1 an action refused (or seed mismatch),
# 2 bad input (a file missing or unreadable, not JSON, not a game log, a malformed action).
EXIT_REFUSED = 1
EXIT_BAD_INPUT = 2


class BadInput(Exception):
    """Input the command cannot use: one line on stderr, exit 2."""


def columns(rows: list[list[str]]) -> str:
    """Rows as columns padded to their widest cell (East Asian wide characters count two)."""
    import unicodedata

    def width(text: str) -> int:
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)

    widths = [max(width(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c + " " * (w - width(c)) for c, w in zip(r, widths)).rstrip()
                     for r in rows)


def say(text: str = "") -> None:
    """A line (or lines) for a terminal: what a log or record wrote is shown with its control
    characters and bidi overrides visible (`\\x1b`), never raw (docs/score-sheets.md)."""
    from engine.sheets import visible
    print("\n".join(visible(line) for line in str(text).split("\n")))


def json_out(value) -> None:
    """JSON for a terminal: json escapes C0 controls; C1, DEL and bidi overrides as well here
    (`\\u009b`: still the same JSON)."""
    text = json.dumps(value, ensure_ascii=False, indent=2)
    sys.stdout.write(_UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n")


_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def write_text(text: str, output: str | None) -> None:
    """A sheet's text to stdout, or (`output` a path, not "-") to that file as it is, its line
    ends untouched; a file that cannot be written is BadInput."""
    if output in (None, "-"):
        sys.stdout.write(text)
        return
    try:
        with open(output, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
    except OSError as err:
        raise BadInput(f"{output}: cannot write it ({err.strerror or err})") from None


def read_json(path: str, what: str):
    """The JSON in the file at `path` ("-": stdin), `what` it should be naming it in the one
    line a file that cannot be read or is not JSON gives (BadInput)."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
    except FileNotFoundError:
        raise BadInput(f"{path}: no such file") from None
    except IsADirectoryError:
        raise BadInput(f"{path}: is a directory, not {what}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise BadInput(f"{path}: cannot read it ({err.__class__.__name__}: "
                       f"{getattr(err, 'strerror', None) or err})") from None
    try:
        value = json.loads(text)
    except json.JSONDecodeError as err:
        raise BadInput(f"{path}: not JSON: {err.msg} at line {err.lineno}, "
                       f"column {err.colno}") from None
    except RecursionError:
        raise BadInput(f"{path}: nested too deep to be {what}") from None
    # A key named twice is refused as the service refuses it (last-one-wins would let two
    # different files check as one record, with one digest).
    from .json_keys import find_duplicate_key

    found = find_duplicate_key(text)
    if found is not None:
        where, key = found
        raise BadInput(f"{path}: json_duplicate_key at {where}: duplicate key {key!r}: "
                       "a JSON object names each key once")
    return value
