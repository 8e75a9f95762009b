"""Input that is not well formed (HTTP 422), with a stable code and the offending path."""
from __future__ import annotations

import reprlib


class InputError(ValueError):
    """Input that is not well formed for the game (HTTP 422): a bad state, action, option or
    deal request. `code` is stable; `path` names the offending field."""

    code = "input_invalid"
    ja = ""  # the message in Japanese, where a parser words one (the service answers in it)

    def __init__(self, message: str, path: str = "", code: str | None = None,
                 errors: dict[str, list[str]] | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        if code:
            self.code = code
        # Every offending path when there are several (e.g. each wrong option), else None.
        self.errors = errors


class InvalidState(InputError):
    code = "state_invalid"


class InvalidAction(InputError):
    code = "action_invalid"


class InvalidOptions(InputError):
    code = "options_invalid"


class InvalidDeal(InputError):
    code = "deal_invalid"


_SHORT = reprlib.Repr()
_SHORT.maxlevel, _SHORT.maxlist, _SHORT.maxdict, _SHORT.maxstring, _SHORT.maxother = 2, 6, 4, 40, 40


def shown(value: object) -> str:
    """A client's value as an error message quotes it: repr for a scalar, a short repr for a
    list or object. JSON may nest ~1000 deep and Python's repr of that overflows the stack (a
    RecursionError turned a 422 into a 500); reprlib stops at two levels."""
    if isinstance(value, (list, dict, tuple)):
        return _SHORT.repr(value)
    return repr(value)
