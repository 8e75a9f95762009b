"""Input that is not well formed (HTTP 422), with a stable code and the offending path."""
from __future__ import annotations


class InputError(ValueError):
    """Input that is not well formed for the game (HTTP 422): a bad state, action, option or
    deal request. `code` is stable; `path` names the offending field."""

    code = "input_invalid"

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
