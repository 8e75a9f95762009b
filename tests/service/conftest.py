import pytest

from engine import registry
from service.app import create_app
from service.config import Settings
from tests.toygame import ToyGame

REFEREE_KEY = "test-referee-key"
REFEREE = {"Authorization": f"Bearer {REFEREE_KEY}"}


@pytest.fixture
def toy():
    """The test-only toy game, registered for the duration of one test."""
    game = registry.register(ToyGame())
    yield game
    registry.unregister("toy")


@pytest.fixture
def make_client(toy):
    def make(**settings):
        settings.setdefault("metrics", False)
        settings.setdefault("referee_keys", (REFEREE_KEY,))
        app = create_app(Settings(**settings))
        return app.test_client()
    return make


@pytest.fixture
def client(make_client):
    return make_client()


def deal_toy(client, seed="s1", **extra):
    body = {"players": ["ann", "bob"], "seed": seed, **extra}
    resp = client.post("/v1/games/toy/deal", json=body, headers=REFEREE)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()
