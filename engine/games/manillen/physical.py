"""A physical deal: the cards on a real table entered by a referee (docs/rules/manillen.md,
"Physical deals"). The deal request gives each seat's `hands` and, in `table`, the rest of the
layout and what the rules would otherwise draw from the seed, which the referee never sees:

- `leftover` (3, 6 players): the 2 cards laid aside face up (A34, A35);
- `face_up`, `face_down` (2 players): each player's 4 piles, the face-up card of each place
  and the face-down card under it (A36). The face-down cards are unknown to the players, but
  the referee enters them at the deal: play turns them up one by one and the engine must know
  which card turns up (views show only that a card lies there);
- `turned` (the French form, A37): the turned-up card that fixes trumps, the dealer's last
  card, still in the dealer's hand;
- `cut` (A5, `first_dealer: cut`, no dealer named): the cards shown in the cut, in order;
  optional (without it the first seat deals: the engine never cuts for a real table).

Every card of the 32 appears exactly once over hands and table, each hand and table part has
its count for the player count; an error names the card and its place (`hands.ann[3]`,
`table.turned`)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from engine.cards import CardError, deck_32, parse_card
from engine.errors import InvalidDeal
from engine.fields import Field
from engine.schema import CARD_INPUT, obj
from engine.values import DealSetup

from . import sides as sd
from .cut import cut_winner

DECK = frozenset(deck_32())
IN_HAND = {2: 8, 3: 10, 4: 8, 6: 5}   # A7, A34–A36: 2 players also hold 8 on the table

TABLE_FIELDS: dict[str, Field] = {
    "leftover": Field(
        "cards", "3 or 6 players: the 2 cards laid aside face up for the dealer('s team) "
        "(A34, A35); required then, refused otherwise",
        "3人または6人: ディーラー(のチーム)のために表向きに除けておく2枚(A34、A35)。そのとき"
        "必須、それ以外では指定できない", required=False),
    "face_up": Field(
        "str_list_map", "2 players: each player's 4 face-up table cards by player id, one per "
        "pile (A36); required then, refused otherwise",
        "2人: 各プレイヤーの表向きの場札4枚(プレイヤーidごと、山ごとに1枚、A36)。そのとき必須、"
        "それ以外では指定できない", required=False),
    "face_down": Field(
        "str_list_map", "2 players: each player's 4 face-down table cards by player id, each "
        "under the face-up card of the same place (A36; entered by the referee, never shown to "
        "the seats until turned up); required then, refused otherwise",
        "2人: 各プレイヤーの裏向きの場札4枚(プレイヤーidごと、同じ位置の表向きのカードの下。"
        "A36。審判が入力し、表になるまで各席には見せない)。そのとき必須、それ以外では指定できない",
        required=False),
    "turned": Field(
        "card", "the French form (A37): the turned-up card fixing trumps, the dealer's last "
        "card, in the dealer's hand; required then, refused otherwise",
        "フランス式(A37): 切札を決める表にしたカード。ディーラーの最後のカードで、ディーラーの"
        "手札にある。そのとき必須、それ以外では指定できない", required=False),
    "cut": Field(
        "object_list", "first_dealer cut (A5, the default) with no dealer named: the cut's "
        "cards as shown, in order, each {player, card}; tied players cut again in seat order. "
        "Its winner deals; without it (and no dealer named) the first seat deals. Refused with "
        "a dealer named or first_dealer first_player",
        "first_dealer が cut(A5、既定)でディーラーの指定がないとき: カットで見せたカードを順に、"
        "それぞれ {player, card}。同点の人は席順にカットし直す。勝った人が配る。指定がなければ"
        "(ディーラーの指定もなければ)最初の席が配る。ディーラーを指定したとき、または "
        "first_dealer が first_player のときは指定できない", required=False,
        schema=obj({"player": {"type": "string", "minLength": 1}, "card": CARD_INPUT})),
}


def _card(token: Any, path: str) -> str:
    try:
        card = parse_card(token)
    except CardError as err:
        raise InvalidDeal(str(err), path) from None
    if card not in DECK:
        raise InvalidDeal(f"{card} is not in Manillen's 32-card deck (7 to A of each suit, A1)",
                          path)
    return card


def _only_when(table: Mapping[str, Any], name: str, needed: bool, why: str) -> None:
    if needed and name not in table:
        raise InvalidDeal(f"{why}: give table.{name}", f"table.{name}")
    if not needed and name in table:
        raise InvalidDeal(f"table.{name} is not part of this deal ({why.split(':')[0]} only)",
                          f"table.{name}")


def deck_table(setup: DealSetup) -> None:
    """A deal from an explicit deck lays every card out from the deck (A7, A34–A37): its
    `table` says only what the rules decide at random, the cut (A5)."""
    for name in sorted(set(setup.table or {}) - {"cut"}):
        raise InvalidDeal(f"a deal from a deck lays out table.{name} from the deck (A7, "
                          "A34–A37); with a deck the table gives only the cut (A5)",
                          f"table.{name}")


def cut(setup: DealSetup, players: Sequence[str], named: str | None,
        first_dealer: str) -> list[tuple[str, str]]:
    """A5 in a physical deal: the cut as shown at the table (no seed), when the referee gives
    it. The engine never cuts for a real table: its dealer is the one named (the request's or
    the match's), else the winner of the cut given, else the first seat."""
    table = setup.table or {}
    if "cut" not in table:
        return []
    if first_dealer != "cut" or named is not None:
        raise InvalidDeal("no cut decides the dealer here (A5: first_dealer cut with no "
                          "dealer named only)", "table.cut")
    shown: list[tuple[str, str]] = []
    for i, item in enumerate(table["cut"]):
        if set(item) != {"player", "card"} or item["player"] not in players:
            raise InvalidDeal("each cut is {player, card}, the player seated",
                              f"table.cut[{i}]")
        shown.append((item["player"], _card(item["card"], f"table.cut[{i}].card")))
    if cut_winner(shown, players) is None:
        raise InvalidDeal("not a cut (A5): each round the contenders in seat order show "
                          "distinct cards, only the tied strongest cut again, until one is "
                          "left", "table.cut")
    return shown


def layout(setup: DealSetup, players: Sequence[str], dealer: str, french: bool
           ) -> tuple[dict[str, tuple[str, ...]], dict[str, Any] | None, list[str], str | None]:
    """(hands, 2-player table piles, left-over cards, turned card) as given, all checked."""
    n, given_hands = len(players), setup.hands
    assert given_hands is not None, "called only for a deal whose hands are given"
    table = setup.table or {}
    _only_when(table, "leftover", n in (3, 6), "3 or 6 players: the 2 cards laid aside (A34, A35)")
    for name in ("face_up", "face_down"):
        _only_when(table, name, n == 2, "2 players: the 4 table piles of each player (A36)")
    _only_when(table, "turned", french, "the French form: the turned-up trump card (A37)")
    seen: dict[str, str] = {}

    def place(card_token: Any, path: str) -> str:
        card = _card(card_token, path)
        if card in seen:
            raise InvalidDeal(f"{card} is given twice (also at {seen[card]})", path)
        seen[card] = path
        return card

    hands = {}
    for p in players:
        hands[p] = tuple(place(c, f"hands.{p}[{i}]") for i, c in enumerate(given_hands[p]))
    piles = None
    if n == 2:
        parts = {}
        for name in ("face_up", "face_down"):
            given = table[name]
            if set(given) != set(players):
                raise InvalidDeal(f"one entry per player: {list(players)}", f"table.{name}")
            parts[name] = {p: [place(c, f"table.{name}.{p}[{i}]")
                               for i, c in enumerate(given[p])] for p in players}
        for name in ("face_up", "face_down"):
            for p in players:
                if len(parts[name][p]) != 4:
                    raise InvalidDeal("4 cards, one per pile (A36)", f"table.{name}.{p}")
        piles = {p: tuple((up, down) for up, down in zip(parts["face_up"][p],
                                                         parts["face_down"][p]))
                 for p in players}
    leftover = [place(c, f"table.leftover[{i}]") for i, c in enumerate(table.get("leftover", ()))]
    if len(leftover) != sd.LEFTOVER[n]:
        raise InvalidDeal(f"{sd.LEFTOVER[n]} cards laid aside (A34, A35)", "table.leftover")
    for p in players:
        if len(hands[p]) != IN_HAND[n]:
            raise InvalidDeal(f"{IN_HAND[n]} cards in each hand with {n} players "
                              f"(A7, A34–A36), not {len(hands[p])}", f"hands.{p}")
    missing = sorted(DECK - seen.keys())
    if missing:  # counts right and no card twice leave none missing; kept as a guard
        raise InvalidDeal(f"every card of the 32 is dealt once; missing {missing}", "hands")
    turned = None
    if french:
        turned = _card(table["turned"], "table.turned")
        if turned not in hands[dealer]:
            raise InvalidDeal(f"{turned} is the dealer's last card (A37): it is in the "
                              f"dealer's hand ({dealer})", "table.turned")
    return hands, piles, leftover, turned
