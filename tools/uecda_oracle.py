"""Record games played on a running UECda server (docs/rules/daifugo.md C.3), to check that
our `uecda` preset gives the same verdicts and finishing orders.

The server is not part of this project: build and start it yourself (the standard server
`tndhms` of the UECda development kit, protocol 20070, default port 42485), then run

    python tools/uecda_oracle.py --port 42485 --games 3 --seed 1 --out DIR

It connects five clients, which play random plays: mostly plays our engine thinks legal,
some random combinations of their hand (legal or not), some cards they do not hold, some
passes. With --odd, plays holding the joker also write it in unusual cells (a lone joker
in any cell of rows 0-3, ♠3's included; a set's joker in its column's empty suit cells or
in row 4), and the upper players sometimes choose an illegal exchange (too few or too many
cards, a card they do not hold) or write the joker they give outside [4][1]; moves and
exchanges then carry a `kind`. With --leader-passes P the leader of a clear field passes, or
submits a card it does not hold (the server counts it as a pass), with chance P (D9,
leader_may_pass); a game the server ends at 20 passes in a row (ranking the players left at
random) gets `ranked_by_passes` and the order the server drew, read from the next game's
titles (so the last game of a run is not written if it ended so). Each game is written to
DIR/game<k>.json: the hands before the exchange, the exchange (the cards the upper players gave),
the hands after it, every submission as the 8x15 table sent with the server's answer (9 accepted
or a pass, 8 refused), and the finishing order. tests/daifugo/test_uecda_server.py replays them through our engine.
"""
from __future__ import annotations

import argparse
import json
import random
import socket
import struct
from pathlib import Path

from engine.cards import JOKERS, deck_52
from engine.games.daifugo.plays import FieldState, legal_plays, read_play
from engine.games.daifugo.rules import UECDA
from engine.games.daifugo.uecda import (
    empty_table,
    hand_to_table,
    play_to_table,
    read_state,
    table_to_hand,
    table_to_play,
)

JOKER = JOKERS[0]                      # how table_to_hand names the UECda joker
PROTOCOL = 20070
TABLE = struct.Struct("!120i")
INT = struct.Struct("!i")
ACCEPTED, REFUSED = 9, 8
ABOUT = ("Recorded on the UECda standard server (tndhms, devkit 20180826, standard rules) by "
         "tools/uecda_oracle.py. Tables: rows 0-4 of the 8x15 tables (U16); seats and "
         "finish_order: the server's player numbers; ack: the server's answer (9 accepted, 8 "
         "refused; a pass on a non-empty field is answered 8 and is still a pass, U14); kind: what "
         "the client meant to submit (with --odd: joker_cell, count, not_held ...).")
GAME_OVER, ALL_OVER = 1, 2


class Client:
    def __init__(self, host: str, port: int, name: str):
        self.sock = socket.create_connection((host, port))
        hello = empty_table()
        hello[0][0] = PROTOCOL
        for j, ch in enumerate(name[:9]):
            hello[1][j] = ord(ch)
        self.send(hello)
        self.number = self.read_int()

    def _recv(self, n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("the server closed the connection")
            buf += chunk
        return buf

    def read_table(self) -> list[list[int]]:
        flat = TABLE.unpack(self._recv(TABLE.size))
        return [list(flat[r * 15:(r + 1) * 15]) for r in range(8)]

    def read_int(self) -> int:
        return INT.unpack(self._recv(INT.size))[0]

    def send(self, table: list[list[int]]) -> None:
        self.sock.sendall(TABLE.pack(*[v for row in table for v in row]))


def rows(table: list[list[int]]) -> list[str]:
    """Rows 0-4 (the cards; rows 5-7 only carry the server's state) as digit strings: the
    recorded form, which POST /v1/games/daifugo/uecda-table takes as it is."""
    return ["".join(str(v) for v in row) for row in table[:5]]


def dump(record: dict) -> str:
    """JSON with one move (or hand) per line: small, and a diff shows which move changed."""
    lines = []
    for key, value in record.items():
        if key in ("hands", "hands_after_exchange", "moves", "exchange") and value:
            inner = ",\n  ".join(json.dumps(v, separators=(",", ":")) for v in value)
            lines.append(f"{json.dumps(key)}: [\n  {inner}]")
        else:
            lines.append(f"{json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def choose(rng: random.Random, hand: list[str], field: FieldState, leader_passes: float = 0.0):
    """(table, kind) of the submission. kind: lead (a play on a clear field), lead_pass (a
    leader's pass on a clear field), lead_fail (a leader's submission of a card not held,
    which the server counts as a pass, U14), legal (a play our engine finds legal), any (any
    combination of the hand, legal or not), not_held (a card the player does not hold) or
    pass."""
    leads = legal_plays(hand, FieldState(revolution=field.revolution), UECDA)
    if field.top is None:
        # the server lets a leader pass or fail (counted as a pass, U14); the `uecda` preset
        # allows it too (leader_may_pass, D9): with --leader-passes, leaders sometimes do
        if rng.random() < leader_passes:
            if rng.random() < 0.75:
                return empty_table(), "lead_pass"
            missing = [c for c in deck_52() if c not in hand]
            return play_to_table(read_play([rng.choice(missing)], None, UECDA)), "lead_fail"
        for size, chance in ((4, 0.9), (3, 0.4)):     # revolutions first
            big = [p for p in leads if p.size >= size]
            if big and rng.random() < chance:
                return play_to_table(rng.choice(big)), "lead"
        return play_to_table(rng.choice(leads)), "lead"
    legal = legal_plays(hand, field, UECDA)
    # big plays (stairs, revolutions) are rare in random play: offer them more often
    big = [p for p in legal if p.size >= 3]
    r = rng.random()
    if r < 0.25 and big:
        return play_to_table(rng.choice(big)), "legal"
    if r < 0.55 and legal:
        return play_to_table(rng.choice(legal)), "legal"
    if r < 0.85:
        return play_to_table(rng.choice(leads)), "any"
    if r < 0.90:
        missing = [c for c in deck_52() if c not in hand]
        return play_to_table(read_play([rng.choice(missing)], None, UECDA)), "not_held"
    return empty_table(), "pass"


def rewrite_joker(rng: random.Random, table: list[list[int]]) -> tuple[list[list[int]], bool]:
    """The same play with its joker (2) moved to another cell the server may read the same
    way (U16): a lone joker to any cell of rows 0-3; a set's joker to another empty cell of
    its column, row 4 included. Stairs keep theirs (its cell is its place in the run)."""
    cells = [(r, c) for r in range(5) for c in range(15) if table[r][c]]
    jokers = [(r, c) for r, c in cells if table[r][c] == 2]
    if not jokers:
        return table, False
    (jr, jc), = jokers
    if len(cells) == 1:
        if rng.random() < 0.4:                 # ♠3's cell: the one card that beats it (U10)
            free = [(0, 1)]
        else:
            free = [(r, c) for r in range(4) for c in range(15)]
    elif len({c for _, c in cells}) == 1:
        free = [(r, jc) for r in range(5) if not table[r][jc]]
    else:
        return table, False
    if not free:
        return table, False
    new = [row[:] for row in table]
    new[jr][jc] = 0
    r, c = rng.choice(free)
    new[r][c] = 2
    return new, True


def choose_exchange(rng: random.Random, hand: list[str], give: int, odd: bool
                    ) -> tuple[list[list[int]], str]:
    """(table, kind) of an upper player's exchange (U8). kind: legal, joker_cell (the joker
    written outside [4][1]), count (too few or too many cards) or not_held."""
    cards = rng.sample(hand, give)
    if odd and JOKER in hand and JOKER not in cards and rng.random() < 0.7:
        cards[0] = JOKER                        # a joker to write outside [4][1]
    table = hand_to_table(cards)
    if not odd or rng.random() < 0.4:
        return table, "legal"
    r = rng.random()
    if r < 0.5 and table[4][1] == 2:
        table[4][1] = 0
        free = [(row, col) for row in range(5) for col in range(15) if not table[row][col]]
        row, col = rng.choice(free)
        table[row][col] = 2
        return table, "joker_cell"
    if r < 0.7:
        n = rng.choice([k for k in range(4) if k != give])
        return hand_to_table(rng.sample(hand, min(n, len(hand)))), "count"
    missing = [c for c in deck_52() if c not in hand]
    return hand_to_table(cards[1:] + [rng.choice(missing)]), "not_held"


def play_game(clients: dict[int, Client], rng: random.Random, k: int, odd: bool = False,
              leader_passes: float = 0.0) -> tuple[dict, int]:
    first = {n: c.read_table() for n, c in clients.items()}
    states = {n: read_state(t) for n, t in first.items()}
    exchange = []
    for n, c in clients.items():
        give = states[n]["cards_to_give"]
        if states[n]["exchange"] and give > 0:
            table, kind = choose_exchange(rng, table_to_hand(first[n]), give, odd)
            c.send(table)
            exchange.append({"seat": n, "table": rows(table), "kind": kind})
    ranks = states[0]["ranks"]             # the previous game's titles (0 = 大富豪)
    previous = [ranks.index(i) for i in range(5)] if exchange else None
    moves: list[dict] = []
    after = seating = None
    hands: dict[int, list[str]] = {}
    stage = None
    finished: list[int] = []
    while True:
        tables = {n: c.read_table() for n, c in clients.items()}
        hands = {n: table_to_hand(t) for n, t in tables.items()}
        if after is None:
            after = {n: sorted(h) for n, h in hands.items()}
            seating = read_state(tables[0])["seats"]
        mover = next(n for n, t in tables.items() if read_state(t)["your_turn"])
        st = read_state(tables[mover])
        # the field the server broadcast after the last submission is shown before a clear
        # by passes takes effect: [5][4] (field cleared) tells
        top = None if st["field_cleared"] else stage
        field = FieldState(top, revolution=st["revolution"],
                           locked_suits=top.suits if (st["lock"] and top is not None) else None)
        table, kind = choose(rng, hands[mover], field, leader_passes)
        submitted = table_to_play(table)
        if odd and rng.random() < 0.7:
            table, moved = rewrite_joker(rng, table)
            kind += "+joker_cell" if moved else ""
        clients[mover].send(table)
        ack = clients[mover].read_int()
        for c in clients.values():                 # the field as the server shows it
            c.read_table()
        ends = {c.read_int() for c in clients.values()}
        move = {"seat": mover, "table": rows(table), "kind": kind, "ack": ack}
        if any(map(any, table[:5])):
            move["verdict"] = "accepted" if ack == ACCEPTED else "refused"
            if ack == ACCEPTED:
                # the play as chosen, before its joker moved: what our engine reads as the field
                stage = submitted
                if len(hands[mover]) == len(submitted.cards):
                    finished.append(mover)
        moves.append(move)
        if ends & {GAME_OVER, ALL_OVER}:
            last = [n for n in clients if n not in finished]
            # 20 submissions in a row without a play (passes, refusals) end the game: the
            # server ranks the players left at random; its order then comes from the next
            # game's titles (Table 2 [6][5..9]), read by finish_game
            assert len(last) == 1 or not any(m.get("verdict") == "accepted" for m in moves[-20:]), \
                "a game ended otherwise than by four players going out or 20 passes in a row"
            dealt = before_exchange(previous, {n: table_to_hand(t) for n, t in first.items()})
            record = {"about": ABOUT, "game": k, "seating": seating,
                      "hands": [rows(hand_to_table(dealt[n])) for n in range(5)],
                      "previous_finish_order": previous,
                      "exchange": [{key: v for key, v in e.items() if odd or key != "kind"}
                                   for e in exchange],
                      "hands_after_exchange": [rows(hand_to_table(after[n])) for n in range(5)],
                      "moves": moves, "finish_order": finished + last}
            if len(last) > 1:
                record["ranked_by_passes"] = last    # ordered by finish_game
            return record, max(ends)


def before_exchange(previous, first_hands):
    """The hands as dealt. The server shows the lower players their hands before the tribute
    and the upper players theirs after it, so a tribute is what an upper and its lower player
    both show; the upper player held the rest."""
    dealt = {n: sorted(h) for n, h in first_hands.items()}
    if not previous:
        return dealt
    for upper, lower in ((previous[0], previous[4]), (previous[1], previous[3])):
        tribute = set(first_hands[upper]) & set(first_hands[lower])
        dealt[upper] = sorted(set(first_hands[upper]) - tribute)
    return dealt


def finish_game(record: dict, following: dict, out: Path) -> None:
    """A game ended by 20 passes in a row (the server then ranks the players left at random):
    its finishing order is the titles the following game shows (its previous_finish_order).
    Written only when that game is known, so no recording guesses the order."""
    order = following.get("previous_finish_order")
    if order is None:
        return                      # a new title cycle (no exchange): the order is not shown
    done = [n for n in record["finish_order"] if n not in record["ranked_by_passes"]]
    assert order[:len(done)] == done, (order, done)
    record["ranked_by_passes"] = order[len(done):]
    record["finish_order"] = order
    (out / f"game{record['game']}.json").write_text(dump(record))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=42485)
    ap.add_argument("--games", type=int, required=True, help="GAME_NUMBER of the server")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--odd", action="store_true",
                    help="also write the joker in unusual cells and submit illegal exchanges")
    ap.add_argument("--leader-passes", type=float, default=0.0, metavar="P",
                    help="chance that the leader of a clear field passes or submits a card it "
                         "does not hold (counted as a pass by the server)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    clients = {}
    for i in range(5):
        c = Client(args.host, args.port, f"rnd{i}")
        clients[c.number] = c
    args.out.mkdir(parents=True, exist_ok=True)
    pending = None
    for k in range(1, args.games + 1):
        record, end = play_game(clients, rng, k, args.odd, args.leader_passes)
        if pending is not None:
            finish_game(pending, record, args.out)
            pending = None
        if "ranked_by_passes" in record:
            pending = record          # its order shows in the next game's titles
        else:
            (args.out / f"game{k}.json").write_text(dump(record))
        if end == ALL_OVER:
            break


if __name__ == "__main__":
    main()
