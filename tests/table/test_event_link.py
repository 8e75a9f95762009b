"""An event's table in the page's modules, run in node: the table link (service/table/event.js)
read back exactly as made, whatever the event's id and the table's token, and a fragment that is
not a whole table link opening nothing; the match set up from the event's public view (fixed
teams, a substitute, the same deals read with the token in a header only); a saved copy of the
match without the table's token; the same deal in play in the record the table pushes."""
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


def run_page_module(module: str, body: str):
    """`body` (an async function's body returning a JSON value) run with service/table/`module`
    imported as M."""
    path = EVENT_JS.with_name(module)
    script = f"""
globalThis.location = {{ pathname: "/table" }};
const M = await import({json.dumps(path.as_uri())});
console.log(JSON.stringify(await (async () => {{ {body} }})()));
"""
    return run_module(script)


def test_a_saved_copy_of_an_event_table_leaves_its_token_out():
    out = run_page_module("store.js", """
const m = { id: "m1", game: "daifugo", players: ["a", "b"], key: "k", deals: [], pending: [],
            event: { id: "ev", round: 1, table: 2, token: "tid.secret", name: "Open" } };
const copy = M.matchCopy(m);
return { copy: copy.match.event, original: m.event.token, key: copy.match.key };
""")
    assert out["copy"] == {"id": "ev", "round": 1, "table": 2, "token": "", "name": "Open"}
    assert out["original"] == "tid.secret" and out["key"] == ""  # the match itself keeps it


def test_a_same_deal_in_play_is_in_the_record_with_its_seed_and_commitment():
    """An event's same deal is dealt from a seed the table holds: nothing is secret, so the
    record the table pushes holds it while in play (a deal the service shuffled waits for its
    end, when its seed is revealed)."""
    out = run_page_module("record.js", """
const step = { action: { type: "pass", player: "a" }, to_act: ["b"], status: "in_progress",
               score_deltas: [], events: [] };
const seeded = { request: { players: ["a", "b"], options: {}, seed: "s1", seed_salt: "0".repeat(32) },
                 answer: { seed_commitment: "c1", status: "in_progress", to_act: ["a"] }, steps: [step] };
const shuffled = { request: { players: ["a", "b"], options: {} },
                   answer: { seed_commitment: "c2", status: "in_progress", to_act: ["a"] }, steps: [step] };
const base = { game: "daifugo", players: ["a", "b"], options: {}, created: "2026-11-27T00:00:00Z", tags: {} };
return [(await M.buildRecord({ ...base, deals: [seeded] })).deals,
        (await M.buildRecord({ ...base, deals: [shuffled] })).deals];
""")
    seeded, shuffled = out
    assert seeded == [{"deal": {"seed": "s1", "seed_salt": "0" * 32, "seed_commitment": "c1"},
                       "actions": [{"action": {"type": "pass", "player": "a"}}]}]
    assert shuffled == []


def test_a_same_deal_named_by_the_page_is_recorded_with_its_seed_once_the_page_knows_it():
    """A same deal the page had the service deal by name (`event_deal`): where the token read
    its seed (signed or plain states) the record holds it while in play, as a seeded deal;
    under sealing the page knows only the commitment, so the deal waits, as one the service
    shuffled, for its end, when the seed and salt are revealed. The name never goes in the
    record (a record deals from seeds)."""
    out = run_page_module("record.js", """
const step = { action: { type: "pass", player: "a" }, to_act: ["b"], status: "in_progress",
               score_deltas: [], events: [] };
const named = { event: "ev", round: 1, deal: 1 };
const known = { request: { players: ["a", "b"], options: {}, event_deal: named, seed: "s1", seed_salt: "0".repeat(32) },
                answer: { seed_commitment: "c1", status: "in_progress", to_act: ["a"] }, steps: [step] };
const sealed = { request: { players: ["a", "b"], options: {}, event_deal: named },
                 answer: { seed_commitment: "c1", status: "in_progress", to_act: ["a"] }, steps: [step] };
const ended = { ...sealed, steps: [{ ...step, status: "finished", seed: "s1", seed_salt: "0".repeat(32) }] };
const base = { game: "daifugo", players: ["a", "b"], options: {}, created: "2026-11-27T00:00:00Z", tags: {} };
return [(await M.buildRecord({ ...base, deals: [known] })).deals,
        (await M.buildRecord({ ...base, deals: [sealed] })).deals,
        (await M.buildRecord({ ...base, deals: [ended] })).deals];
""")
    known, sealed, ended = out
    deal = {"seed": "s1", "seed_salt": "0" * 32, "seed_commitment": "c1"}
    assert known == [{"deal": deal, "actions": [{"action": {"type": "pass", "player": "a"}}]}]
    assert sealed == []
    assert ended == [{"deal": deal, "actions": [{"action": {"type": "pass", "player": "a"}}],
                      "result": {"status": "finished", "totals": {}}}]


def test_a_commitment_alone_is_a_committed_deal_the_page_names():
    """Under sealing the round's deals read with a table's token are commitments only: each is
    still a committed deal, which the page names (event, round, deal number) to have it dealt."""
    out = run_page_module("event.js", """
const event = { id: "ev", round: 2, deals: [{ seed_commitment: "c1" }] };
return { first: M.committedDeal(event, 1), second: M.committedDeal(event, 2), named: M.eventDeal(event, 1) };
""")
    assert out == {"first": {"seed_commitment": "c1"}, "second": None,
                   "named": {"event": "ev", "round": 2, "deal": 1}}


def test_an_event_table_is_set_up_from_the_public_view_with_its_substitute_and_teams():
    """Fixed teams (Guandan's pairs) and a substitute: the seats are the record's seat ids in
    seat order (the substitute's in their seat), the entrants to place are the teams, names come
    from the entrants, members and substitute; the round's same deals are read with the token,
    which travels in a header only, as the push's does."""
    view = {"id": "ev", "version": 9, "published": False, "standings": [], "event": {
        "name": "Pairs Cup", "system": {"game": "guandan", "options": {"preset": "tournament"},
                                        "round_end": {"kind": "deals", "deals": 2}, "same_deals": 2},
        "entrants": [{"id": "red", "name": "Red Pair", "members": [{"id": "ann", "name": "Aoki"},
                                                                  {"id": "aya", "name": "Ayase"}]},
                     {"id": "blue", "name": "Blue Pair", "members": [{"id": "bo", "name": "Bando"},
                                                                    {"id": "bu", "name": "Butler"}]}],
        "rounds": [{"tables": [{"number": 1, "seats": [
            {"entrant": "red", "player": "ann"}, {"entrant": "blue", "player": "bo"},
            {"entrant": "red", "player": "aya", "substitute": {"id": "sub", "name": "Sato"}},
            {"entrant": "blue", "player": "bu"}]}], "deals": [{"seed_commitment": "c1"},
                                                          {"seed_commitment": "c2"}]}]}}
    deals = {"round": 1, "deals": [{"seed": "s1", "seed_salt": "a" * 32, "seed_commitment": "c1"},
                                   {"seed": "s2", "seed_salt": "b" * 32, "seed_commitment": "c2"}]}
    out = run_page_module("event.js", f"""
const asked = [];
globalThis.fetch = async (url, init) => {{
  asked.push({{ url, method: init.method, headers: init.headers }});
  const body = url.endsWith("/deals") ? {json.dumps(deals)}
    : url.endsWith("/result") ? {{ id: "ev", version: 10 }} : {json.dumps(view)};
  return new Response(JSON.stringify(body), {{ status: 200, headers: {{ "Content-Type": "application/json" }} }});
}};
const link = M.tableLink("#event=ev&round=1&table=1&token=tid.secret");
const made = await M.eventMatch(link);
await M.putResult(made.event, {{ reported: {{ places: {{ red: 1, blue: 2 }} }} }}, "m1.1");
return {{ made, asked, second: M.committedDeal(made.event, 2), third: M.committedDeal(made.event, 3) }};
""")
    made = out["made"]
    assert made["players"] == ["ann", "bo", "sub", "bu"]
    assert made["game"] == "guandan" and made["options"] == {"preset": "tournament"}
    assert made["tags"] == {"event": "Pairs Cup", "round": "1", "table": "1"}
    event = made["event"]
    assert event["entrants"] == ["red", "blue"] and event["deal_limit"] == 2
    assert event["names"] == {"ann": "Aoki", "bo": "Bando", "sub": "Sato", "bu": "Butler",
                              "red": "Red Pair", "blue": "Blue Pair"}
    assert event["token"] == "tid.secret" and event["deals"] == deals["deals"]
    assert out["second"]["seed"] == "s2" and out["third"] is None  # past the same deals: shuffled
    assert [(a["method"], a["url"]) for a in out["asked"]] == [
        ("GET", "/v1/events/ev"), ("GET", "/v1/events/ev/rounds/1/deals"),
        ("PUT", "/v1/events/ev/rounds/1/tables/1/result")]
    assert all("secret" not in a["url"] for a in out["asked"])
    assert "Authorization" not in out["asked"][0]["headers"]  # the public view: no credential
    for asked in out["asked"][1:]:
        assert asked["headers"]["Authorization"] == "Bearer tid.secret"
    assert out["asked"][2]["headers"]["Idempotency-Key"] == "m1.1"


def test_a_push_carries_the_referee_key_the_page_holds_beside_the_table_token():
    """A refereed table's page holds the referee key: its pushes carry it in X-Referee-Key
    (a record adding a referee act needs it when states are signed or sealed), the table's
    token staying in Authorization; a page without a key sends no such header."""
    out = run_page_module("event.js", """
const asked = [];
globalThis.fetch = async (url, init) => {
  asked.push(init.headers);
  return new Response(JSON.stringify({ id: "ev", version: 3 }),
                      { status: 200, headers: { "Content-Type": "application/json" } });
};
const event = { id: "ev", round: 1, table: 2, token: "tid.secret" };
await M.putResult(event, { record: {} }, "m1.1", "the-referee-key");
await M.putResult(event, { record: {} }, "m1.2", "");
return asked;
""")
    keyed, unkeyed = out
    assert keyed["Authorization"] == "Bearer tid.secret"
    assert keyed["X-Referee-Key"] == "the-referee-key"
    assert unkeyed["Authorization"] == "Bearer tid.secret" and "X-Referee-Key" not in unkeyed


def page_appends(pairs: list[tuple[dict, dict]], tmp_path: Path) -> list:
    """recordAppend(old, new, "k") of each pair, as the page makes them in node."""
    given = tmp_path / "pairs.json"
    given.write_text(json.dumps(pairs))
    script = f"""
globalThis.location = {{ pathname: "/table" }};
const E = await import({json.dumps(EVENT_JS.as_uri())});
const fs = await import("node:fs");
const pairs = JSON.parse(fs.readFileSync({json.dumps(str(given))}, "utf8"));
console.log(JSON.stringify(pairs.map(([a, b]) => E.recordAppend(a, b, "k"))));
"""
    return run_module(script)


def test_the_page_appends_what_its_record_adds_and_nothing_when_it_changed_before(tmp_path):
    import random

    from tests.records import random_record, record_append, record_cut

    record = random_record("daifugo", random.Random(3), deals=3, physical=0.0)
    total = sum(len(d["actions"]) for d in record["deals"])
    rnd = random.Random(4)
    cuts = sorted({rnd.randint(1, total) for _ in range(12)} | {total})
    pairs = [(record_cut(record, a), record_cut(record, b)) for a, b in zip(cuts, cuts[1:])]
    assert page_appends(pairs, tmp_path) == [{**record_append(a, b), "base": "k"} for a, b in pairs]
    old, new = pairs[-1]
    changed = json.loads(json.dumps(new))
    changed["deals"][0]["actions"][0]["comment"] = "changed"
    fewer = json.loads(json.dumps(old))
    fewer["deals"][-1]["actions"].append({"action": {"type": "pass"}})
    renamed = {**new, "tags": {**new["tags"], "event": "Another"}}
    assert page_appends([(old, changed), (fewer, new), (old, renamed)], tmp_path) == \
        [None, None, None]
