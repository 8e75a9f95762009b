"""Reported deals entered on the pages, in Chromium against a real gunicorn and a real Redis, for
every game whose GET /v1/games entry publishes a `reported_deal` (no game is named here): the
table page's report and the director's result form are built from that description alone; a deal
filled in through them lands in the event document as the table would report it and the public
standings score it as the record of the same deal; a deal the service refuses is shown at the
field its path names, and corrected there. Where the event asks each seat to confirm a reported
result, the table page sends it only once every seat tapped its confirmation, and a changed result
is confirmed again; the public page marks a result a seat has not confirmed, and the director adds
the confirmation of a seat that signed the score sheet. A table calls the referee from its page;
the director's live watch shows the call waiting and clears it, and the table sees it cleared."""
from __future__ import annotations

import copy
import json
import random
import re
from typing import Any

import pytest
from selenium.webdriver.support.ui import Select

from engine import registry
from engine.errors import InputError
from engine.events import parse_event
from engine.events.standings import as_json, standings
from tests.events.helpers import event as event_doc, layouts
from tests.events.test_reported_deals import deal_reports
from tests.events_pages.conftest import DIRECTOR_KEY
from tests.records import random_record
from tests.service.serving import api
from tests.table.browser import start_browser
from tests.table.pagedriver import click, find, finds, forget_matches, idle, saved_match, wait_for


class OneTable:
    """An event of one table of a game (its first layout an event seats), round 1 started, and
    a random deal played at that table: the record, and the report of it a table would make."""

    def __init__(self, base: str, game_id: str, seed: int, **system: Any):
        self.base, self.game = base, game_id
        _game, size, partners = next(x for x in layouts() if x[0] == game_id)
        side = len(registry.get(game_id).partnerships[size][0]) if partners == "fixed" else 1
        doc = event_doc(size // side, game=game_id, table_size=size, partners=partners, rounds=1,
                        seating="random", **system)
        doc["name"] = f"{game_id} reported"
        made = api(base, "POST", "/v1/events", doc, DIRECTOR_KEY)
        self.id, self.director = made["id"], made["director_token"]
        started = api(base, "POST", f"/v1/events/{self.id}/rounds", {}, self.director,
                      **{"If-Match": f'"{made["version"]}"'})
        self.token = started["tables"][0]["token"]
        table = self.document()["rounds"][0]["tables"][0]
        self.seats = [s["player"] for s in table["seats"]]
        self.record = random_record(game_id, random.Random(seed), deals=1, physical=0.0,
                                    ledger=0.0, comments=0.0, players=self.seats)
        self.reports = deal_reports(game_id, self.record)

    def document(self) -> dict:
        return api(self.base, "GET", f"/v1/events/{self.id}/document", token=self.director)

    def reported(self) -> dict | None:
        result = self.document()["rounds"][0]["tables"][0].get("result") or {}
        return result.get("reported")

    def scored_as_the_record(self) -> None:
        """The public standings are those of the same event with the table's record."""
        doc = self.document()
        with_record = copy.deepcopy(doc)
        with_record["rounds"][0]["tables"][0]["result"] = {"record": self.record}
        public = api(self.base, "GET", f"/v1/events/{self.id}")["standings"]
        drop = ("reported",)
        assert [{k: v for k, v in line.items() if k not in drop} for line in public] == \
            [{k: v for k, v in line.items() if k not in drop}
             for line in as_json(standings(parse_event(with_record)))]
        assert all(line["reported"] == line["played"] == 1 for line in public)


    def refused_deal(self, described: dict) -> tuple[dict, str]:
        """A deal the form can send that the rules refuse, and the field the refusal names:
        the form left empty, else the deal with its first seat list run on past any end."""
        empty = {f["name"]: ([] if f["type"] == "player_list" else None)
                 for f in described["fields"] if f.get("required", True)}
        lists = [f["name"] for f in described["fields"] if f["type"] == "player_list"]
        overrun = [{**self.reports[0], name: [*self.reports[0].get(name, []),
                                              *self.seats * 12]} for name in lists[:1]]
        for deal in [empty, *overrun]:
            doc = self.document()
            doc["rounds"][0]["tables"][0]["result"] = {"reported": {"deals": [deal]}}
            try:
                standings(parse_event(doc))
            except InputError as err:
                field = re.search(r"deals\[0\]\.(\w+)", err.path)
                if field:
                    return deal, field.group(1)
        raise AssertionError(f"{self.game}: no deal the form can send is refused at a field")


def reporting_games(base: str) -> dict[str, dict]:
    """Each game whose GET /v1/games entry describes a reported deal: its description."""
    games = api(base, "GET", "/v1/games")["games"]
    found = {g["id"]: g["reported_deal"] for g in games if g["reported_deal"]}
    assert found, "no game publishes a reported deal"
    return found


def fill(driver, described: dict, report: dict) -> None:
    """The deal's form filled with `report`, field by field as its description says."""
    for f in described["fields"]:
        name, value = f["name"], report.get(f["name"])
        if value in (None, False, [], {}):
            continue
        kind = f["type"]
        if kind in ("player", "enum"):
            Select(find(driver, f"rd-{name}")).select_by_value(str(value))
        elif kind == "player_list":
            for seat in value:
                click(driver, f"rd-{name}-add-{seat}")
        elif kind == "bool":
            click(driver, f"rd-{name}")
        elif kind == "int_map":
            for side, number in value.items():
                box = find(driver, f"rd-{name}-{side}")
                box.clear()
                box.send_keys(str(number))
        elif kind == "str_list_list":
            for i, row in enumerate(value):
                click(driver, f"rd-{name}-add")
                for item in row:
                    click(driver, f"rd-{name}-{i}-{item}")
        else:
            raise AssertionError(f"a field kind the pages do not pick: {kind}")


def undo_seat_lists(driver, described: dict, deal: dict) -> None:
    """The seats a deal's form picked taken back, field by field."""
    for f in described["fields"]:
        if f["type"] == "player_list":
            for _ in deal.get(f["name"]) or []:
                click(driver, f"rd-{f['name']}-undo")


def shown_refusals(driver) -> dict[str, str]:
    """The refusals shown at the form's fields: field -> message."""
    return {el.get_attribute("data-testid")[len("rd-error-"):]: el.text
            for el in finds(driver, '[data-testid^="rd-error-"]') if el.is_displayed()}


@pytest.fixture(scope="module")
def chromium(events_service):
    driver = start_browser()
    driver.execute_script("1")
    yield driver
    driver.quit()  # asserts no Content-Security-Policy violation on the way out


def test_a_table_reports_each_games_deal_from_the_published_form(chromium, events_service):
    base = events_service
    for k, (game_id, described) in enumerate(sorted(reporting_games(base).items())):
        ev = OneTable(base, game_id, seed=k)
        forget_matches(chromium, base)
        chromium.get(f"{base}/table#event={ev.id}&round=1&table=1&token={ev.token}")
        wait_for(chromium, lambda d: idle(d) and finds(d, '[data-testid="report-on"]'),
                 timeout=20, what=f"{game_id}'s table")
        chromium.execute_script("window.confirm = () => true")
        click(chromium, "report-on")
        # a deal the rules refuse first: shown at the field the answer's path names
        bad, field = ev.refused_deal(described)
        wait_for(chromium, lambda d: finds(d, '[data-testid="reported-deal"]'), what="the form")
        fill(chromium, described, bad)
        click(chromium, "report-send")
        shown = wait_for(chromium, lambda d: idle(d) and shown_refusals(d), timeout=20,
                         what=f"{game_id}'s refusal at its field")
        problem = saved_match(chromium)["event"]["push"]["problem"]
        assert list(shown) == [field], problem
        assert shown[field] in " ".join(sum(problem["errors"].values(), []))
        assert ev.reported() is None  # nothing stored
        # the same deal corrected in its form: sent, stored as the table reports it, scored
        undo_seat_lists(chromium, described, bad)
        fill(chromium, described, ev.reports[0])
        click(chromium, "report-send")
        wait_for(chromium, lambda d: idle(d) and find(d, "push").get_attribute("data-state") == "sent",
                 timeout=20, what=f"{game_id}'s deal pushed")
        assert not shown_refusals(chromium)
        assert ev.reported()["deals"] == ev.reports, game_id
        ev.scored_as_the_record()
    # the form's words are the description's in the page's language (GET /v1/games, ja)
    ja = api(base, "GET", "/v1/games", **{"Accept-Language": "ja"})["games"]
    first = next(g["reported_deal"]["fields"][0] for g in ja if g["id"] == game_id)
    click(chromium, "lang-switch")
    wait_for(chromium, lambda d: idle(d) and first["description"] in find(
        d, f"rd-field-{first['name']}").text, what="the form in Japanese")
    click(chromium, "lang-switch")


def open_on_director_page(chromium, base: str, ev) -> None:
    """The director's page with `ev` kept in this browser (its director token), opened."""
    chromium.get(f"{base}/director")
    chromium.execute_script(
        "localStorage.setItem('cardref.director.events', arguments[0])",
        json.dumps({ev.id: {"id": ev.id, "name": ev.id, "token": ev.director, "tables": {}}}))
    chromium.get(f"{base}/director")
    click(chromium, f"open-{ev.id}")


def test_the_director_enters_each_games_deal_from_the_published_form(chromium, events_service):
    base = events_service
    for k, (game_id, described) in enumerate(sorted(reporting_games(base).items())):
        ev = OneTable(base, game_id, seed=100 + k)
        open_on_director_page(chromium, base, ev)
        click(chromium, "result-1")
        wait_for(chromium, lambda d: finds(d, '[data-testid="reported-deal"]'), what="the form")
        bad, field = ev.refused_deal(described)
        fill(chromium, described, bad)
        click(chromium, "result-save")  # refused: said at its field
        shown = wait_for(chromium, lambda d: shown_refusals(d), timeout=20,
                         what=f"{game_id}'s refusal at its field")
        assert list(shown) == [field] and shown[field]
        assert ev.reported() is None
        undo_seat_lists(chromium, described, bad)
        fill(chromium, described, ev.reports[0])
        click(chromium, "result-save")
        wait_for(chromium, lambda d: not find(d, "result-form").is_displayed(), timeout=20,
                 what=f"{game_id}'s result saved")
        assert ev.reported()["deals"] == ev.reports, game_id
        ev.scored_as_the_record()


def test_each_seat_confirms_a_reported_result_before_the_table_sends_it(chromium, events_service):
    base = events_service
    game_id, described = sorted(reporting_games(base).items())[0]
    ev = OneTable(base, game_id, seed=7, confirmations="seats")
    forget_matches(chromium, base)
    chromium.get(f"{base}/table#event={ev.id}&round=1&table=1&token={ev.token}")
    wait_for(chromium, lambda d: idle(d) and finds(d, '[data-testid="report-on"]'), timeout=20,
             what="the table")
    chromium.execute_script("window.confirm = () => true")
    click(chromium, "report-on")
    wait_for(chromium, lambda d: finds(d, '[data-testid="reported-deal"]'), what="the form")
    fill(chromium, described, ev.reports[0])
    click(chromium, "report-send")

    def state(d) -> str:
        return str(find(d, "confirm-box").get_attribute("data-state"))
    wait_for(chromium, lambda d: idle(d) and state(d) == "waiting", what="the confirmations asked")
    assert find(chromium, "push").get_attribute("data-state") == "confirming"
    for seat in ev.seats[:-1]:  # each seat's tap shows its name; one missing: nothing sent
        assert seat in find(chromium, f"confirm-{seat}").text
        click(chromium, f"confirm-{seat}")
        wait_for(chromium, lambda d, s=seat: find(d, f"confirm-{s}").get_attribute(
            "aria-pressed") == "true", what=f"{seat}'s confirmation")
    assert ev.reported() is None
    click(chromium, f"confirm-{ev.seats[-1]}")
    wait_for(chromium, lambda d: idle(d) and find(d, "push").get_attribute("data-state") == "sent",
             timeout=20, what="the confirmed result sent")
    assert state(chromium) == "confirmed"
    reported = ev.reported()
    assert reported["deals"] == ev.reports
    assert reported["confirmed"] == [{"seat": s, "via": "table"} for s in ev.seats]
    public = api(base, "GET", f"/v1/events/{ev.id}")
    assert public["version"] >= 1
    # the result changed (a deal corrected): every confirmation is asked again
    click(chromium, "report-edit-0")
    undo_seat_lists(chromium, described, ev.reports[0])
    bad, _field = ev.refused_deal(described)
    fill(chromium, described, bad)
    click(chromium, "report-send")
    wait_for(chromium, lambda d: idle(d) and state(d) == "waiting", what="confirmations cleared")
    assert all(find(chromium, f"confirm-{s}").get_attribute("aria-pressed") == "false"
               for s in ev.seats)
    assert ev.reported()["deals"] == ev.reports  # the changed result is not sent unconfirmed
    click(chromium, "lang-switch")
    wait_for(chromium, lambda d: "各席" in find(d, "confirm-box").text, what="the words in Japanese")
    click(chromium, "lang-switch")
    # a result sent without every seat's confirmation is kept (here the last seat's missing);
    # the public page and the director's watch mark it
    tapped = [{"seat": s, "via": "table"} for s in ev.seats[:-1]]
    api(base, "PUT", f"/v1/events/{ev.id}/rounds/1/tables/1/result",
        {"reported": {"deals": ev.reports, "confirmed": tapped}}, ev.token)
    chromium.get(f"{base}/events/{ev.id}")
    wait_for(chromium, lambda d: finds(d, '[data-testid="table-unconfirmed-1"]'), timeout=20,
             what="the public page marking the unconfirmed result")
    click(chromium, "lang-switch")
    wait_for(chromium, lambda d: "全席の確認なし" in find(d, "table-result-1").text,
             what="the public mark in Japanese")
    click(chromium, "lang-switch")
    open_on_director_page(chromium, base, ev)
    wait_for(chromium, lambda d: "not confirmed by every seat" in find(d, "table-status-1").text,
             what="the unconfirmed result marked")
    # the last seat signed the score sheet: the director's form says which seats tapped, and
    # "every seat signed" adds the director's word for the missing one, the taps kept
    click(chromium, "result-1")
    wait_for(chromium, lambda d: finds(d, '[data-testid="result-confirmations"]'),
             what="the confirmations in the director's form")
    assert all(finds(chromium, f'[data-testid="result-signed-had-{s}"]') for s in ev.seats[:-1])
    assert not finds(chromium, f'[data-testid="result-signed-had-{ev.seats[-1]}"]')
    click(chromium, "result-signed-all")
    assert find(chromium, f"result-signed-{ev.seats[-1]}").is_selected()
    click(chromium, "result-save")
    wait_for(chromium, lambda d: "not confirmed" not in find(d, "table-status-1").text,
             timeout=20, what="the result confirmed by the director's word")
    reported = ev.reported()
    assert reported["deals"] == ev.reports
    assert reported["confirmed"] == tapped + [{"seat": ev.seats[-1], "via": "director"}]
    chromium.get(f"{base}/events/{ev.id}")
    wait_for(chromium, lambda d: finds(d, '[data-testid="table-result-1"]'), timeout=20,
             what="the public page")
    assert not finds(chromium, '[data-testid="table-unconfirmed-1"]')


def test_a_table_calls_the_referee_and_the_director_clears_the_call(chromium, events_service):
    base = events_service
    game_id, _described = sorted(reporting_games(base).items())[0]
    ev = OneTable(base, game_id, seed=8)
    forget_matches(chromium, base)
    table_link = f"{base}/table#event={ev.id}&round=1&table=1&token={ev.token}"
    chromium.get(table_link)
    wait_for(chromium, lambda d: idle(d) and finds(d, '[data-testid="call-referee"]'), timeout=20,
             what="the table's call button")
    Select(find(chromium, "call-reason")).select_by_value("ruling")
    click(chromium, "call-referee")
    wait_for(chromium, lambda d: find(d, "referee-call").get_attribute("data-state") == "waiting",
             what="the call waiting")
    assert find(chromium, "call-cancel").is_displayed()
    waiting = api(base, "GET", f"/v1/events/{ev.id}/calls", token=ev.director)["calls"]
    assert [(c["table"], c["reason"]) for c in waiting] == [(1, "ruling")]
    # the director's live watch marks the table, with how long it has waited, and clears it
    open_on_director_page(chromium, base, ev)
    shown = wait_for(chromium, lambda d: finds(d, '[data-testid="table-call-1"]'), timeout=20,
                     what="the call in the live watch")
    assert "ruling" in shown[0].text or "rules" in shown[0].text
    assert re.fullmatch(r"\d+:\d\d", find(chromium, "table-call-waited-1").text)
    assert "calling" in find(chromium, "table-1").get_attribute("class")
    click(chromium, "table-call-clear-1")
    wait_for(chromium, lambda d: not finds(d, '[data-testid="table-call-1"]'), what="the call cleared")
    assert api(base, "GET", f"/v1/events/{ev.id}/calls", token=ev.director)["calls"] == []
    # the table, opened again, finds its call cleared
    chromium.get(table_link)
    wait_for(chromium, lambda d: finds(d, '[data-testid="call-referee"]'), timeout=20,
             what="the table told its call was cleared")
