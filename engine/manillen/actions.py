"""The action vocabulary (what a client posts besides `type` and `player`)."""
from __future__ import annotations

from engine.fields import ActionType, Field

TRUMP_CHOICES = ("S", "H", "D", "C", "no_trump")

ACTIONS: tuple[ActionType, ...] = (
    ActionType("look_at_hand", "The dealer picks up their hand without calling blind no-trump "
               "(only offered when blind_no_trump is on).", rule="A11"),
    ActionType("blind_no_trump", "The dealer calls no-trump before looking at their hand.",
               rule="A11"),
    ActionType("choose_trump", "The dealer (or, after 'en face', their partner) names trumps "
               "or no-trump.",
               {"trump": Field("enum", "a suit letter or no_trump", choices=TRUMP_CHOICES)},
               rule="A9"),
    ActionType("pass_trump_choice", "'En face': the dealer lets their partner name trumps.",
               rule="A12"),
    ActionType("double", "'Ik ga mee': the non-dealing side doubles the deal.", rule="A14"),
    ActionType("redouble", "'Ik ga tegen': the dealer's side doubles again.", rule="A15"),
    ActionType("pass", "Decline to double or redouble; ends the doubling when nobody else of "
               "that side may still call.", rule="A14"),
    ActionType("play", "Play a card from the hand (or, with 2 players, a face-up table card).",
               {"card": Field("card", "the card played")}, rule="A21"),
    ActionType("speak", "Manille parlée (A37): tell the partner about to play to take the "
               "trick or to leave it. Refused in manille muette and the Belgian game; not a "
               "move, so never listed in legal_actions.",
               {"says": Field("enum", "the signal", choices=("take", "leave"))}, rule="A37"),
    ActionType("report_peek", "Referee report: the dealer's partner looked at their cards "
               "before trumps were named; the hand is thrown in. Posted as that partner.",
               rule="A8"),
)
