"""Browser front ends and operations (issue #14): CORS, the docs page, request ids, JSON logs,
readiness, caching headers, rules pages, metrics per game and refusal code, CPU limits."""
import json
import logging
import re
import socket
import time
from pathlib import Path

import pytest

from engine import registry
from service import metrics
from service.config import Settings, SettingsError, cpu_limit
from tests.service.conftest import deal_toy

APP = "https://app.example"


# ---------------------------------------------------------------- CORS

def test_cors_is_off_by_default(client):
    resp = client.get("/v1/games", headers={"Origin": APP})
    assert "Access-Control-Allow-Origin" not in resp.headers
    pre = client.options("/v1/validate", headers={"Origin": APP,
                                                  "Access-Control-Request-Method": "POST"})
    assert "Access-Control-Allow-Origin" not in pre.headers


def test_cors_setting_is_read_from_the_environment():
    assert Settings.from_env({}).cors_origins == ()
    got = Settings.from_env({"CARDREF_CORS_ORIGINS": f"{APP}/, http://localhost:3000"})
    assert got.cors_origins == (APP, "http://localhost:3000")
    assert Settings.from_env({"CARDREF_CORS_ORIGINS": "*"}).cors_origins == ("*",)
    with pytest.raises(SettingsError):
        Settings.from_env({"CARDREF_CORS_ORIGINS": "app.example"})


def test_cors_preflight_answers_an_allowed_origin(make_client):
    client = make_client(cors_origins=(APP,))
    pre = client.options("/v1/validate", headers={
        "Origin": APP, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "Content-Type, X-Request-ID, X-Seat-Token"})
    assert pre.status_code == 200
    assert pre.headers["Access-Control-Allow-Origin"] == APP
    assert "POST" in pre.headers["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in pre.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"content-type", "x-request-id", "x-seat-token"} <= allowed
    assert int(pre.headers["Access-Control-Max-Age"]) > 0


def test_cors_actual_request_exposes_the_headers_a_front_end_reads(make_client):
    client = make_client(cors_origins=(APP,))
    resp = client.post("/v1/validate", json={"state": {}, "action": {}},
                       headers={"Origin": APP})
    assert resp.headers["Access-Control-Allow-Origin"] == APP
    exposed = {h.strip().lower() for h in resp.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"x-request-id", "etag", "content-language"} <= exposed
    assert "Origin" in resp.headers["Vary"]


def test_the_cors_section_of_the_docs_says_what_the_service_sends(make_client):
    """docs/integrating.md's CORS section lists exactly the headers a preflight allows and an
    answer exposes, and the methods and max age the service answers."""
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "integrating.md").read_text(
        encoding="utf-8")
    section = page.split("## CORS\n", 1)[1].split("\n## ", 1)[0]
    client = make_client(cors_origins=(APP,))
    asked = "content-type, authorization, x-seat-token, x-host-token, x-request-id, " \
            "accept-language, if-none-match, if-match, idempotency-key, x-referee-key"
    pre = client.options("/v1/validate", headers={
        "Origin": APP, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": asked})
    allowed = [h.strip() for h in pre.headers["Access-Control-Allow-Headers"].split(",")]
    told = set(re.findall(r"`([A-Za-z-]+)`", section))
    assert {h.lower() for h in allowed} == set(asked.split(", "))
    assert {h.lower() for h in allowed} == {t.lower() for t in told if t.lower() in
                                           set(asked.split(", "))}
    assert f"Access-Control-Allow-Methods: {pre.headers['Access-Control-Allow-Methods']}" \
        in section
    assert f"Access-Control-Max-Age: {pre.headers['Access-Control-Max-Age']}" in section
    exposed = client.get("/v1/games", headers={"Origin": APP}).headers[
        "Access-Control-Expose-Headers"]
    assert f"Access-Control-Expose-Headers: {exposed}" in " ".join(section.split())
    other = client.get("/v1/games", headers={"Origin": "https://other.example"})
    assert not [h for h, _ in other.headers if h.lower().startswith("access-control")]
    assert "Access-Control-Allow-Credentials" not in pre.headers


def test_cors_refuses_other_origins(make_client):
    client = make_client(cors_origins=(APP,))
    for resp in (client.get("/v1/games", headers={"Origin": "https://evil.example"}),
                 client.options("/v1/validate", headers={
                     "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})):
        assert "Access-Control-Allow-Origin" not in resp.headers


def test_cors_any_origin(make_client):
    client = make_client(cors_origins=("*",))
    resp = client.get("/v1/games", headers={"Origin": "https://anything.example"})
    assert resp.headers["Access-Control-Allow-Origin"] == "*"


# ---------------------------------------------------------------- Swagger UI

def test_swagger_ui_never_calls_an_outside_validator_and_docs_slash_works(client):
    for path in ("/docs", "/docs/"):
        resp = client.get(path)
        assert resp.status_code == 200, path
        page = resp.get_data(as_text=True)
        assert re.search(r'"validatorUrl":\s*null', page)
        assert "swagger.io" not in page and "//cdn" not in page and "unpkg" not in page


# ---------------------------------------------------------------- request ids and logs

def test_request_id_is_echoed_or_made(client):
    resp = client.get("/healthz", headers={"X-Request-ID": "front-42"})
    assert resp.headers["X-Request-ID"] == "front-42"
    made = client.get("/healthz").headers["X-Request-ID"]
    assert len(made) == 32 and made != client.get("/healthz").headers["X-Request-ID"]
    # An id that could forge log lines or headers is replaced, not echoed.
    odd = client.get("/healthz", headers={"X-Request-ID": "a b\"c"}).headers["X-Request-ID"]
    assert odd != 'a b"c' and len(odd) == 32
    # Errors carry it too.
    assert client.post("/v1/validate", data="{", content_type="application/json",
                       headers={"X-Request-ID": "e-1"}).headers["X-Request-ID"] == "e-1"


def test_access_log_is_a_json_line_with_the_request_id(make_client, caplog):
    from service.logs import JsonFormatter

    client = make_client(access_log=True)
    with caplog.at_level(logging.INFO, logger="card_referee.access"):
        client.post("/v1/validate", json={"state": {}, "action": {}},
                    headers={"X-Request-ID": "trace-7"})
    records = [r for r in caplog.records if r.name == "card_referee.access"]
    assert records
    line = json.loads(JsonFormatter().format(records[-1]))
    assert line["request_id"] == "trace-7" and line["status"] == 422
    assert line["method"] == "POST" and line["path"] == "/v1/validate"
    assert line["problem"] == "state_invalid" or line["problem"]
    assert isinstance(line["duration_ms"], float)


def test_app_logs_carry_the_request_id(client, caplog):
    from service.logs import JsonFormatter

    with caplog.at_level(logging.INFO):
        client.application.logger  # noqa: B018 - the app's logger exists
        with client.application.test_request_context(headers={"X-Request-ID": "r-9"}):
            client.application.preprocess_request()
            logging.getLogger("card_referee.test").info("hello")
    rec = [r for r in caplog.records if r.name == "card_referee.test"][-1]
    assert json.loads(JsonFormatter().format(rec))["request_id"] == "r-9"


def test_access_log_on_by_default_under_serve(monkeypatch):
    from service import cli

    monkeypatch.delenv("CARDREF_ACCESS_LOG", raising=False)
    seen = {}

    def fake_run():
        import os
        seen["env"] = os.environ.get("CARDREF_ACCESS_LOG")

    monkeypatch.setattr("gunicorn.app.wsgiapp.run", fake_run)
    monkeypatch.setattr("sys.argv", ["card-referee"])
    assert cli.main(["serve"]) == 0
    assert Settings.from_env({"CARDREF_ACCESS_LOG": seen["env"]}).access_log is True
    assert Settings.from_env({}).access_log is False
    monkeypatch.delenv("CARDREF_ACCESS_LOG", raising=False)


def test_gunicorn_logs_through_the_json_formatter():

    from service.logs import gunicorn_logconfig

    conf = gunicorn_logconfig("json", "INFO")
    assert conf["formatters"]["cardref"]["()"] == "service.logs.JsonFormatter"
    assert conf["loggers"]["gunicorn.access"]["propagate"] is False


def test_gunicorns_own_access_log_costs_nothing_unless_asked_for(monkeypatch):
    """The service writes its own access log: gunicorn's, on whenever a logconfig_dict is
    given, would build every request's atoms to drop them. With `--access-logfile` it logs."""
    from gunicorn.config import Config

    from service.logs import gunicorn_logconfig
    from service.workers import Logger

    built = []
    monkeypatch.setattr(Logger, "atoms", lambda self, *args: built.append(args) or {})
    for accesslog, logs in ((None, False), ("-", True)):
        cfg = Config()
        cfg.set("logconfig_dict", gunicorn_logconfig("json", "INFO"))
        cfg.set("accesslog", accesslog)
        logger = Logger(cfg)
        assert logger.access_log_enabled is logs
        logger.access(None, None, {}, None)
        assert bool(built) is logs
    with open(Path(__file__).resolve().parents[2] / "service" / "gunicorn_conf.py") as conf:
        assert 'logger_class = "service.workers.Logger"' in conf.read()


# ---------------------------------------------------------------- readiness

def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_readyz_is_503_when_strict_sequencing_has_no_redis(make_client):
    client = make_client(state_secrets=("s",), sequence="strict",
                         redis_url=f"redis://127.0.0.1:{_closed_port()}/0",
                         redis_timeout_seconds=0.05)
    resp = client.get("/readyz")
    assert resp.status_code == 503
    assert resp.get_json()["status"] == "not_ready"


def test_readyz_is_200_when_ready(client):
    resp = client.get("/readyz")
    assert resp.status_code == 200 and resp.get_json()["status"] == "ready"


# ---------------------------------------------------------------- caching headers

@pytest.mark.parametrize("path", ["/v1/games", "/openapi.json", "/openapi.yaml"])
def test_etag_and_cache_control_on_games_and_the_spec(client, path):
    resp = client.get(path)
    assert resp.status_code == 200
    etag = resp.headers["ETag"]
    assert "max-age" in resp.headers["Cache-Control"]
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert client.get(path, headers={"If-None-Match": '"other"'}).status_code == 200


def test_etag_differs_by_language(client):
    en = client.get("/v1/games").headers["ETag"]
    ja = client.get("/v1/games", headers={"Accept-Language": "ja"})
    assert ja.headers["ETag"] != en
    assert ja.headers["Content-Language"] == "ja" and "Accept-Language" in ja.headers["Vary"]


# ---------------------------------------------------------------- rules pages

def test_games_link_their_rules_page_by_url(client):
    for game in client.get("/v1/games").get_json()["games"]:
        if game["id"] == "toy":  # the test-only game has no rules page
            continue
        url = game["rules"]
        assert url == f"/v1/games/{game['id']}/rules"
        md = client.get(url)
        assert md.status_code == 200 and md.mimetype == "text/markdown", url
        assert md.get_data(as_text=True).startswith("#")
        html = client.get(url + ".html")
        assert html.status_code == 200 and html.mimetype == "text/html"
        assert "<h1" in html.get_data(as_text=True)
        negotiated = client.get(url, headers={"Accept": "text/html,*/*;q=0.8"})
        assert negotiated.mimetype == "text/html"
        assert md.headers["ETag"]


def test_rules_of_an_unknown_game_are_404(client):
    resp = client.get("/v1/games/nope/rules")
    assert resp.status_code == 404 and resp.get_json()["code"] == "game_unknown"


def _dockerfile_instructions(text):
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined, comments dropped."""
    joined = re.sub(r"\\\n", " ", "\n".join(line for line in text.splitlines()
                                         if not line.lstrip().startswith("#")))
    return [tuple(line.strip().split(None, 1)) for line in joined.splitlines() if line.strip()]


def _docker_ignored(path, patterns):
    """Whether .dockerignore's patterns (no `!` exceptions used there) leave `path` out."""
    from fnmatch import fnmatch

    parts = path.split("/")
    prefixes = ["/".join(parts[:i]) for i in range(1, len(parts) + 1)]
    return any(fnmatch(prefix, pattern.removeprefix("**/")) or fnmatch(prefix, pattern)
               for pattern in patterns for prefix in prefixes)


def test_the_docker_image_gets_every_file_it_copies_and_ships_the_rules_pages():
    """What a build checks, without a Docker daemon (none runs in CI): every COPY source exists
    and .dockerignore keeps none of it out; the rules pages and the lock file go in; the health
    check follows CARDREF_BIND; the service does not run as root."""
    instructions = _dockerfile_instructions((ROOT / "Dockerfile").read_text())
    ignored = [line.strip().rstrip("/") for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    assert not any(line.startswith("!") for line in ignored)  # _docker_ignored does not know them
    copied = [src for op, args in instructions if op == "COPY" for src in args.split()[:-1]]
    assert copied
    for src in copied:
        assert (ROOT / src).exists(), f"the Dockerfile copies {src}, which is not in the repository"
        assert not _docker_ignored(src, ignored), f".dockerignore keeps {src} out of the build"
        if (ROOT / src).is_dir():  # nor any file below it (a pattern like docs/rules/*.md)
            for path in (ROOT / src).rglob("*"):
                rel = path.relative_to(ROOT).as_posix()
                assert "__pycache__" in rel or not _docker_ignored(rel, ignored), rel
    rules = {path.name for path in (ROOT / "docs" / "rules").glob("*.md")}
    assert {"man.md", "guandan.md"} <= rules and "docs/rules" in copied
    env = " ".join(args for op, args in instructions if op == "ENV")
    assert "CARDREF_RULES_DIR=/app/docs/rules" in env
    runs = [args for op, args in instructions if op == "RUN"]
    assert any("pip install" in run and "-r requirements.lock" in run for run in runs)
    assert any("--no-deps ." in run for run in runs)  # the project itself, nothing re-resolved
    users = [args for op, args in instructions if op == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert [args for op, args in instructions if op == "HEALTHCHECK"][-1].endswith(
        'CMD ["card-referee", "healthcheck"]')
    assert [args for op, args in instructions if op == "CMD"][-1] == '["card-referee", "serve"]'


def test_no_file_cited_that_users_cannot_reach():
    from pathlib import Path

    root = Path(__file__).parents[2]
    cited = []
    # DESIGN.md and shared/ (the team's reference pages beside the repository) never ship.
    unreachable = ("DESIGN.md", "shared/rules", "shared/seeds", "ROADMAP.md")
    for path in [root / "README.md", *root.glob("service/*.py"), *root.glob("engine/**/*.py"),
                 *root.glob("docs/**/*.md"), *root.glob("bench/*.py"), *root.glob("tools/*.py")]:
        text = path.read_text(encoding="utf-8")
        cited += [f"{path.relative_to(root)}: {name}" for name in unreachable if name in text]
    assert not cited, f"files not in the repository, yet cited: {cited}"


# ---------------------------------------------------------------- metrics

def test_metrics_per_game_and_refusal_code(make_client):
    client = make_client(metrics=True)
    dealt = deal_toy(client)
    state = dealt["state"]
    resp = client.post("/v1/validate", json={"state": state,
                                              "action": {"type": "play", "player": "zed",
                                                         "cards": ["S2"]}})
    scrape = client.get("/metrics")
    body = scrape.get_data(as_text=True)
    assert scrape.headers["Content-Type"].count("charset") == 1  # Prometheus' own type, as it is
    assert 'cardref_game_requests_total{game="toy",outcome="ok",route="/v1/games/<string:game>/deal"} 1.0' in body
    if resp.status_code == 200 and not resp.get_json()["valid"]:
        code = resp.get_json()["error"]["code"]
        assert f'cardref_refusals_total{{code="{code}",game="toy"}} 1.0' in body
    client.post("/v1/games/nope/deal", json={"players": ["a", "b"]})
    body = client.get("/metrics").get_data(as_text=True)
    assert 'game="nope"' not in body
    assert 'cardref_problems_total{code="game_unknown",status="404"} 1.0' in body



def _sample(body: str, prefix: str) -> float:
    return float(next(line for line in body.splitlines() if line.startswith(prefix)).split()[-1])


def test_metrics_counted_in_memory_scrape_as_every_answer_observed(make_client):
    # Answers are summed in the worker and written at most once a FLUSH_SECONDS: the scrape
    # must still show each one, its latency in the right bucket, as observing each would.
    client = make_client(metrics=True)
    for _ in range(25):
        assert client.get("/healthz").status_code == 200
    body = client.get("/metrics").get_data(as_text=True)
    series = 'method="GET",route="/healthz",status="200"'
    assert _sample(body, f'cardref_http_requests_total{{{series}}}') == 25
    assert _sample(body, f'cardref_http_request_duration_seconds_count{{{series}}}') == 25
    assert 0 < _sample(body, f'cardref_http_request_duration_seconds_sum{{{series}}}') < 25
    cumulative = [_sample(body, f'cardref_http_request_duration_seconds_bucket{{le="{le}",{series}}}')
                  for le in [*(repr(float(b)) for b in metrics.BUCKETS), "+Inf"]]
    assert cumulative == sorted(cumulative) and cumulative[-1] == 25


def test_metrics_of_an_idle_worker_reach_the_registry_without_a_scrape(make_client, monkeypatch):
    # The background flusher writes what an idle worker counted (another worker's scrape
    # reads only what was written).
    monkeypatch.setattr(metrics, "FLUSH_SECONDS", 0.05)
    client = make_client(metrics=True)
    client.get("/healthz")  # counted in memory; this process's flusher runs from here on
    client.get("/healthz")
    deadline = time.monotonic() + 5
    while any(p.counts for p in list(metrics._all_pending)) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not any(p.counts for p in list(metrics._all_pending))


# ---------------------------------------------------------------- worker count

def test_worker_count_respects_the_cgroup_cpu_quota(tmp_path):
    (tmp_path / "cpu.max").write_text("150000 100000\n")
    assert cpu_limit(str(tmp_path)) == min(2, cpu_limit(str(tmp_path / "none")))
    (tmp_path / "cpu.max").write_text("max 100000\n")
    assert cpu_limit(str(tmp_path)) == cpu_limit(str(tmp_path / "none")) >= 1
    v1 = tmp_path / "v1"
    (v1 / "cpu").mkdir(parents=True)
    (v1 / "cpu" / "cpu.cfs_quota_us").write_text("50000\n")
    (v1 / "cpu" / "cpu.cfs_period_us").write_text("100000\n")
    assert cpu_limit(str(v1)) == 1


def test_gunicorn_workers_default_to_the_cpu_limit():
    from pathlib import Path

    conf = (Path(__file__).parents[2] / "service" / "gunicorn_conf.py").read_text()
    assert "cpu_limit()" in conf and "multiprocessing.cpu_count" not in conf


# ---------------------------------------------------------------- repository hygiene

ROOT = __import__("pathlib").Path(__file__).parents[2]


def test_license_changelog_and_lock_files_exist_and_the_dockerfile_uses_the_lock():
    assert "Permission is hereby granted" in (ROOT / "LICENSE").read_text()
    assert "## Unreleased" in (ROOT / "CHANGELOG.md").read_text()
    lock = (ROOT / "requirements.lock").read_text().splitlines()
    pins = [line for line in lock if line and not line.startswith("#")]
    assert pins and all("==" in line for line in pins)
    for name in ("flask", "gunicorn", "gevent", "flask-cors", "markdown-it-py"):
        assert any(line.startswith(name + "==") for line in pins), name
    assert "-r requirements.lock" in (ROOT / "Dockerfile").read_text()
    assert "-r requirements-dev.lock" in (ROOT / "Makefile").read_text()


def test_make_installs_once_under_a_lock_and_offers_test_fast():
    makefile = (ROOT / "Makefile").read_text()
    assert "tools/run_locked.py $(LOCKFILE)" in makefile  # its behaviour: tests/test_make_install.py
    assert "\ntest-fast:" in makefile and "\ntest: $(STAMP)" in makefile


def test_property_tests_are_sized_by_the_documented_setting():
    import re

    for path in ROOT.glob("tests/*/test_properties.py"):
        text = path.read_text()
        assert not re.search(r"max_examples=\d", text), f"{path}: size it with examples(n)"
    assert "CARDREF_PROPERTY_SCALE" in (ROOT / "README.md").read_text()


# ---------------------------------------------------------------- messages a person can read

def test_malformed_json_says_line_and_column(client):
    for path, body in (("/v1/validate", '{\n  "state": {,}'), ("/v1/games/toy/deal", '{\n "players": [1,')):
        resp = client.post(path, data=body, content_type="application/json")
        assert resp.status_code == 400 and resp.get_json()["code"] == "json_malformed"
        assert re.search(r"line 2, column \d+", resp.get_json()["detail"]), resp.get_json()


def test_every_wrong_option_is_reported(client):
    resp = client.post("/v1/games/man/deal", json={
        "players": ["a", "b", "c"], "options": {"violations": "x", "calls": "y", "zz": 1}})
    assert resp.status_code == 422
    errors = resp.get_json()["errors"]
    assert set(errors) == {"options.violations", "options.calls", "options.zz"}
    assert "3 options are wrong" in resp.get_json()["detail"]


# Japanese. Decision (docs/integrating.md "Japanese"): every message a client can get is either a refusal
# (en/ja in the engine, tests/engine/test_refusal_catalogue.py) or a problem message, translated
# by service.errors.JA_MESSAGES. This lists the messages each source can give: every error
# message of the marshmallow fields our schemas use, and what each engine field kind answers to
# a wrong value; each must have its Japanese.

def _field_messages() -> list[str]:
    import marshmallow.fields as mf
    import marshmallow.validate as mv

    from engine.fields import Field, FieldError

    out = ["Missing data for required field.", "Unknown field.", "Field may not be null.",
           "Content-Type must be application/json.", "the request body does not fit the schema"]
    for cls in (mf.String, mf.Integer, mf.Boolean, mf.List, mf.Dict, mf.Raw, mf.Nested):
        for key, msg in getattr(cls, "default_error_messages", {}).items():
            if key not in ("type", "null", "required", "validator_failed", "invalid_utf8",
                           "too_large", "special", "invalid_schema"):
                out.append(msg.format(input="x"))
    import marshmallow as ma

    for validator, value in ((mv.Range(min=1, max=8), 0), (mv.Range(min=1), 0),
                             (mv.Range(max=1), 2), (mv.Length(min=1, max=8), []),
                             (mv.Length(min=1), []), (mv.Length(max=1), [1, 2]),
                             (mv.Length(equal=2), []), (mv.OneOf(["a", "b"]), "c")):
        try:
            validator(value)
        except ma.ValidationError as err:
            out += err.messages
    wrong = {"cards": 1, "card": 1, "suit": "Q", "enum": "zz", "int": "x", "bool": 1,
             "str": "", "player": 1, "player_list": [""], "str_list": 1, "int_list": 1,
             "str_list_map": 1, "str_list_list": [["zz"]],
             "int_map": 1, "object": 1, "object_list": 1}
    for kind, value in wrong.items():
        for bad in (value, None):
            try:
                Field(kind, choices=("a",), minimum=0, maximum=3).parse(bad, "p")
            except FieldError as err:
                out.append(err.message)
    for bad in (["S10", "ZZ"],):
        try:
            Field("cards").parse(bad, "p")
        except FieldError as err:
            out.append(err.message)
    for bad in (-1, 9):
        try:
            Field("int", minimum=0, maximum=3).parse(bad, "p")
        except FieldError as err:
            out.append(err.message)
    return out


def test_every_problem_message_has_japanese():
    from service.errors import TITLES, translate

    missing = [m for m in _field_messages() if translate(m) is None]
    assert not missing, f"no Japanese for: {missing}"
    assert all(en and ja and en != ja for en, ja in TITLES.values())


def test_japanese_problem_detail_and_field_errors(client):
    ja = {"Accept-Language": "ja"}
    resp = client.post("/v1/games/man/deal", json={"players": "a", "seed": 3}, headers=ja)
    body = resp.get_json()
    assert resp.headers["Content-Language"] == "ja" and "Accept-Language" in resp.headers["Vary"]
    assert body["errors"] == {"players": ["リストではありません。"], "seed": ["文字列ではありません。"]}
    assert "スキーマ" in body["detail"]
    resp = client.post("/v1/games/man/deal", headers=ja, json={
        "players": ["a", "b", "c"], "options": {"violations": "x", "zz": 1}})
    assert all(re.search(r"[\u3040-\u30ff]", m) for ms in resp.get_json()["errors"].values() for m in ms)
    bad = client.post("/v1/validate", data="{", content_type="application/json", headers=ja)
    assert "1 行" in bad.get_json()["detail"]


def test_metrics_labels_stay_bounded_whatever_clients_send(make_client):
    # Every made-up method, path, game or language was a label set of its own: one anonymous
    # client grew a worker by 150 MB and /metrics to 18 MB. Each label takes a fixed set of
    # values (unknown methods and codes: `other`, unmatched paths: one route).
    import random
    import string

    client = make_client(metrics=True)
    deal_toy(client)
    baseline = client.get("/metrics").get_data(as_text=True)
    rnd = random.Random(7)

    def word(n=8):
        return "".join(rnd.choice(string.ascii_uppercase) for _ in range(n))
    for _i in range(2000):
        method = rnd.choice(["GET", "POST", word(), word(12).lower()])
        path = rnd.choice(["/v1/validate", "/v1/games/" + word() + "/deal", "/" + word(),
                           "/v1/games/toy/" + word(), "/v1/" + word() + "/" + word()])
        client.open(path, method=method, data=b"{}", content_type="application/json",
                    headers={"Accept-Language": word(2).lower(), "X-" + word(): word(),
                             "X-Request-ID": word()})
    body = client.get("/metrics").get_data(as_text=True)
    samples = [line for line in body.splitlines() if line and not line.startswith("#")]
    label_sets = {line.rsplit(" ", 1)[0] for line in samples}
    assert len(body) < len(baseline) + 60_000, len(body)
    assert len(label_sets) < 400, len(label_sets)
    assert 'method="other"' in body and 'route="<unmatched>"' in body
    methods = set(re.findall(r'method="([^"]*)"', body))
    assert methods <= {"GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE",
                       "CONNECT", "other"}, methods
    games = set(re.findall(r'game="([^"]*)"', body))
    assert games <= {"toy", "<unknown>"} | {g.id for g in registry.all_games()}


def test_metrics_scrape_leaves_out_a_worker_file_still_being_created(make_client, monkeypatch,
                                                                     tmp_path):
    """Under gunicorn /metrics merges every worker's files; prometheus_client creates a file
    before sizing it, so a scrape can meet it at 0 bytes. That file holds nothing yet: the
    scrape answers without it instead of a 500 (prometheus/client_python#1199)."""
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    (tmp_path / "counter_4242.db").write_bytes(b"")
    client = make_client(metrics=True)
    answer = client.get("/metrics")
    assert answer.status_code == 200
