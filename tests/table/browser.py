"""A real browser for the table page's tests: the distribution's Chromium (`chromium` and
`chromium-driver`, /usr/bin), driven by selenium. Installed here when the tests run as root with
apt-get; otherwise the tests FAIL with what to install — never a silent skip."""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

CHROMIUM = os.environ.get("CARDREF_CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CARDREF_CHROMEDRIVER", "/usr/bin/chromedriver")
PACKAGES = ("chromium", "chromium-driver")

# Chrome's device emulation: a headless window cannot be narrower than 500 px, an emulated
# phone can. 390 × 844 is a current phone held upright.
PHONE = {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 2.0, "mobile": True, "touch": True},
         "userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
                      "Chrome/120.0 Mobile Safari/537.36"}
PHONE_LANDSCAPE = {**PHONE, "deviceMetrics": {**PHONE["deviceMetrics"], "width": 844, "height": 390}}
TABLET = (1024, 768)     # a tablet in landscape
TABLET_PORTRAIT = (820, 1180)


def ensure_chromium() -> None:
    """Chromium and its driver where the tests look for them: installed with apt-get when
    missing and this process may (root), else an AssertionError that says what to do."""
    if Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists():
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        done = subprocess.run(["apt-get", "install", "-y", "-q", *PACKAGES], env=env,
                              capture_output=True, text=True, timeout=900, check=False)
        if done.returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, timeout=900,
                           check=False)
            done = subprocess.run(["apt-get", "install", "-y", "-q", *PACKAGES], env=env,
                                  capture_output=True, text=True, timeout=900, check=False)
        if Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists():
            return
        raise AssertionError("the table page's browser tests need Chromium; `apt-get install -y "
                             f"chromium chromium-driver` failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
    raise AssertionError(
        f"the table page's browser tests need Chromium at {CHROMIUM} and its driver at "
        f"{CHROMEDRIVER}: install them (Debian/Ubuntu: `sudo apt-get install -y chromium "
        "chromium-driver`) or point CARDREF_CHROMIUM / CARDREF_CHROMEDRIVER at them")


def start_browser(*, phone: bool | dict = False, size: tuple[int, int] = TABLET, lang: str = "en",
                  downloads: Path | None = None):
    """A headless Chromium (a phone by emulation, or a window of `size`) in `lang`."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    ensure_chromium()
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-extensions", "--no-first-run", "--hide-scrollbars", f"--lang={lang}",
                f"--window-size={size[0]},{size[1]}"):
        opts.add_argument(arg)
    prefs = {"intl.accept_languages": lang}
    if downloads is not None:
        prefs.update({"download.default_directory": str(downloads), "download.prompt_for_download": False})
    opts.add_experimental_option("prefs", prefs)
    # the console, where a Content-Security-Policy violation shows (csp_violations)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if phone:
        opts.add_experimental_option("mobileEmulation", PHONE if phone is True else phone)
    driver = webdriver.Chrome(options=opts, service=Service(CHROMEDRIVER))
    driver.set_script_timeout(30)
    # Every page a test opened must have worked under its policy: quitting asserts that the
    # console showed no violation since it was last read (tests/table/conftest.py reads it after
    # each test of the session's browser).
    quit_browser = driver.quit

    def quit_checked():
        try:
            found = csp_violations(driver)
        finally:
            quit_browser()
        assert not found, f"Content-Security-Policy violations: {found}"

    driver.quit = quit_checked
    return driver


def console(driver) -> list[dict]:
    """The browser console's messages since the last read (reading empties it)."""
    return driver.get_log("browser")


def is_csp_violation(message: str) -> bool:
    # Chromium: "Refused to load/execute/apply … because it violates the following Content
    # Security Policy directive …", and "Refused to frame … 'frame-ancestors' …"
    return "Content Security Policy" in message or "Content-Security-Policy" in message


def csp_violations(driver) -> list[str]:
    """The console's Content-Security-Policy violations since it was last read."""
    return [m["message"] for m in console(driver) if is_csp_violation(m["message"])]
