"""POST /v1/records/sheet (docs/score-sheets.md): a match record's score sheet over HTTP. The format
by `?format=` or Accept, the language by `?lang=` or Accept-Language; the sheet is the engine's;
a record with a discrepancy answers 200 with the sheet up to it and says so in a header; bad
input is a problem with a stable code, never a 500."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import records, sheets

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def record_of(game_id: str) -> dict:
    return json.loads((EXAMPLES / f"{game_id}.json").read_text(encoding="utf-8"))


def post(client, record, query: str = "", **headers):
    body = record if isinstance(record, bytes) else json.dumps(record).encode()
    return client.post(f"/v1/records/sheet{query}", data=body, content_type="application/json",
                       headers=headers)


@pytest.mark.parametrize("fmt", sheets.FORMATS)
@pytest.mark.parametrize("lang", sheets.LANGS)
def test_the_sheet_is_the_engines_in_the_format_and_language_asked(client, fmt, lang):
    record = record_of("daifugo")
    resp = post(client, record, f"?format={fmt}&lang={lang}")
    assert resp.status_code == 200
    assert resp.mimetype == sheets.MEDIA_TYPES[fmt] and resp.mimetype_params["charset"] == "utf-8"
    assert resp.headers["Content-Language"] == lang
    assert resp.headers["Card-Referee-Consistent"] == "true"
    assert resp.headers["Card-Referee-Digest"] == record["digest"]
    report = records.check_record(record_of("daifugo"), keep_steps=True, lang=lang)
    assert resp.get_data(as_text=True) == sheets.render(record, report, fmt, lang)


@pytest.mark.parametrize("accept, media", [
    ("text/csv", "text/csv"), ("text/html", "text/html"), ("text/plain", "text/plain"),
    ("text/html;q=0.5, text/csv", "text/csv"), ("*/*", "text/plain"),
    ("application/json", "text/plain")])
def test_without_a_format_accept_chooses_and_caches_key_on_it(client, accept, media):
    resp = post(client, record_of("man"), Accept=accept)
    assert resp.status_code == 200 and resp.mimetype == media
    assert "Accept" in resp.headers["Vary"]


def test_without_lang_accept_language_chooses_and_lang_wins_over_it(client):
    record = record_of("man")
    ja = post(client, record, **{"Accept-Language": "ja-JP, en;q=0.5"})
    assert ja.headers["Content-Language"] == "ja" and "スコアシート" in ja.get_data(as_text=True)
    en = post(client, record, "?lang=en", **{"Accept-Language": "ja"})
    assert en.headers["Content-Language"] == "en" and "Score sheet" in en.get_data(as_text=True)


def test_a_record_with_a_discrepancy_answers_its_sheet_up_to_it(client):
    record = record_of("guandan")
    record["deals"][1]["actions"][5]["action"]["player"] = "p1" \
        if record["deals"][1]["actions"][5]["action"]["player"] != "p1" else "p2"
    resp = post(client, record, "?format=html&lang=en")
    assert resp.status_code == 200
    assert resp.headers["Card-Referee-Consistent"] == "false"
    page = resp.get_data(as_text=True)
    report = records.check_record(json.loads(json.dumps(record)), keep_steps=True)
    d = report["discrepancy"]
    assert d["deal"] == 1
    assert f"deal 2, action {d['step'] + 1}" in page and d["code"] in page
    assert 'class="verdict stopped"' in page


@pytest.mark.parametrize("query, path", [("?format=pdf", "format"), ("?lang=fr", "lang")])
def test_a_format_or_language_not_listed_is_request_invalid(client, query, path):
    resp = post(client, record_of("man"), query)
    assert resp.status_code == 422
    body = resp.get_json()
    assert body["code"] == "request_invalid" and path in body["errors"]


def test_a_malformed_record_is_record_invalid_and_not_json_is_json_malformed(client):
    record = record_of("man")
    record["deals"][0]["actions"][0] = "play"
    resp = post(client, record)
    assert resp.status_code == 422 and resp.get_json()["code"] == "record_invalid"
    resp = post(client, b"{not json")
    assert resp.status_code == 400 and resp.get_json()["code"] == "json_malformed"


def test_a_record_past_the_bounds_is_limit_exceeded(make_client):
    client = make_client(max_record_deals=2)
    resp = post(client, record_of("man"))
    assert resp.status_code == 413 and resp.get_json()["code"] == "limit_exceeded"


def test_a_browser_page_of_another_origin_may_read_the_verdict_headers(make_client):
    client = make_client(cors_origins=("https://table.example",))
    resp = post(client, record_of("manteur"), "?format=html", Origin="https://table.example")
    assert resp.status_code == 200
    exposed = {h.strip().lower() for h in resp.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"card-referee-consistent", "card-referee-digest"} <= exposed
