"""tools/answer_digest.py, the before/after check of a change meant to leave every ruling
alone: the same code gives the same lines, and a ruling that moves shows as a differing line."""
from __future__ import annotations

from engine import registry
from tools import answer_digest


def _lines(game_id: str) -> list[tuple[str, str]]:
    return list(answer_digest.lines(game_id, 2))


def test_the_same_rules_give_the_same_answers_line_for_line():
    for game in registry.all_games():
        first = _lines(game.id)
        assert first and first == _lines(game.id), game.id
        assert any(" played" in prefix for prefix, _ in first), game.id


def test_a_ruling_that_moves_shows_as_a_differing_line(monkeypatch):
    before = _lines("man")
    game = registry.get("man")
    to_act = type(game).to_act
    # who may act next, listed in reverse: every answer's to_act moves
    monkeypatch.setattr(type(game), "to_act", lambda self, s: list(reversed(to_act(self, s))))
    after = _lines("man")
    assert before[0] == after[0]  # the deal's first seat alone: no change yet
    assert before != after  # a play-out lists several seats at once (a man window)
