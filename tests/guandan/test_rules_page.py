"""docs/rules/guandan.md has exactly the shared reference's section and rule numbers, and lists
every refusal code of the combination core with its rule."""
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs/rules/guandan.md").read_text(encoding="utf-8")
SHARED = ROOT.parent / "shared/rules/guandan.md"  # shared/ sits beside the repository
RULE = re.compile(r"^- (?:\*\*)?([GLCBWPTS]-\d+)\.", re.M)
SECTION = re.compile(r"^## (\d+)\. ", re.M)
OPTION = re.compile(r"^\| (D\d+) \|", re.M)
OWN_SECTIONS = ["14"]  # the page's own, beyond the shared reference: irregularities (R-1 …)
OWN_RULES = {"S-9"}  # the page's own: the referee's penalties in the levels


def test_rule_numbers_g_l_c_b_w_p_t_s_and_options_d1_to_d14():
    numbers = set(RULE.findall(PAGE))
    assert {f"W-{i}" for i in range(1, 14)} <= numbers
    assert {f"C-{i}" for i in range(1, 10)} <= numbers
    assert set(OPTION.findall(PAGE)) == {f"D{i}" for i in range(1, 15)}
    assert SECTION.findall(PAGE) == [str(i) for i in range(14)] + OWN_SECTIONS


@pytest.mark.skipif(not SHARED.exists(), reason="shared reference not present")
def test_same_numbers_as_the_shared_reference():
    shared = SHARED.read_text(encoding="utf-8")
    assert set(RULE.findall(shared)) == set(RULE.findall(PAGE)) - OWN_RULES
    assert SECTION.findall(shared) + OWN_SECTIONS == SECTION.findall(PAGE)
    assert set(OPTION.findall(shared)) == set(OPTION.findall(PAGE))


def test_every_refusal_code_is_listed_with_its_rule():
    for code, rule in [("not_a_combination", "4"), ("reading_not_available", "W-11"),
                       ("ambiguous_reading", "W-11"), ("does_not_beat", "C-8"),
                       ("does_not_beat_bomb", "B-2")]:
        assert re.search(rf"\| `{code}` \| {re.escape(rule)} \|", PAGE), code
