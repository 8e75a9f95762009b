"""README's walkthroughs run on a fresh machine with what its "On a fresh machine" section names:
every command a walkthrough's shell block starts (or pipes into) is named there, and the
project's own `card-referee` is run from `.venv`, as that section says."""
import re
from pathlib import Path

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _walkthrough_commands() -> set[str]:
    """The commands of the shell blocks before "Typed clients" (which is about the reader's
    own generator, not the walkthroughs): each line's first word and each after a pipe."""
    walkthroughs = README.split("### Typed clients", 1)[0]
    commands = set()
    for block in re.findall(r"```sh\n(.*?)```", walkthroughs, re.DOTALL):
        for line in block.splitlines():
            for part in re.split(r"\||&&|;", line.split("#", 1)[0]):
                words = part.split()
                if words and not words[0].startswith("-"):  # a continued line's options
                    commands.add(words[0])
    return commands


def test_every_command_a_walkthrough_uses_is_a_named_prerequisite():
    section = README.split("## On a fresh machine", 1)[1].split("\n## ", 1)[0]
    commands = _walkthrough_commands()
    assert {"curl", "jq"} <= commands, commands
    for command in commands - {".venv/bin/card-referee"}:
        assert f"`{command}`" in section, f"README uses {command} but never says to install it"
    assert ".venv/bin/card-referee" in commands and "`.venv/bin/card-referee" in section
    assert not re.search(r"^card-referee ", README, re.MULTILINE), \
        "a walkthrough runs card-referee as if it were on PATH"
