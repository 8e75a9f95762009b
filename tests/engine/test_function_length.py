"""No function of the engine (or the service) is longer than a reader can hold: 120 lines.

A long function mixes several steps a reader has to untangle before changing one; split it
into named steps instead (without changing what it does). Counted with `ast` from a function's
`def` line to its last line (decorators not counted, a nested function's lines counted in the
function that holds it too, since a reader reads them there).
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 120


def long_functions(source: str, where: str = "<source>") -> list[str]:
    """`where:line name (n lines)` of every function of `source` longer than LIMIT."""
    found = []
    for node in ast.walk(ast.parse(source, where)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > LIMIT:
                found.append(f"{where}:{node.lineno} {node.name} ({length} lines)")
    return found


def long_functions_of(package: str) -> list[str]:
    return [hit for path in sorted((ROOT / package).rglob("*.py"))
            for hit in long_functions(path.read_text(encoding="utf-8"),
                                      str(path.relative_to(ROOT)))]


def test_the_count_runs_from_def_to_the_last_line():
    body = "".join(f"    x{i} = {i}\n" for i in range(LIMIT - 1))
    assert long_functions(f"def fits():\n{body}") == []
    assert long_functions(f"def over():\n{body}    x = 0\n") == [
        f"<source>:1 over ({LIMIT + 1} lines)"]


def test_no_engine_function_is_over_120_lines():
    assert long_functions_of("engine") == []


def test_no_service_function_is_over_120_lines():
    assert long_functions_of("service") == []
