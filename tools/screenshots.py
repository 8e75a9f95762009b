"""Screenshots of the table page at phone and tablet sizes, upright and in landscape, in Chromium (`python -m
tools.screenshots DIR`): the set-up screen, a Guandan deal in play (27 cards in hand), a physical
Man deal being entered, and a finished Manteur deal with its score. Each is checked for sideways
scrolling on the way (the command fails naming any screen that scrolls sideways); the tests run
the same scenes (tests/table/test_layout.py). docs/images/ holds two of them for the README.

Without `--base` the service is started here (gunicorn on a free port, a referee key set)."""
from __future__ import annotations

import argparse
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path

from tests.table.browser import PHONE_LANDSCAPE, TABLET, TABLET_PORTRAIT, start_browser
from tests.table.pagedriver import (
    click,
    idle,
    no_sideways_scroll,
    open_page,
    play_deal,
    play_steps,
    set_up,
    wait_for,
    wait_present,
)

SCREENSHOT_KEY = "screenshots-referee-key"
DEVICES = {"phone": {"phone": True}, "phone-landscape": {"phone": PHONE_LANDSCAPE},
           "tablet": {"size": TABLET}, "tablet-portrait": {"size": TABLET_PORTRAIT}}


def _scenes(driver, base: str):
    """(name, how to get there) in order; each leaves the page on the screen to take."""
    def setup():
        open_page(driver, base)

    def guandan():
        open_page(driver, base)
        set_up(driver, "guandan", seats=["north", "east", "south", "west"], key=SCREENSHOT_KEY)
        wait_present(driver, "legal-actions")
        play_steps(driver, 3)

    def physical():
        open_page(driver, base)
        set_up(driver, "man", seats=["aoki", "baba", "chiba"], preset="referee", key=SCREENSHOT_KEY,
               physical=True)
        for card in ("H9", "C4", "SK"):
            click(driver, f"pick-{card}")

    def finished():
        open_page(driver, base)
        set_up(driver, "manteur", seats=["ann", "bob", "cy"], key=SCREENSHOT_KEY,
               options={"penalty_limit": "1"})
        play_deal(driver, ["challenge", "declare"])

    return [("setup", setup), ("play", guandan), ("physical", physical), ("result", finished)]


def take(base: str, out: Path, devices=tuple(DEVICES)) -> list[str]:
    """Write DIR/<scene>-<device>.png for every scene and device; answer the screens that scroll
    sideways (an empty list when none does)."""
    out.mkdir(parents=True, exist_ok=True)
    wide: list[str] = []
    for device in devices:
        driver = start_browser(**DEVICES[device])
        try:
            for name, go in _scenes(driver, base):
                go()
                wait_for(driver, idle, what=f"{name} to settle")
                driver.execute_script("window.scrollTo(0, 0)")
                driver.save_screenshot(str(out / f"{name}-{device}.png"))
                page, viewport = no_sideways_scroll(driver)
                if page > viewport:
                    wide.append(f"{name} on {device}: {page} px wide in a {viewport} px viewport")
        finally:
            driver.quit()
    return wide


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir", type=Path, help="where to write the PNG files")
    parser.add_argument("--base", help="a running service's base URL (its referee key: "
                                       f"{SCREENSHOT_KEY!r} or none)")
    args = parser.parse_args(argv)
    with ExitStack() as stack:
        base = args.base
        if base is None:
            from tests.service.serving import gunicorn_service

            tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            base = stack.enter_context(gunicorn_service(tmp, CARDREF_REFEREE_KEYS=SCREENSHOT_KEY))
        wide = take(base, args.dir)
    for line in wide:
        print(f"scrolls sideways: {line}", file=sys.stderr)
    print(f"screenshots written to {args.dir}")
    return 1 if wide else 0


if __name__ == "__main__":
    raise SystemExit(main())
