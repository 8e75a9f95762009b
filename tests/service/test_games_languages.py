"""GET /v1/games in Japanese (issue #14): every description of every registered game, the
language headers, and a cache validator per language."""
from __future__ import annotations

from engine import registry
from tests.engine.test_descriptions import texts, untranslated, without_texts

JA = {"Accept-Language": "ja"}


def test_games_answer_in_japanese_with_accept_language_ja(client):
    en = client.get("/v1/games")
    ja = client.get("/v1/games", headers=JA)
    assert ja.status_code == en.status_code == 200
    assert ja.headers["Content-Language"] == "ja" and en.headers["Content-Language"] == "en"
    for resp in (en, ja):
        assert "Accept-Language" in resp.headers["Vary"]
    en_games = {g["id"]: g for g in en.get_json()["games"]}
    ja_games = {g["id"]: g for g in ja.get_json()["games"]}
    assert set(ja_games) == set(en_games) >= {g.id for g in registry.all_games()}
    for game_id, english in en_games.items():
        assert without_texts(ja_games[game_id]) == without_texts(english), game_id
        assert list(texts(english)), game_id
        assert untranslated(english, ja_games[game_id]) == [], game_id


def test_each_language_has_its_own_etag(client):
    en = client.get("/v1/games")
    ja = client.get("/v1/games", headers={"Accept-Language": "ja, en;q=0.5"})
    assert en.headers["ETag"] != ja.headers["ETag"]
    # A validator of one language never stands for the other's answer.
    again = client.get("/v1/games", headers={**JA, "If-None-Match": en.headers["ETag"]})
    assert again.status_code == 200 and again.headers["Content-Language"] == "ja"
    same = client.get("/v1/games", headers={**JA, "If-None-Match": ja.headers["ETag"]})
    assert same.status_code == 304


def test_the_language_is_chosen_by_preference_and_primary_subtag(client):
    def lang(header):
        return client.get("/v1/games", headers={"Accept-Language": header}).headers[
            "Content-Language"]
    assert lang("ja-JP") == "ja"
    assert lang("ja-JP, en;q=0.5") == "ja"      # a regional Japanese outranks plain English
    assert lang("ja,en-US;q=0.9,en;q=0.8") == "ja"
    assert lang("en-US, ja;q=0.5") == "en"      # and the other way round
    assert lang("fr, ja;q=0.3, en;q=0.2") == "ja"
    assert lang("ja;q=0, en;q=0.1") == "en"     # q=0: not acceptable
    assert lang("fr") == lang("*") == lang("*, ja;q=0.5") == "en"
    assert lang("*, en;q=0, ja;q=0.5") == "ja"
