"""Property tests are sized by example count so `make test` stays under 10 minutes on 2 cores.

CARDREF_PROPERTY_SCALE multiplies every property test's example count (default 1): 10 for a
longer soak (`CARDREF_PROPERTY_SCALE=10 make test`), 0.1 for `make test-fast`. What each test
checks never changes, only how many generated games it checks it on.
"""
import os

SCALE = float(os.environ.get("CARDREF_PROPERTY_SCALE") or 1)


def examples(n: int) -> int:
    """n examples at scale 1; at least one at any scale."""
    return max(1, round(n * SCALE))
