"""The framework floor: Flask answering a constant small JSON, under the same gunicorn setup.

`/floor/store` is the floor of a durable write (bench/hosted_events.py): the same answer after
one Lua script run in Redis (CARDREF_REDIS_URL, else the bench's database), as redis-py runs
the service's: what any push that keeps what it is sent pays before it checks anything."""
import os

from flask import Flask, jsonify

app = Flask("floor")
_store = []


@app.post("/floor")
def floor():
    return jsonify({"valid": True, "status": "in_progress"})


@app.post("/floor/store")
def floor_store():
    if not _store:  # made on first use: the plain floor needs no Redis
        import redis

        client = redis.Redis.from_url(os.environ.get("CARDREF_REDIS_URL")
                                      or "redis://127.0.0.1:6379/13")
        _store.append(client.register_script(
            "redis.call('HINCRBY', KEYS[1], 'version', 1) "
            "redis.call('HSET', KEYS[1], 'stamp', ARGV[1]) return 1"))
    _store[0](keys=["cardref:bench:floor-store"], args=["stamp"])
    return jsonify({"valid": True, "status": "in_progress"})
