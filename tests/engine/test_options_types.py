"""Every game's options Struct is built at run time from its Option declarations
(engine/state.py options_struct), which a type checker cannot read; so each game's state
module declares it again for mypy, under TYPE_CHECKING, as a Struct of the same fields. These
tests hold the two the same: the same fields in the same order, each of the same type (the
run-time type less its Annotated metadata, the bounds and descriptions only msgspec reads)."""
from __future__ import annotations

import ast
import inspect
import sys
import typing
from types import GenericAlias, ModuleType
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints

import msgspec
import pytest

from engine import registry

GAMES = [g for g in registry.all_games() if g.state_type is not None]


def _plain(hint: Any) -> Any:
    """`hint` without Annotated anywhere inside it (Optional, tuple[...] rebuilt around it)."""
    origin, args = get_origin(hint), get_args(hint)
    if origin is Annotated:
        return _plain(args[0])
    if origin is Union:
        return Union[tuple(_plain(a) for a in args)]
    if origin is tuple:
        return GenericAlias(tuple, tuple(a if a is Ellipsis else _plain(a) for a in args))
    if origin is Literal or origin is None:
        return hint
    raise AssertionError(f"no option is of type {hint!r}")


def _declared(source: str, name: str, namespace: dict[str, Any]) -> dict[str, Any]:
    """The fields of class `name` declared under a module-level `if TYPE_CHECKING:`, each
    annotation evaluated in `namespace`, in declaration order."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and \
                node.test.id == "TYPE_CHECKING":
            for item in node.body:
                if isinstance(item, ast.ClassDef) and item.name == name:
                    return {f.target.id: eval(ast.unparse(f.annotation), namespace)
                            for f in item.body
                            if isinstance(f, ast.AnnAssign) and isinstance(f.target, ast.Name)}
    raise AssertionError(f"no class {name} under `if TYPE_CHECKING:`")


def _mismatches(options: type[msgspec.Struct], module: ModuleType, source: str) -> list[str]:
    # declared under the name the module gives the Struct (not always the Struct's own)
    name = next(k for k, v in vars(module).items() if v is options)
    declared = _declared(source, name, {**vars(typing), **vars(module)})
    real = {f.name: _plain(f.type) for f in msgspec.structs.fields(options)}
    out = []
    if list(declared) != list(real):
        out.append(f"fields {list(declared)} declared, {list(real)} at run time")
    for name in real.keys() & declared.keys():
        if _plain(declared[name]) != real[name]:
            out.append(f"{name}: {declared[name]!r} declared, {real[name]!r} at run time")
    return out


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.id)
def test_options_as_the_type_checker_reads_them_are_the_options_struct(game):
    options = get_type_hints(game.state_type)["options"]
    module = sys.modules[game.state_type.__module__]
    assert _mismatches(options, module, inspect.getsource(module)) == []


def test_a_declaration_that_drifted_is_told():
    # a field retyped, one left out: both named
    module = ModuleType("drift")
    module.DriftOptions = msgspec.defstruct("DriftOptions", [
        ("jokers", Annotated[int, msgspec.Meta(ge=0, le=2)]),
        ("lock", Literal["off", "suit"]),
        ("limit", Annotated[typing.Optional[Annotated[int, msgspec.Meta(ge=1)]],
                            msgspec.Meta(description="null: none")])])
    source = ("if TYPE_CHECKING:\n"
              "    class DriftOptions(Struct, frozen=True):\n"
              "        jokers: int\n"
              "        lock: Literal['off', 'suit', 'number']\n")
    found = _mismatches(module.DriftOptions, module, source)
    assert len(found) == 2 and "limit" in found[0] and found[1].startswith("lock:"), found
    right = source.replace(", 'number'", "") + "        limit: Optional[int]\n"
    assert _mismatches(module.DriftOptions, module, right) == []
