"""deploy/: the compose file and the Kubernetes manifests are valid as far as this machine can
tell without a registry or a cluster — the compose file against the Compose Specification's
JSON schema (and `docker compose config` where Docker Compose is installed), the manifests
against the Kubernetes API's schemas (kubernetes-validate, offline) — and they name only
settings the service reads, images pinned by version, health checks on /readyz, and CPU that
matches the gunicorn worker count."""
from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import jsonschema
import kubernetes_validate
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
# schema/compose-spec.json of github.com/compose-spec/compose-spec at
# 170098ba07d9f53c383a41bfd4c5166b0a4529a6 (2026-06-23), vendored: no network in the tests.
COMPOSE_SCHEMA = Path(__file__).with_name("compose-spec.json")
MANIFESTS = sorted((DEPLOY / "kubernetes").glob("*.yaml"))
# The oldest and the newest Kubernetes whose schemas kubernetes-validate bundles.
KUBERNETES_VERSIONS = (kubernetes_validate.utils.all_versions()[0],
                       kubernetes_validate.utils.latest_version())
PROJECT_VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def _compose() -> dict:
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


def _resources() -> list[dict]:
    return [doc for path in MANIFESTS for doc in yaml.safe_load_all(path.read_text()) if doc]


def _one(kind: str) -> dict:
    (found,) = [r for r in _resources() if r["kind"] == kind]
    return found


def service_settings() -> set[str]:
    """Every CARDREF_ variable the service's code reads (service/: config, gunicorn, CLI)."""
    names = set()
    for path in (ROOT / "service").glob("*.py"):
        names |= set(re.findall(r"\bCARDREF_[A-Z0-9_]*[A-Z0-9]\b", path.read_text()))
    return names


def test_the_compose_file_is_valid_against_the_compose_specification():
    schema = json.loads(COMPOSE_SCHEMA.read_text())
    jsonschema.Draft7Validator.check_schema(schema)
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(_compose()), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors)


def test_the_compose_file_sets_only_settings_the_service_reads():
    known = service_settings()
    assert "CARDREF_REDIS_URL" in known and "CARDREF_WORKERS" in known  # the scan works
    referee = _compose()["services"]["referee"]
    env = referee["environment"]
    assert set(env) <= known, set(env) - known
    # one gunicorn worker per CPU of the container's quota
    assert float(referee["deploy"]["resources"]["limits"]["cpus"]) == int(env["CARDREF_WORKERS"])


def test_the_compose_file_builds_the_service_from_the_dockerfile_and_pins_every_image():
    services = _compose()["services"]
    referee = services["referee"]
    assert (DEPLOY / referee["build"]["context"] / referee["build"]["dockerfile"]).is_file()
    assert referee["image"] == f"card-referee:{PROJECT_VERSION}"
    for name, service in services.items():
        image = service["image"]
        # a version tag (digits), never an implied or moving `latest`
        assert re.fullmatch(r"[a-z0-9./-]+:\d+\.\d+\.\d+(-[a-z0-9.]+)?", image), (name, image)


def test_the_compose_file_checks_health_on_readyz_at_the_service_and_the_load_balancer():
    services = _compose()["services"]
    assert "http://127.0.0.1:8000/readyz" in services["referee"]["healthcheck"]["test"]
    haproxy = (DEPLOY / "haproxy.cfg").read_text()
    mounted = [v for v in services["lb"]["volumes"] if v.startswith("./haproxy.cfg:")]
    assert mounted, "the load balancer does not get deploy/haproxy.cfg"
    assert "http-check send meth GET uri /readyz" in haproxy
    assert re.search(r"server-template \S+ \d+ referee:8000 check", haproxy)
    # the Redis the service depends on keeps an append-only file (strict sequencing)
    assert "--appendonly" in services["redis"]["command"]
    assert services["referee"]["environment"]["CARDREF_SEQUENCE_REQUIRE_AOF"] == "on"


@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
def test_the_kubernetes_manifests_are_valid_against_the_kubernetes_schema(version):
    resources = _resources()
    assert {r["kind"] for r in resources} >= {
        "Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget", "ConfigMap"}
    for resource in resources:
        try:
            kubernetes_validate.validate(resource, version, strict=True)
        except kubernetes_validate.ValidationError as err:
            raise AssertionError(f"{resource['kind']} {resource['metadata']['name']} "
                                 f"(Kubernetes {version}): {err.message} at "
                                 f"{list(err.path)}") from None


def test_the_deployment_requests_one_cpu_per_gunicorn_worker_and_probes_readyz_and_healthz():
    deployment = _one("Deployment")
    config = _one("ConfigMap")["data"]
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    workers = int(config["CARDREF_WORKERS"])
    resources = container["resources"]
    assert int(resources["requests"]["cpu"]) == int(resources["limits"]["cpu"]) == workers
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["image"] == f"card-referee:{PROJECT_VERSION}"
    assert {"configMapRef": {"name": "card-referee"}} in container["envFrom"]
    assert set(config) <= service_settings(), set(config) - service_settings()


def test_the_service_autoscaler_and_disruption_budget_select_the_deployment():
    deployment = _one("Deployment")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert _one("Service")["spec"]["selector"].items() <= labels.items()
    assert _one("PodDisruptionBudget")["spec"]["selector"]["matchLabels"].items() \
        <= labels.items()
    target = _one("HorizontalPodAutoscaler")["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"])
    hpa = _one("HorizontalPodAutoscaler")["spec"]
    # a drain never takes the last replicas: the budget leaves most of the minimum serving
    assert hpa["minReplicas"] > _one("PodDisruptionBudget")["spec"]["maxUnavailable"]
