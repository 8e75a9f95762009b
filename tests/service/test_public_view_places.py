"""The public view gives each table's places as its result stands (engine/events/standings.py
table_places): the public page shows a table's result and the crosstable without knowing a
game's rules. A table with a match record in an open round is placed by its finished deals'
totals, and the record itself stays hidden."""
from __future__ import annotations

from engine.events import parse_event
from engine.events.standings import table_places
from tests.service.test_hosted_events import Hosted, client, record_for, reported_for  # noqa: F401 - the fixture


def _public(ev) -> dict:
    resp = ev.client.get(f"/v1/events/{ev.id}")
    assert resp.status_code == 200
    return resp.get_json()


def test_each_table_with_a_result_carries_its_places_in_the_public_view(client):
    ev = Hosted(client)
    ev.start_round()
    doc = ev.document()
    ev.ok(ev.put_result(1, 1, reported_for(doc, 1, 1)))
    ev.ok(ev.put_result(1, 2, {"record": record_for(doc, 1, 2, seed=7, deals=2)}))
    view = _public(ev)
    stored = parse_event(ev.document())
    for shown, kept in zip(view["event"]["rounds"][0]["tables"], stored.rounds[0].tables):
        assert shown["places"] == table_places(stored, kept)
    # the open round's record: places, the finished deals' totals, never the record
    recorded = view["event"]["rounds"][0]["tables"][1]
    assert set(recorded["result"]) == {"progress"}
    assert set(recorded["places"]) == {s["entrant"] for s in recorded["seats"]}
    # a table still playing has no places yet
    ev.ok(ev.post("/rounds/1/close"))
    ev.start_round()
    assert all("places" not in t for t in _public(ev)["event"]["rounds"][1]["tables"])
