"""The table page on a phone held upright (390 px, by Chrome's device emulation) and on a
tablet in landscape and portrait: no screen scrolls sideways, and tools/screenshots.py, which
takes the README's pictures, runs through every scene."""
from __future__ import annotations

from tests.table.conftest import REFEREE_KEY
from tools import screenshots


def test_no_screen_scrolls_sideways_on_a_phone_or_a_tablet(table_service, tmp_path, monkeypatch):
    monkeypatch.setattr(screenshots, "SCREENSHOT_KEY", REFEREE_KEY)
    devices = ("phone", "tablet")  # tablet-portrait too in the command; its width is between
    wide = screenshots.take(table_service, tmp_path, devices)
    assert wide == []
    for device in devices:
        for scene in ("setup", "play", "physical", "result"):
            assert (tmp_path / f"{scene}-{device}.png").stat().st_size > 10_000
