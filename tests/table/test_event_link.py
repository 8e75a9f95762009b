"""The table link of an event's table (service/table/event.js), read in node: whatever the event's
id and the table's token (the service's URL-safe alphabets, or anything the director's page might
escape), the page reads back exactly the event, round, table and token the link was made of, and
a fragment that is not a whole table link opens nothing."""
from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import urlencode

from hypothesis import given, settings, strategies as st

from tests.table.node import run_module

EVENT_JS = Path(__file__).resolve().parents[2] / "service" / "table" / "event.js"


def read_links(fragments: list[str]) -> list:
    """tableLink of each fragment, as node reads them (api.js reads `location` when loaded)."""
    script = f"""
globalThis.location = {{ pathname: "/table" }};
const E = await import({json.dumps(EVENT_JS.as_uri())});
console.log(JSON.stringify({json.dumps(fragments)}.map((f) => E.tableLink(f))));
"""
    return run_module(script)


URL_SAFE = st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
                   min_size=1, max_size=30)
ANY_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=20)
LINKS = st.fixed_dictionaries({
    "event": st.one_of(URL_SAFE, ANY_TEXT), "round": st.integers(1, 64), "table": st.integers(1, 500),
    "token": st.one_of(st.builds(lambda a, b: f"{a}.{b}", URL_SAFE, URL_SAFE), ANY_TEXT)})


@settings(max_examples=5, deadline=None)
@given(st.lists(LINKS, min_size=1, max_size=25))
def test_a_table_link_reads_back_what_it_was_made_of(links):
    fragments = ["#" + urlencode(link) for link in links]
    read = read_links(fragments)
    assert read == [{"id": x["event"], "round": x["round"], "table": x["table"], "token": x["token"]}
                    for x in links]


def test_a_fragment_that_is_not_a_whole_table_link_opens_no_table():
    whole = {"event": "ev", "round": "1", "table": "2", "token": "a.b"}
    broken = [{k: v for k, v in whole.items() if k != gone} for gone in whole]
    broken += [{**whole, "round": "0"}, {**whole, "table": "two"}, {**whole, "round": "1.5"}]
    assert read_links(["", "#", "#event=ev"] + ["#" + urlencode(b) for b in broken]) == \
        [None] * (3 + len(broken))
    assert read_links(["#" + urlencode(whole)]) == [{"id": "ev", "round": 1, "table": 2, "token": "a.b"}]
