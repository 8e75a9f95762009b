"""Every problem `code` a client can get is published: in the spec (Problem.code's enum), in
docs/integrating.md's table, with English and Japanese titles. The codes are found in the
sources themselves (every `code = "..."` of an error class, every `code="..."` given to one,
every code the service answers), and in each game's declared input errors, so a new one
cannot be added silently."""
import ast
import re
from pathlib import Path

from engine import registry
from service.errors import TITLES, problem_codes
from tests.spec import committed_spec

ROOT = Path(__file__).resolve().parents[2]
# make_error("rank_unknown", ...) and the like: a game's own catalogue of input-error codes.
CATALOGUE_CALLS = {"make_error"}


def _codes_in_sources() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted((ROOT / "engine").rglob("*.py")) + sorted((ROOT / "service").rglob("*.py")):
        tree = ast.parse(path.read_text())
        where = str(path.relative_to(ROOT))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases = {getattr(b, "id", getattr(b, "attr", "")) for b in node.bases}
                if not any(b.endswith(("Error", "Invalid", "Game")) or b.startswith("Invalid")
                           for b in bases):
                    continue
                for stmt in node.body:
                    if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                            and getattr(stmt.targets[0], "id", None) == "code"
                            and isinstance(stmt.value, ast.Constant)):
                        found[stmt.value.value] = where
            elif isinstance(node, ast.Call):
                name = getattr(node.func, "id", getattr(node.func, "attr", ""))
                if name in ("Refusal", "refuse", "_refuse", "from_templates", "PlayError",
                            "ComboError", "TableError"):
                    continue  # refusals (200, valid=false): GET /v1/games lists those
                for kw in node.keywords:
                    if kw.arg == "code" and isinstance(kw.value, ast.Constant) \
                            and isinstance(kw.value.value, str):
                        found[kw.value.value] = where
                args = node.args
                if name == "problem" and len(args) >= 2 and isinstance(args[1], ast.Constant):
                    found[args[1].value] = where
                if name in CATALOGUE_CALLS and args and isinstance(args[0], ast.Constant):
                    found[args[0].value] = where
                # InputError(message, path, "code") and its kind
                if (name.startswith("Invalid") or name.endswith("Error")) and len(args) >= 3 \
                        and isinstance(args[2], ast.Constant) and isinstance(args[2].value, str):
                    found[args[2].value] = where
    from service.errors import _HTTP_CODES, PLAIN_PROBLEMS

    found.update({code: "service/errors.py" for code in _HTTP_CODES.values()})
    found.update({code: "service/errors.py" for _, code in PLAIN_PROBLEMS.values()})
    return found


def test_the_source_scan_finds_the_codes_it_should():
    # the scan itself: it sees a class code, a keyword code, a service problem and a game's
    found = _codes_in_sources()
    for code in ("state_invalid", "state_version_unsupported", "sequence_unavailable",
                 "rank_unknown", "field_unknown", "type_missing", "limit_exceeded",
                 "event_invalid", "event_record_inconsistent", "plan_invalid"):
        assert code in found, code


def test_every_code_a_client_can_get_is_published():
    published = problem_codes()
    declared = {code for g in registry.all_games() for code in g.input_errors}
    candidates = {**_codes_in_sources(), **{c: "Game.input_errors" for c in declared}}
    missing = {c: where for c, where in candidates.items() if c not in published}
    assert not missing, f"codes a client can get, not in service.errors.problem_codes(): {missing}"

    spec = committed_spec()
    enum = set(spec["components"]["schemas"]["Problem"]["properties"]["code"]["enum"])
    assert set(candidates) <= enum, set(candidates) - enum
    assert enum == set(published)

    docs = (ROOT / "docs" / "integrating.md").read_text()
    table = docs[docs.index("## Error codes"):docs.index("## CORS")]
    undocumented = sorted(c for c in published if f"`{c}`" not in table)
    assert not undocumented, f"not in docs/integrating.md's error code table: {undocumented}"
    for code, (en, ja) in published.items():
        assert en and ja and en != ja and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja), code


def test_a_game_error_answers_its_code_with_japanese(client):
    dealt = client.post("/v1/games/manteur/deal", json={"players": ["a", "b"], "seed": "j"})
    state = dealt.get_json()["state"]
    holder = dealt.get_json()["to_act"][0]
    resp = client.post("/v1/validate", headers={"Accept-Language": "ja"}, json={
        "state": state, "action": {"type": "declare", "player": holder,
                                   "declaration": {"type": "pair", "ranks": ["Z"]}}})
    body = resp.get_json()
    assert resp.status_code == 422 and body["code"] == "rank_unknown", body
    assert body["title"] == TITLES["input_invalid"][1]
    assert "ランクではありません" in body["detail"]
    assert all(re.search(r"[\u3040-\u30ff]", m) for ms in body["errors"].values() for m in ms)
