"""What a Manillen state must satisfy beyond its declared types (engine/state.py): checked
on every decode of a state not signed by this engine."""
from __future__ import annotations

from collections import Counter

from msgspec.json import encode as _json

from engine.errors import InvalidState

from . import scoring, sides as sd
from .cut import cut_winner
from .state import DECK, ManillenState
from .tricks import winner_offset


def _need(ok: bool, message: str, path: str, *args: object) -> None:
    if not ok:  # formatted only now: decode runs on every request
        raise InvalidState(message.format(*args), "state." + path.format(*args))


def invariants(s: ManillenState) -> None:
    """What the types cannot say; the first inconsistency raises InvalidState with its path."""
    ps, n, o, phase, t, lt, d = (s.players, len(s.players), s.options, s.phase, s.trick,
                                 s.last_trick, s.doubling)
    seat, d1, turned = {p: i for i, p in enumerate(ps)}, sd.step(o), s.turned
    _need(len(seat) == n and n in sd.TRICKS, "2, 3, 4 or 6 distinct ids", "players")
    everyone, dealer = seat.keys(), seat.get(s.dealer)
    if dealer is None:  # _need's check, written out so the type checker sees `dealer` an int
        raise InvalidState("must be a seated player", "state.dealer")
    _need(s.match.dealer == s.dealer, "must be the dealer", "match.dealer")
    _need(not s.cut or (o.first_dealer == "cut" and cut_winner(
        [(c.player, c.card) for c in s.cut], ps) == s.dealer), "a cut (A5) giving the dealer",
          "cut")
    _need((s.table is None) == (n != 2), "only 2-player deals have table cards", "table")
    holders = set(sd.holders(ps))
    for path, got, keys in (("hands", s.hands, everyone), ("won", s.won, everyone),
                            ("table", s.table or {}, everyone if n == 2 else set()),
                            ("match.scores", s.match.scores, holders),
                            ("match.booms", s.match.booms, holders)):
        if got.keys() != keys:
            raise InvalidState(f"must have exactly the keys {sorted(keys)}", "state." + path)
    _need(len(s.leftover) == sd.LEFTOVER[n], "2 cards with 3 or 6 players, else none", "leftover")
    before = phase in ("blind", "trump")
    _need((turned is not None) == (o.french_form != "none") and (turned is None or (
        n == 4 and s.trump == turned[0] and not (before or o.blind_no_trump
                                                 or o.allow_pass_trump_to_partner))),
          "the French form's trump card (4 players; no blind or en face)", "turned")
    _need(phase != "blind" or o.blind_no_trump, "needs blind_no_trump on", "phase")
    _need(not s.thrown_in or phase == "over", "only a finished deal is thrown in", "thrown_in")
    _need((s.trump is None) == (before or s.thrown_in), "named when the choice is over", "trump")
    _need(not s.blind or (s.trump == "no_trump" and o.blind_no_trump),
          "only a no-trump call is blind, and only with blind_no_trump on", "blind")
    _need(not s.trump_passed or (n == 4 and o.allow_pass_trump_to_partner and not s.blind and
                                 phase != "blind"), "needs 4 players, the option", "trump_passed")
    # who may double (an even number of calls so far) or redouble (odd): A14, A15, M-d, M-e
    may = [{ps[x] for x in sd.doubling_candidates(n, dealer, k, o)} for k in ((), (dealer,))]
    most = len(d.calls) + 1 if o.max_doublings is None else o.max_doublings
    for i, c in enumerate(d.calls):
        _need(c in may[i % 2] and s.trump is not None and i < most,
              "this player could not make this call", "doubling.calls[{}]", i)
    _need(d.turn is None if phase != "doubling" else d.turn in may[len(d.calls) % 2]
          and len(d.calls) < most, "must be who is asked now (the doubling phase only)",
          "doubling.turn")
    done, per = sum(map(len, s.won.values())) // n, sd.TRICKS[n]
    for p, w in s.won.items():
        _need(len(w) % n == 0 and (not w or phase in ("play", "over")),
              "whole tricks, once the play began", "won.{}", p)
    _need(not s.thrown_in or done == 0, "a thrown-in hand has no tricks", "thrown_in")
    _need(phase != "over" or s.thrown_in or done == per, "over after the last trick", "phase")
    _need((t is not None) == (phase == "play"), "the play phase, and only it, has one", "trick")
    if t is not None:
        _need(len(t.cards) < n and done < per, "fewer cards than players, before the last "
              "trick", "trick.cards")
        _need(t.leader == (lt.winner if lt else ps[(dealer + d1) % n]),
              "led by the last trick's winner (the dealer's left at first)", "trick.leader")
    _need(s.revoked_by is None or (phase == "over" and s.revoked_by in seat),
          "a seated player, once the deal is over (A39)", "revoked_by")
    # A39: a revoke ends the deal, its cards won without tricks being played out
    _need((lt is None) == (done == 0) or s.revoked_by is not None,
          "shown once a trick is complete", "last_trick")
    if lt is not None:
        _need(lt.leader in seat, "must be a seated player", "last_trick.leader")
        _need(len(lt.cards) == n, "must be {} cards", "last_trick.cards", n)
        trump = None if s.trump == "no_trump" else s.trump
        _need(lt.winner == ps[(seat[lt.leader] + d1 * winner_offset(lt.cards, trump)) % n],
              "not the one the cards give", "last_trick.winner")
        _need(set(lt.cards) <= set(s.won[lt.winner]), "its winner holds them", "last_trick.cards")
    seen = [c for h in s.hands.values() for c in h]
    seen += [c for piles in (s.table or {}).values() for pile in piles for c in pile]
    seen += [*s.leftover, *(t.cards if t else ()), *(c for w in s.won.values() for c in w)]
    if len(seen) != 32 or DECK.keys() != set(seen):
        got = Counter(seen)
        raise InvalidState(f"all 32 cards must appear exactly once (missing {sorted(DECK - got)}"
                           f", duplicated {sorted(got - DECK)})", "state.hands")
    played = {ps[(seat[t.leader] + d1 * k) % n] for k in range(len(t.cards))} if t else ()
    for p in ps:  # each player holds what the tricks played leave them
        want = sd.PER_SEAT[n] - (0 if s.thrown_in else done) - (p in played)
        held = len(s.hands[p]) + (sum(map(len, s.table[p])) if s.table else 0)
        _need(held == want, "must hold {0} cards", "hands.{1}", want, p)
    right = scoring.settle(s)
    for name in ("status", "multiplier", "result", "next_match", "next_dealer"):
        if getattr(s, name) != getattr(right, name):
            raise InvalidState("does not match the rest of the state "
                               f"({_json(getattr(right, name)).decode()})", "state." + name)

