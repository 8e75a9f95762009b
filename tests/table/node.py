"""The table page's modules run in node, without a browser: a script that imports them and logs
one JSON value, answered as that value."""
from __future__ import annotations

import json
import subprocess
from typing import Any

from tests.service.test_typescript_client import _node


def run_module(script: str) -> Any:
    """`script` run by node as an ES module; what it logged as JSON (its failure fails the test
    with node's stderr)."""
    node, _npm = _node()
    done = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
