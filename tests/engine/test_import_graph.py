"""The engine's and the service's modules import one another without a circle.

A circle makes the import order matter (a name read before its module finished loading), hides
which module is the lower layer, and keeps a module from being read or tested on its own. The
graph is read from the source with `ast`, so it sees every import: those at the top of a
module, those inside functions (deferred to dodge a circle at import time: still a circle of
the design) and those under `if TYPE_CHECKING:`.

The edges, one per import statement's target:
- `import a.b.c` is an edge to `a.b.c`;
- `from X import n` (X resolved when relative) is an edge to the module `X.n` when there is
  one (`from . import scoring`, `from engine import registry`), else to `X` itself (a name
  defined in X, or in X's `__init__.py` when X is a package);
- importing `a.b.c` runs the `__init__.py` of `a` and `a.b` too, but those implicit imports are
  not edges: a package's `__init__.py` that imports its own submodules would otherwise form a
  circle with every submodule, which is no circle of the design. A submodule that imports a
  name *from its package* (`from . import Name`, `from engine.games.man import X`) does get an edge
  to the package's `__init__.py`, and that one counts.
Only modules of `engine/` and `service/` are nodes; a module importing itself is no circle.
"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("engine", "service")


def module_files() -> dict[str, Path]:
    """Every module of the packages, by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base.pop()  # a module's relative imports start from its package
    if node.level > 1:
        base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                source = _resolve(name, is_package, node)
                for alias in node.names:
                    sub = f"{source}.{alias.name}"
                    targets.append(sub if sub in files else source)
            for target in targets:
                if target in files and target != name:
                    graph[name].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle of the graph (its modules in import order, the first repeated at the end),
    or None."""
    WHITE, GREY, BLACK = 0, 1, 2
    colour = dict.fromkeys(graph, WHITE)
    for start in sorted(graph):
        if colour[start] != WHITE:
            continue
        path = [start]
        stack = [iter(sorted(graph[start]))]
        colour[start] = GREY
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                colour[path.pop()] = BLACK
                stack.pop()
            elif colour[nxt] == GREY:
                return path[path.index(nxt):] + [nxt]
            elif colour[nxt] == WHITE:
                colour[nxt] = GREY
                path.append(nxt)
                stack.append(iter(sorted(graph[nxt])))
    return None


def test_the_graph_sees_deferred_and_type_checking_imports():
    # The referee's ledger is read by the engine's adjudication: an edge the test must see
    # (a sanity check that the walk finds imports at all, so "no circle" means something).
    graph = import_graph()
    assert "engine.referee" in graph["engine.adjudicate"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def _cycle_through(package: str) -> list[str] | None:
    graph = import_graph()
    # a circle through the package's modules; the engine never imports the service, so a
    # circle touching the engine lies within it
    return find_cycle({name: {t for t in targets if t.split(".")[0] == package}
                       for name, targets in graph.items() if name.split(".")[0] == package})


def test_the_engine_never_imports_the_service():
    graph = import_graph()
    assert not [(name, t) for name, targets in graph.items() if name.startswith("engine")
                for t in targets if t.startswith("service")]


def test_no_import_circle_among_engine_modules():
    cycle = _cycle_through("engine")
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def test_no_import_circle_among_service_modules():
    cycle = _cycle_through("service")
    assert cycle is None, "import circle: " + " -> ".join(cycle)


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in graph[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def test_the_values_that_cross_the_interface_are_a_leaf():
    # engine/values.py: plain values every module may import, so it imports only the
    # engine's errors, field vocabulary and cards (and what those import)
    assert _reachable(import_graph(), "engine.values") <= {
        "engine.errors", "engine.fields", "engine.cards", "engine.schema"}


def test_the_game_interface_depends_on_no_feature_that_wraps_every_game():
    # The referee's ledger and sanctions, records, score sheets and the registry compose over
    # the interface (engine/features.py), never the other way round: a game, and the
    # interface it implements, can be read and tested without them.
    wrapping = {"engine.referee", "engine.records", "engine.sheets", "engine.registry",
                "engine.features", "engine.adjudicate"}
    assert not _reachable(import_graph(), "engine.game") & wrapping
