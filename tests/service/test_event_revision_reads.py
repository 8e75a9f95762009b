"""Which version of an event is the latest (service/event_store.py `revision`, what the public
view and a closed table's record are cached by) is read once for every caller that asked before
the read was sent: spectators polling at once share a round trip, and none is answered by a read
sent before it asked — a change made before a caller asked, by any process, is what it sees."""
from __future__ import annotations

import secrets
import threading
import time

import pytest
import redis

from service.event_store import EventStore, EventsUnavailable


@pytest.fixture
def event_key(redis_url):
    """An event's hash as the store keeps it (only what `revision` reads), deleted after."""
    eid = "rev" + secrets.token_hex(6)
    client = redis.Redis.from_url(redis_url)
    key = f"cardref:ev:{{{eid}}}"
    client.hset(key, mapping={"version": 1, "stamp": "first"})
    yield eid, key, client
    client.delete(key)


def answering_late(store: EventStore, seconds: float) -> list[float]:
    """The store's reads of a revision answered `seconds` after Redis answered them (a slow
    network: what Redis held when the read arrived, given late); when Redis answered each."""
    sent: list[float] = []
    hmget = store._client.hmget

    def late(*args, **kwargs):
        found = hmget(*args, **kwargs)
        sent.append(time.monotonic())
        time.sleep(seconds)
        return found
    store._client.hmget = late  # type: ignore[method-assign]
    return sent


def in_thread(call) -> tuple[threading.Thread, list]:
    out: list = []
    thread = threading.Thread(target=lambda: out.append(call()))
    thread.start()
    return thread, out


def read_out(store: EventStore, eid: str, sent: list[float]) -> tuple[threading.Thread, list]:
    """A caller whose read (answered late: `answering_late`) Redis has answered already."""
    asked = in_thread(lambda: store.revision(eid))
    while not sent:
        time.sleep(0.005)
    return asked


def test_callers_that_ask_while_a_read_is_out_share_the_next_read(redis_url, event_key):
    eid, _, _ = event_key
    store = EventStore(redis_url, 5.0)
    sent = answering_late(store, 0.3)
    first, first_out = read_out(store, eid, sent)
    waiting = [in_thread(lambda: store.revision(eid)) for _ in range(8)]
    for thread, _ in [(first, first_out), *waiting]:
        thread.join(timeout=10)
    assert len(sent) == 2  # the first read, and one for the eight that asked while it was out
    assert first_out == [(1, "first")]
    assert [out for _, out in waiting] == [[(1, "first")]] * 8


def test_a_change_made_before_a_caller_asked_is_what_it_sees(redis_url, event_key):
    """A read sent before the change is not shared with a caller that asks after it: the
    caller waits for that read and sends its own."""
    eid, key, client = event_key
    store = EventStore(redis_url, 5.0)
    sent = answering_late(store, 0.3)
    early, early_out = read_out(store, eid, sent)
    client.hset(key, mapping={"version": 2, "stamp": "second"})  # another worker's change
    late = [in_thread(lambda: store.revision(eid)) for _ in range(4)]
    for thread, _ in [(early, early_out), *late]:
        thread.join(timeout=10)
    assert early_out == [(1, "first")]  # asked before the change
    assert [out for _, out in late] == [[(2, "second")]] * 4
    assert len(sent) == 2


def test_a_read_that_fails_fails_every_caller_that_shared_it(redis_url, event_key):
    eid, _, _ = event_key
    store = EventStore(redis_url, 5.0)
    sent = answering_late(store, 0.2)
    first, _ = read_out(store, eid, sent)
    # the next read finds the store gone
    store._client.hmget = lambda *a, **k: (_ for _ in ()).throw(  # type: ignore[method-assign]
        redis.ConnectionError("gone"))
    failures: list[type] = []

    def asked():
        try:
            store.revision(eid)
        except EventsUnavailable as err:
            failures.append(type(err))
    threads = [threading.Thread(target=asked) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in [first, *threads]:
        thread.join(timeout=10)
    assert failures == [EventsUnavailable] * 5
    # and the next caller reads again: nothing of the failed read is kept
    store._client.hmget = redis.Redis.from_url(redis_url).hmget  # type: ignore[method-assign]
    assert store.revision(eid) == (1, "first")
