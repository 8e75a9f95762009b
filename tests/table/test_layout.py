"""The table page on a phone held upright (390 px, by Chrome's device emulation) and on a
tablet in landscape and portrait: no screen scrolls sideways, and tools/screenshots.py, which
takes the README's pictures, runs through every scene."""
from __future__ import annotations

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from tests.table.conftest import REFEREE_KEY
from tests.table.pagedriver import (
    click,
    entries,
    find,
    idle,
    open_page,
    set_up,
    tid,
    wait_for,
    wait_present,
)
from tools import screenshots


def test_no_screen_scrolls_sideways_on_a_phone_or_a_tablet(table_service, tmp_path, monkeypatch):
    monkeypatch.setattr(screenshots, "SCREENSHOT_KEY", REFEREE_KEY)
    devices = ("phone", "tablet")  # tablet-portrait too in the command; its width is between
    wide = screenshots.take(table_service, tmp_path, devices)
    assert wide == []
    for device in devices:
        for scene in ("setup", "play", "physical", "result"):
            assert (tmp_path / f"{scene}-{device}.png").stat().st_size > 10_000


def in_view(driver, name: str) -> bool:
    """`name` wholly inside the viewport (top and bottom)."""
    return driver.execute_script(
        "const r = document.querySelector(`[data-testid='${arguments[0]}']`).getBoundingClientRect();"
        "return r.top >= 0 && r.bottom <= window.innerHeight;", name)


def test_after_an_entry_the_seat_to_act_and_its_hand_are_in_view(phone, table_service):
    """A referee's entry made at the foot of a phone's screen (the referee form, below the
    hand): the page scrolls back to who acts now and their hand."""
    open_page(phone, table_service)
    set_up(phone, "daifugo", key=REFEREE_KEY)
    wait_present(phone, "hand")
    phone.execute_script("arguments[0].scrollIntoView()", find(phone, "undo"))
    assert not in_view(phone, "to-act")
    phone.find_element(By.CSS_SELECTOR, f'{tid("referee-form")} > summary').click()
    Select(find(phone, "ref-type")).select_by_value("warning")
    Select(find(phone, "ref-player")).select_by_value("p3")
    click(phone, "ref-send")
    wait_for(phone, lambda d: idle(d) and entries(d) == 1, what="the warning")
    assert in_view(phone, "to-act") and in_view(phone, "hand")
