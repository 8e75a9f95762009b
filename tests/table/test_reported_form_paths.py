"""The reported deal's form (service/table/reportform.js) in node: a refusal's path is read back
as the deal and the field it names, whatever the document path around it and the index inside
the field, and a number map is keyed by the game's sides at that many players, else by seat."""
from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings, strategies as st

from tests.table.node import run_module

REPORTFORM_JS = Path(__file__).resolve().parents[2] / "service" / "table" / "reportform.js"


def run(body: str):
    return run_module(f"""
const R = await import({json.dumps(REPORTFORM_JS.as_uri())});
console.log(JSON.stringify(await (async () => {{ {body} }})()));
""")


NAME = st.from_regex(r"[a-z_][a-z0-9_]{0,12}", fullmatch=True)
PATHS = st.tuples(st.sampled_from(["", "reported.", "result.reported.",
                                   "rounds[3].tables[0].result.reported."]),
                  st.integers(0, 40), NAME, st.sampled_from(["", "[0]", "[12]", ".team_0_2"]))


@settings(max_examples=5, deadline=None)
@given(st.lists(PATHS, min_size=1, max_size=20))
def test_a_refusals_path_names_its_deal_and_field(paths):
    texts = [f"{before}deals[{k}].{name}{after}" for before, k, name, after in paths]
    read = run(f"return {json.dumps(texts)}.map(R.fieldOfPath);")
    assert read == [{"deal": k, "field": name} for _b, k, name, _a in paths]


def test_a_path_naming_no_deal_names_no_field_and_a_deal_alone_names_the_deal():
    assert run('return ["", "places", "reported.scores.p1", "rounds[0].tables[0]"].map(R.fieldOfPath);') \
        == [None] * 4
    assert run('return R.fieldOfPath("result.reported.deals[2]");') == {"deal": 2, "field": None}
    by_field = run('return R.refusalsAt({errors: {"r.deals[1].order[2]": ["twice"], '
                   '"r.deals[0].out": ["x"], "r.deals[1]": ["over"]}}, 1);')
    assert by_field == {"order": "twice", "": "over"}


def test_a_number_map_is_keyed_by_the_games_sides_else_by_seat():
    out = run('const d = {sides: {"4": ["team_0_2", "team_1_3"]}};'
              'return [R.sidesOf(d, ["a", "b", "c", "d"]), R.sidesOf(d, ["a", "b"])];')
    assert out == [["team_0_2", "team_1_3"], ["a", "b"]]
