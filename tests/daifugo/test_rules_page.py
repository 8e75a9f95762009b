"""docs/rules/daifugo.md has every rule number of the reference it was written from (its numbers
written down here) and lists every refusal code with the rule it cites."""
import re
from pathlib import Path

from engine.games.daifugo import GAME
from engine.games.daifugo.messages import MESSAGES as REFUSALS

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs/rules/daifugo.md").read_text(encoding="utf-8")
# The page's own numbers, beyond the reference: referee mode (C.5), the referee's penalties in
# the running points (D28) and the match length (D29, `match_deals`)
OWN = {GAME.option_map()["violations"].rule} | {s.rule for s in GAME.referee.sanctions.values()} | \
    {"D28", GAME.option_map()["match_deals"].rule}


def test_every_refusal_code_is_listed_with_its_rule():
    for code, (rule, _, _) in REFUSALS.items():
        assert re.search(rf"\| `{code}` \| {re.escape(rule)} \|", PAGE), code


def test_rule_numbers_D1_to_D25_U1_to_U20_and_options_D_a_to_D_s():
    numbers = [f"D{i}" for i in range(1, 26)] + [f"U{i}" for i in range(1, 21)] + \
        [f"D-{c}" for c in "abcdefghijklmnopqrs"] + ["C.1", "C.2", "C.3", "C.4"] + \
        sorted(OWN) + ["C.5"]
    for n in numbers:
        assert re.search(rf"(^|[^\w.-]){re.escape(n)}([^\w-]|$)", PAGE, re.M), n


def test_exactly_the_rule_numbers_of_the_reference_the_page_was_written_from():
    """Every numbered rule of the reference the page follows (D1-D25, U1-U20, written down
    here: the reference itself is no part of the repository), none missing and none added but
    the page's own."""
    ours = set(re.findall(r"^- (D\d+|U\d+)\.", PAGE, re.M))
    reference = {f"D{i}" for i in range(1, 26)} | {f"U{i}" for i in range(1, 21)}
    assert ours == reference | OWN
