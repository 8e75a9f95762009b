"""The Guandan state of one deal, declared once (engine/state.py). The finished state carries
`next_match` (levels, declarer, A-failure counters, the finishing order, who pays tribute),
which the next deal request passes back as `match`. `invariants.py` checks what a type cannot say:
all 108 cards exactly once, ids seated, maps complete, phase consistency."""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Literal, Optional, Sequence

from msgspec import Struct, field

from engine.cards import RANKS, double_deck_108
from engine.state import Card, Cards, Count, GameState, Int, PlayerId, options_struct

from .combos import TYPES
from .options import OPTIONS

VERSION = 4  # 3: tribute_to_first (physical deals, D5 random); 4: options.violations and
# barred (referee mode, R-1, R-2), ledger_levels (the referee's penalties, S-9); later, with
# defaults so earlier version-4 states still load: lead_bans, void,
# anti_tribute_failed (T-6, D14 optional)
PHASES = ("tribute", "choose", "return", "lead", "play", "finished")
TRIBUTE_PHASES = ("tribute", "choose", "return", "lead")
TEAMS = ("team1", "team2")  # team1: seats 0 and 2; team2: seats 1 and 3 (G-1)
LEVELS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")  # L-1
FINISHES = ("1-2", "1-3", "1-4")
DECK = Counter(double_deck_108())
if TYPE_CHECKING:
    # Built at run time from the declarations, so a type checker reads their base types, and
    # the options as the Struct they make (tests/engine/test_options_types.py holds the two
    # the same).
    Level = str
    Team = str
    ComboType = str
    Rank = str
    Finish = str
    Version = int
    Phase = str

    class GuandanOptions(Struct, frozen=True):
        level_up_1_2: Literal[3, 4]
        a_win_requires_declarer: bool
        a_fail_limit: int
        a_fail_reset_to: Literal["2", "J", "K"]
        ace_finish_demotion: bool
        equal_tribute: Literal["winners_choose", "clockwise", "random"]
        return_max: Literal["any", "10"]
        return_excludes_level: bool
        single_payer: Literal["fourth", "third_opponent"]
        count_disclosure: Literal["on_request", "announce"]
        count_threshold: int
        max_bomb: int
        allow_as_straight: bool
        wild_self_first: bool
        fullhouse_same_rank: bool
        sequence_order: Literal["natural", "level"]
        anti_tribute: Literal["automatic", "optional"]
        return_same_card: Literal["never", "other_copy"]
        violations: Literal["reject", "referee"]
else:
    Level = Literal[LEVELS]
    Team = Literal[TEAMS]
    ComboType = Literal[TYPES]
    Rank = Literal[RANKS + ("BJ", "RJ")]
    Finish = Literal[FINISHES]
    Version = Literal[VERSION]
    Phase = Literal[PHASES]
    GuandanOptions = options_struct("GuandanOptions", OPTIONS)


class GuandanReading(Struct, frozen=True, forbid_unknown_fields=True):
    """What a play is read as (W-11): type, rank (null for four jokers), length, wilds."""
    type: ComboType
    rank: Optional[Rank]
    length: Count
    wilds: Cards


class GuandanMove(Struct, frozen=True, forbid_unknown_fields=True):
    """One turn of a trick: a play (cards and reading) or a pass (no cards, reading null)."""
    player: PlayerId
    cards: Cards
    reading: Optional[GuandanReading]


class GuandanTrick(Struct, frozen=True, forbid_unknown_fields=True):
    plays: tuple[GuandanMove, ...]  # from the lead; the last play with a reading is on top


class GuandanOut(Struct, frozen=True, forbid_unknown_fields=True):
    player: PlayerId
    cards: Cards  # the final play (S-6)


class GuandanTribute(Struct, frozen=True, forbid_unknown_fields=True):
    """One tribute of §8: the payer's card (null until paid), its receiver (null until
    assigned), the card given back (null until given; hidden from others until all are in)."""
    payer: PlayerId
    card: Optional[Card]
    receiver: Optional[PlayerId]
    returned: Optional[Card]


class GuandanLeadBan(Struct, frozen=True, forbid_unknown_fields=True):
    """R-3 (referee mode): `player`, the partner of `offender` who played out of turn, may not
    lead the combination types `types` in the next round; `waiting`: the out-of-turn play came
    before this round's lead, so the ban waits for the lead after it."""
    player: PlayerId
    offender: PlayerId
    types: tuple[ComboType, ...]
    waiting: bool


class GuandanMatch(Struct, frozen=True, forbid_unknown_fields=True):
    levels: dict[str, Level]            # by team id
    declarer: Optional[Team]            # L-2: the team of the previous 1st player
    a_failures: dict[str, Count]        # S-5, by team id
    previous_order: tuple[PlayerId, ...]  # the previous finish: 1st, 2nd (1-2) or all four
    tribute_payers: tuple[PlayerId, ...]  # T-2, T-3: who pays tribute this deal
    deal_number: Count


class GuandanResult(Struct, frozen=True, forbid_unknown_fields=True):
    order: tuple[PlayerId, ...]   # the finishing order, the player left with cards last
    finish: Finish
    winner: Team
    levels: dict[str, Level]      # after this deal
    match_winner: Optional[Team]


class GuandanState(GameState, frozen=True, tag="guandan"):
    version: Version
    options: GuandanOptions
    phase: Phase
    match: GuandanMatch           # as it stood when this deal began
    level: Level                  # this deal's level rank (L-2)
    hands: dict[str, Cards]
    cut_card: Optional[Card]      # G-5: the first deal's turned card
    tributes: tuple[GuandanTribute, ...]
    anti_tribute: bool            # T-6
    turn: Optional[PlayerId]
    trick: Optional[GuandanTrick]
    played: Cards                 # every card played this deal, in order
    out: tuple[GuandanOut, ...]   # who is out, in order (P-7, P-9)
    result: Optional[GuandanResult]
    next_match: Optional[GuandanMatch]
    # D5 `random` in a physical deal: the payer whose tribute goes to the 1st player when the
    # double tributes are equal, drawn by the referee (None: the seeded draw)
    tribute_to_first: Optional[PlayerId]
    # R-2 (referee mode): seats that lost the right to play for the rest of this round (an
    # out-of-turn play or pass); they may only pass until the trick is won
    barred: tuple[PlayerId, ...]
    # S-9: the levels the referee's ledger moved each team by during this deal (a penalty
    # down, a withdrawal back up), applied when the deal ends; absent: none. A deal's level
    # rank never changes while it is played (L-2).
    ledger_levels: dict[Team, Int] = field(default_factory=dict)
    # R-3 (referee mode): the combination types a partner of an out-of-turn player may not lead
    lead_bans: tuple[GuandanLeadBan, ...] = ()
    # R-6 (referee mode): players whose hand was declared void (a wrong tribute found after
    # play began): their cards lie face down, they take no more turns and rank last
    void: tuple[PlayerId, ...] = ()
    # T-6, D14 optional: a payer claimed anti-tribute and the paying side did not hold both big
    # jokers; the claim was shown to fail and the tribute goes on (no second claim)
    anti_tribute_failed: bool = False


def team_of(players: Sequence[str], player: str) -> str:
    return TEAMS[players.index(player) % 2]


def in_transit(s: GuandanState) -> list[str]:
    """Cards held by a tribute record: paid but not yet delivered, returned but not delivered."""
    out = []
    for t in s.tributes:
        if t.card is not None and s.phase in ("tribute", "choose"):
            out.append(t.card)
        if t.returned is not None and s.phase == "return":
            out.append(t.returned)
    return out
