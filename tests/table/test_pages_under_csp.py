"""The service's HTML pages work in Chromium under their Content-Security-Policy (service/
headers.py; docs/security.md, "Headers"): each loads and does what it is for, and the console
shows no violation. The table page's own play is checked the same way by every test of the
session's browser (tests/table/conftest.py)."""
from __future__ import annotations

from selenium.webdriver.common.by import By

from tests.table.browser import console, csp_violations, is_csp_violation
from tests.table.pagedriver import find, open_page, wait_for


def test_the_index_the_docs_and_every_rules_page_work_under_their_policy(browser, table_service):
    browser.get(table_service + "/")
    links = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, "a")]
    rules = [link for link in links if "/rules." in link]
    assert rules and any(link.endswith("/docs") for link in links)
    # the pages' inline stylesheet applied (allowed by its hash): the body is narrowed
    assert browser.execute_script("return getComputedStyle(document.body).maxWidth") != "none"
    for link in rules:
        browser.get(link)
        assert browser.find_element(By.TAG_NAME, "h1").text
        assert browser.execute_script(
            "return getComputedStyle(document.body).fontFamily").startswith("sans-serif")
    # Swagger UI starts from its script file and draws the spec's operations
    browser.get(table_service + "/docs")
    wait_for(browser, lambda d: len(d.find_elements(By.CSS_SELECTOR, ".opblock")) > 10,
             timeout=30, what="Swagger UI's operations")
    assert "Card Referee" in browser.find_element(By.CSS_SELECTOR, ".info .title").text
    # the conftest fixture asserts the console showed no violation on any of these pages


def test_the_table_page_works_under_its_policy(browser, table_service):
    open_page(browser, table_service)
    assert find(browser, "start").is_displayed()
    # the stylesheet (a file) applied: the header bar is laid out by it
    assert browser.execute_script(
        "return getComputedStyle(document.querySelector('header.bar')).display") != "inline"


def test_no_other_site_can_frame_the_table_page(browser, table_service):
    # A page of another origin (the same service by another host name, a JSON answer: no
    # policy of its own to stop the frames first) framing /table and /docs: Chromium refuses
    # (frame-ancestors 'none', X-Frame-Options: DENY), so the page that keeps the referee key
    # and every seat token cannot be overlaid by a hostile site.
    other = table_service.replace("127.0.0.1", "localhost") \
        if "127.0.0.1" in table_service else table_service.replace("localhost", "127.0.0.1")
    assert other != table_service
    browser.get(other + "/v1/games")
    console(browser)  # start from an empty console
    browser.execute_script(
        "for (const src of arguments[0]) { const f = document.createElement('iframe');"
        " f.src = src; document.body.append(f); }",
        [table_service + "/table", table_service + "/docs"])
    seen: list[str] = []

    def both_refused(d) -> bool:
        seen.extend(m["message"] for m in console(d))
        return len([m for m in seen if "frame-ancestors 'none'" in m]) >= 2

    wait_for(browser, both_refused, what="the refusals to frame")
    assert all(is_csp_violation(m) for m in seen if "frame-ancestors" in m)
    # (the console is emptied: these refusals are what this test wants, the fixture sees none)
    assert not csp_violations(browser)
