"""CARDREF_REDIS_URL naming a Redis Cluster: `redis+cluster://[user:password@]host:port,…`
(TLS: `rediss+cluster://`) gives the client every node and the credentials as written; a URL a
cluster cannot serve (a database other than 0, a node without a port, query options) stops
the service at start with the reason."""
from urllib.parse import quote

import pytest
from hypothesis import given, strategies as st

from service.config import Settings, SettingsError
from service.redis_store import cluster_startup, is_cluster

hosts = st.one_of(
    st.from_regex(r"[a-z][a-z0-9-]{0,15}(\.[a-z][a-z0-9-]{0,15}){0,3}", fullmatch=True),
    st.ip_addresses(v=4).map(str),
    st.ip_addresses(v=6).map(lambda ip: f"[{ip}]"),
)
nodes = st.lists(st.tuples(hosts, st.integers(1, 65535)), min_size=1, max_size=6)
secrets = st.none() | st.text(min_size=1, max_size=20)


@given(nodes=nodes, user=secrets, password=secrets, tls=st.booleans())
def test_a_cluster_url_gives_every_node_and_the_credentials_as_written(nodes, user, password,
                                                                        tls):
    auth = ""
    if user is not None or password is not None:
        auth = quote(user or "", safe="") + (
            "" if password is None else ":" + quote(password, safe="")) + "@"
    url = (f"{'rediss' if tls else 'redis'}+cluster://{auth}"
           + ",".join(f"{host}:{port}" for host, port in nodes))
    assert is_cluster(url)
    found, options = cluster_startup(url)
    assert found == [(host.strip("[]"), port) for host, port in nodes]
    assert options["ssl"] is tls
    assert options.get("username") == (user or None)
    assert options.get("password") == password
    assert Settings(redis_url=url).redis_url == url


@pytest.mark.parametrize("url", ["redis://127.0.0.1:6379/0", "rediss://h:6380",
                                 "unix:///run/redis.sock", None, ""])
def test_other_urls_name_one_redis(url):
    assert not is_cluster(url)


@pytest.mark.parametrize("url, reason", [
    ("redis+cluster://h1:7000,h2:7001/2", "only database 0"),
    ("redis+cluster://h1:7000,h2", "'h2' is not host:port"),
    ("redis+cluster://h1:7000,:7001", "':7001' is not host:port"),
    ("redis+cluster://h1:port", "is not host:port"),
    ("redis+cluster://h1:7000?ssl_cert_reqs=none", "no query options"),
])
def test_a_cluster_url_a_cluster_cannot_serve_stops_the_service_with_the_reason(url, reason):
    with pytest.raises(SettingsError, match="CARDREF_REDIS_URL") as err:
        Settings(redis_url=url)
    assert reason in str(err.value)
