"""A Python front end of one game (Daifugo) through the client openapi-python-client generates
from openapi.yaml: it deals, and at every step of the deal draws each seat's and the
spectator's table from the API's words alone — `to_act`, the `summary`'s facts and seats, the
`standings`, the cards by their deck names from GET /v1/games, and a button per listed action
from its `text` — in English and in Japanese, each from the view asked in that language
(Accept-Language). Every string drawn is non-empty; each Japanese line differs from its
English one where the API's words differ.

Not a test module: tests/service/test_generated_client.py checks it with `mypy --strict`
against the client it generates (typed access only: no `Any`, no cast) and runs it,
`python client_table_program.py <base url>`.
"""
from __future__ import annotations

import sys
from typing import Literal, Protocol

import httpx
from card_referee_client import Client
from card_referee_client.api.v1 import deal_daifugo, legal_actions, list_games, validate_action, view
from card_referee_client.models import (
    DaifugoDealRequest,
    DaifugoDiscardAction,
    DaifugoExchangeAction,
    DaifugoGiveAction,
    DaifugoLegalActionsRequest,
    DaifugoLegalActionsRequestGame,
    DaifugoPassAction,
    DaifugoPenaltyAction,
    DaifugoPlayAction,
    DaifugoState,
    DaifugoValidateRequest,
    DaifugoValidateRequestGame,
    DaifugoView,
    DaifugoViewRequest,
    DaifugoViewRequestGame,
    DaifugoWarningAction,
    DaifugoWithdrawAction,
    DealResponse,
    GamesResponse,
    LegalActionsResponse,
    Status,
    ValidateAccepted,
    ViewResponse,
)
from card_referee_client.types import Unset

Lang = Literal["en", "ja"]
LANGS: tuple[Lang, Lang] = ("en", "ja")
DaifugoAction = (DaifugoPlayAction | DaifugoPassAction | DaifugoGiveAction | DaifugoDiscardAction
                 | DaifugoExchangeAction | DaifugoWarningAction | DaifugoPenaltyAction | DaifugoWithdrawAction)
DAIFUGO_ACTIONS = (DaifugoPlayAction, DaifugoPassAction, DaifugoGiveAction, DaifugoDiscardAction,
                   DaifugoExchangeAction, DaifugoWarningAction, DaifugoPenaltyAction, DaifugoWithdrawAction)
MOVING_ON = (DaifugoPlayAction, DaifugoGiveAction, DaifugoDiscardAction, DaifugoExchangeAction)


class Words(Protocol):
    """Every text for people the API gives: `{en, ja}` (each its own generated model)."""
    @property
    def en(self) -> str: ...
    @property
    def ja(self) -> str: ...


class Said:
    """Words the program chose itself, the same in both languages (punctuation, seat ids)."""
    def __init__(self, same: str) -> None:
        self.en = self.ja = same


Line = list[Words]


def word(part: Words, lang: Lang) -> str:
    return part.en if lang == "en" else part.ja


def say(line: Line, lang: Lang) -> str:
    for part in line:
        if not isinstance(part, Said) and not word(part, lang).strip():
            raise SystemExit(f"an empty {lang} text in {[p.en for p in line]}")
    said = "".join(word(part, lang) for part in line)
    if not said.strip():
        raise SystemExit(f"an empty {lang} line")
    return said


def worded(line: Line) -> bool:
    return any(part.en != part.ja for part in line if not isinstance(part, Said))


class Name:
    def __init__(self, en: str, ja: str) -> None:
        self.en, self.ja = en, ja


def card_names(games: GamesResponse) -> dict[str, Name]:
    """Daifugo's cards by their names for people, from every deck its options make."""
    info = next(g for g in games.games if g.id.value == "daifugo")
    names: dict[str, Name] = {}
    for deck in info.deck.decks:
        for card in deck.cards:
            en, ja = card.names.additional_properties.get("en"), card.names.additional_properties.get("ja")
            if en is None or ja is None:
                raise SystemExit(f"{card.card}: not named in both languages")
            names[card.card] = Name(en, ja)
    return names


def table(seen: DaifugoView, buttons: list[DaifugoAction], names: dict[str, Name]) -> list[Line]:
    lines: list[Line] = [[Said("> " + (" ".join(seen.to_act) or "-"))]]
    for fact in seen.summary.facts:
        line: Line = [fact.label, Said(": "), fact.text]
        for card in fact.cards or []:
            line += [Said(" "), names[card]]
        lines.append(line + ([Said(f" @{fact.seat}")] if fact.seat is not None else []))
    for seat in seen.summary.seats:
        left = "?" if seat.cards_left is None else str(seat.cards_left)
        role: Line = [Said(" "), seat.role] if seat.role is not None else []
        lines.append([Said(f"{seat.seat} #{left}"), *role, *([Said(f" ({seat.team})")] if seat.team else [])])
    lines.append([Said("= "), seen.standings.unit])
    for entry in seen.standings.entries:
        lines.append([Said(f"  {entry.id} {entry.total}: "), entry.text])
    for action in buttons:
        if isinstance(action.text, Unset):
            raise SystemExit(f"a listed {action.type_.value} without its words")
        lines.append([Said("["), action.text, Said("]")])
    return lines


def draw_both(by_lang: dict[Lang, DaifugoView], buttons: list[DaifugoAction],
              names: dict[str, Name]) -> tuple[list[str], list[str], int]:
    """The table in English and in Japanese, and how many of its lines the API worded apart."""
    en, ja = table(by_lang["en"], buttons, names), table(by_lang["ja"], buttons, names)
    if len(en) != len(ja):
        raise SystemExit(f"{len(en)} English lines, {len(ja)} Japanese")
    said_en: list[str] = []
    said_ja: list[str] = []
    apart = 0
    for line_en, line_ja in zip(en, ja):
        said_en.append(say(line_en, "en"))
        said_ja.append(say(line_ja, "ja"))
        if worded(line_ja):
            if said_ja[-1] == said_en[-1]:
                raise SystemExit(f"the Japanese line is the English one: {said_ja[-1]}")
            apart += 1
    return said_en, said_ja, apart


def main(base_url: str) -> None:
    clients = {lang: Client(base_url=base_url, headers={"Accept-Language": lang}, timeout=httpx.Timeout(30.0),
                            raise_on_unexpected_status=True) for lang in LANGS}
    client = clients["en"]
    games = list_games.sync(client=client)
    if not isinstance(games, GamesResponse):
        raise SystemExit(f"no games: {games}")
    names = card_names(games)
    players = ["p0", "p1", "p2", "p3"]
    dealt = deal_daifugo.sync(client=client, body=DaifugoDealRequest(players=players))
    if not isinstance(dealt, DealResponse) or not isinstance(dealt.state, (DaifugoState, str)):
        raise SystemExit(f"not a Daifugo deal: {dealt}")
    state: DaifugoState | str = dealt.state
    to_act, status, steps, drawn, apart = dealt.to_act, dealt.status, 0, 0, 0
    shown: dict[Lang, list[str]] = {}
    while True:
        buttons: dict[str, list[DaifugoAction]] = {}
        for player in to_act:
            listed = legal_actions.sync(client=client, body=DaifugoLegalActionsRequest(
                game=DaifugoLegalActionsRequestGame.DAIFUGO, state=state, player=player))
            if not isinstance(listed, LegalActionsResponse):
                raise SystemExit(f"no legal actions: {listed}")
            buttons[player] = [a for a in listed.actions if isinstance(a, DAIFUGO_ACTIONS)]
            if len(buttons[player]) != listed.count:
                raise SystemExit(f"another game's action listed: {listed.actions}")
        for viewer in [*players, None]:
            by_lang: dict[Lang, DaifugoView] = {}
            for lang in LANGS:
                seen = view.sync(client=clients[lang], body=DaifugoViewRequest(
                    game=DaifugoViewRequestGame.DAIFUGO, state=state, player=viewer))
                if not isinstance(seen, ViewResponse) or not isinstance(seen.view, DaifugoView):
                    raise SystemExit(f"not a Daifugo view: {seen}")
                by_lang[lang] = seen.view
            said_en, said_ja, worded_apart = draw_both(
                by_lang, buttons.get(viewer, []) if viewer is not None else [], names)
            drawn, apart = drawn + 1, apart + worded_apart
            if viewer is not None and viewer in to_act and not shown:
                shown = {"en": said_en, "ja": said_ja}
        if status == Status.FINISHED:
            break
        if steps > 1000:
            raise SystemExit(f"not finished after {steps} actions")
        moving = [a for acts in buttons.values() for a in acts if isinstance(a, MOVING_ON)]
        chosen = moving[steps % len(moving)] if moving else next(a for acts in buttons.values() for a in acts)
        answer = validate_action.sync(client=client, body=DaifugoValidateRequest(
            game=DaifugoValidateRequestGame.DAIFUGO, state=state, action=chosen))
        if not isinstance(answer, ValidateAccepted) or not isinstance(answer.state, (DaifugoState, str)):
            raise SystemExit(f"a listed action was refused: {answer}")
        state, to_act, status, steps = answer.state, answer.to_act, answer.status, steps + 1
    if apart == 0:
        raise SystemExit(f"no Japanese word in {drawn} tables")
    print(f"daifugo: {steps} actions, {drawn} tables drawn in en and ja, {apart} lines worded apart")
    for lang in LANGS:
        print(f"table {lang}: " + " | ".join(shown.get(lang, [])))


if __name__ == "__main__":
    main(sys.argv[1])
