"""docs/rules/guandan.md has exactly the reference's section and rule numbers (the reference it was
written from, its numbers written down here), and lists every refusal code of the combination
core with its rule."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs/rules/guandan.md").read_text(encoding="utf-8")
RULE = re.compile(r"^- (?:\*\*)?([GLCBWPTS]-\d+)\.", re.M)
SECTION = re.compile(r"^## (\d+)\. ", re.M)
OPTION = re.compile(r"^\| (D\d+) \|", re.M)
OWN_SECTIONS = ["14"]  # the page's own, beyond the reference: irregularities (R-1 …)
OWN_RULES = {"S-9"}  # the page's own: the referee's penalties in the levels


def test_rule_numbers_g_l_c_b_w_p_t_s_and_options_d1_to_d14():
    numbers = set(RULE.findall(PAGE))
    assert {f"W-{i}" for i in range(1, 14)} <= numbers
    assert {f"C-{i}" for i in range(1, 10)} <= numbers
    assert set(OPTION.findall(PAGE)) == {f"D{i}" for i in range(1, 15)}
    assert SECTION.findall(PAGE) == [str(i) for i in range(14)] + OWN_SECTIONS


def test_exactly_the_rule_numbers_of_the_reference_the_page_was_written_from():
    """Every numbered rule of the reference the page follows (G-1 … T-11, written down here:
    the reference itself is no part of the repository), none missing and none added but the
    page's own (S-9)."""
    reference = {"G": 5, "L": 6, "C": 9, "B": 6, "W": 13, "P": 9, "T": 11, "S": 8}
    expected = {f"{letter}-{i}" for letter, n in reference.items() for i in range(1, n + 1)}
    assert set(RULE.findall(PAGE)) == expected | OWN_RULES


def test_every_refusal_code_is_listed_with_its_rule():
    for code, rule in [("not_a_combination", "4"), ("reading_not_available", "W-11"),
                       ("ambiguous_reading", "W-11"), ("does_not_beat", "C-8"),
                       ("does_not_beat_bomb", "B-2")]:
        assert re.search(rf"\| `{code}` \| {re.escape(rule)} \|", PAGE), code
