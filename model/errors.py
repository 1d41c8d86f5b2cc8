"""Named problems and exceptions.

A *problem* is one line a user reads: ``file:row:column: message``.  Loading
collects every problem it finds before giving up, so a designer fixes a sheet
in one pass instead of one error per run.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One located message about the user's input.  Problems sort by file, row
    (a whole-file problem first), column and message; a file that could not be
    read at all (``unreadable``) comes before every other problem, since what
    follows may stem from it."""

    file: str
    row: int | None = None
    column: str | None = None
    message: str = ""
    severity: str = "error"  # "error" or "warning"
    unreadable: bool = False

    def __str__(self) -> str:
        where = self.file
        if self.row is not None:
            where += f":{self.row}"
        if self.column:
            where += f":{self.column}"
        return f"{where}: {self.message}"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def sort_key(self) -> tuple:
        return (not self.unreadable, self.file, -1 if self.row is None else self.row, self.column or "", self.message, self.severity)

    def __lt__(self, other: "Problem") -> bool:
        return self.sort_key() < other.sort_key()


def _rebuild(cls, args: tuple, state: dict) -> "PnpError":
    exc = cls.__new__(cls)
    exc.args = args
    exc.__dict__.update(state)
    return exc


class PnpError(Exception):
    """A user-facing failure: the CLI prints the message, never a traceback.

    Every one pickles as it is (whatever its ``__init__`` takes), so that one
    raised in a worker process reaches the parent unchanged."""

    exit_code = 1

    def __reduce__(self):
        return _rebuild, (type(self), self.args, dict(self.__dict__))


class CommandLineError(PnpError):
    """A mistake in the options of a command (an unknown name, an empty range, a reference that is no
    reference): one line, exit 2, nothing run."""

    exit_code = 2


class InputErrors(PnpError):
    """The sheets, manifests or templates hold one or more errors.  ``problems``
    are the errors; ``warnings`` the warnings found with them (shown too: an
    unknown column's warning may explain the errors)."""

    def __init__(self, problems: list[Problem]):
        self.problems = sorted(p for p in problems if p.is_error)
        self.warnings = sorted(p for p in problems if not p.is_error)
        super().__init__("\n".join(str(p) for p in self.problems))


class Problems:
    """Collects problems; ``raise_if_errors`` ends a phase that found errors."""

    def __init__(self) -> None:
        self.items: list[Problem] = []

    def error(self, file: str, row: int | None, column: str | None, message: str, unreadable: bool = False) -> None:
        self.items.append(Problem(file, row, column, message, "error", unreadable))

    def warn(self, file: str, row: int | None, column: str | None, message: str) -> None:
        self.items.append(Problem(file, row, column, message, "warning"))

    def extend(self, other: "Problems") -> None:
        self.items.extend(other.items)

    @property
    def errors(self) -> list[Problem]:
        return [p for p in self.items if p.is_error]

    @property
    def warnings(self) -> list[Problem]:
        return [p for p in self.items if not p.is_error]

    def raise_if_errors(self) -> None:
        if self.errors:
            raise InputErrors(self.items)


# ------------------------------------------------------------------ the validator's named errors
class RulesError(PnpError):
    """The data asks for something a rules engine cannot do (e.g. an unknown word)."""


class NoRulesEngine(PnpError):
    """A game without a rules engine yet."""


class EngineError(PnpError):
    """A rules engine that does not load, clashes with another of the same slug, or
    breaks the protocol outside any one game; the message names the engine and, when
    the fault is in its code, the file and line (``file``, ``line``)."""

    def __init__(self, message: str, file: str | None = None, line: int | None = None):
        super().__init__(f"{file}:{line}: {message}" if file and line else f"{file}: {message}" if file else message)
        self.file, self.line, self.what = file, line, message


class EngineFailure(EngineError):
    """A rules engine failed inside one game (raised, stopped ending, played a
    different game from the same seed): the message gives the game seed, the action
    and the command that replays it.  ``lines`` holds what a replay printed before
    the failure."""

    def __init__(self, message: str, seed: int | None = None, step: int | None = None, lines: tuple = ()):
        PnpError.__init__(self, message)
        self.file = self.line = None
        self.what, self.seed, self.step, self.lines = message, seed, step, tuple(lines)


class EngineExists(PnpError):
    """``pnp new SLUG --rules`` where the game already has rules: nothing is written."""


class IllegalAction(PnpError):
    """An action that is not legal in the position; the message shows both."""


class InvariantViolation(PnpError):
    """``--strict`` found a broken rule or a lost component."""

    def __init__(self, slug: str, seed: int, step: int, message: str, players: int, bots: tuple[str, ...],
                 extra: str = ""):
        self.seed, self.step = seed, step
        bots_arg = bots[0] if len(set(bots)) == 1 else ",".join(bots)
        super().__init__(f"invariant broken in game seed {seed} at action {step}: {message}; replay it with: "
                         f"pnp validate {slug}{extra} --replay {seed} --players {players} --bots {bots_arg}")
