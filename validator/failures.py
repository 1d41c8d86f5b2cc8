"""An engine that fails inside a game, told in one line: what went wrong, where in
its code, the game seed, the action, and the command that replays it.

The runner plays games without watching them (that is what makes it fast); when
one raises, ``runner.game_failure`` plays the same seed again through the protocol
loop, counting actions, to find the action it failed at, and words it with the
helpers here.  A game that does not fail the second time has not been played the
same way twice from one seed: that is said instead, since it is the engine's fault
too.  Outside any game,
:func:`blame` turns an exception raised in an engine's code (compiling the game,
its static checks, statistics, report sections) into one line naming the file
and line.
"""

from __future__ import annotations

import traceback
from contextlib import contextmanager
from pathlib import Path

from model.errors import EngineError, EngineFailure, InvariantViolation, PnpError
from validator.kit.registry import engine_of, fault_line, own

#: a game that takes this many actions without a new turn (``State.turns``) does not end
MAX_TURN_ACTIONS = 10_000
_ROOT = str(Path(__file__).resolve().parents[1]) + "/"


def replay_command(slug: str, seed: int, players: int, bots, extra: str = "") -> str:
    """The command that plays one game move by move; ``extra`` holds the run's ``--data`` and ``--rule``
    arguments (``replay_args``), so the command plays the game the run played."""
    bots_arg = bots[0] if len(set(bots)) == 1 else ",".join(bots)
    return f"pnp validate {slug}{extra} --replay {seed} --players {players} --bots {bots_arg}"


def replay_args(data=None, rules: dict | None = None, defaults: dict | None = None) -> str:
    """`` --data DIR`` when the game's data folder is not the current one, and `` --rule KEY=VALUE`` for each
    rules option set away from its default: what a replay command needs besides the seed."""
    import shlex

    out = ""
    folder = getattr(getattr(data, "manifest", None), "folder", None)
    if folder is not None:
        root = Path(folder).resolve().parent.parent  # (templates/<slug>/ inside the data folder)
        if root != Path.cwd().resolve():
            out += f" --data {shlex.quote(str(root))}"
    for key, value in (rules or {}).items():
        if defaults is None or defaults.get(key) != value:
            text = str(value).lower() if isinstance(value, bool) else str(value)
            out += f" --rule {shlex.quote(key.replace('_', '-') + '=' + text)}"
    return out


class EngineWrote(Exception):
    """An engine wrote to standard output or error while it played in a worker process."""

    def __init__(self, stream: str, text: str):
        super().__init__(f"wrote to standard {stream} ({text.strip()[:40]!r}): an engine must not print, its "
                         "output would mix with pnp's")


def where(exc: BaseException, spec) -> str:
    """``file:line`` of the fault: in the engine's code when it is there, else the
    innermost frame (pnp's own, shown from the repository)."""
    engine = engine_of(spec)
    file, line = fault_line(exc, engine) if engine is not None else (None, None)
    if file:
        return f"{file}:{line}"
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    frame = frames[-1]
    name = frame.filename[len(_ROOT):] if frame.filename.startswith(_ROOT) else frame.filename
    return f"{name}:{frame.lineno}"


def describe(exc: BaseException) -> str:
    text = str(exc).strip()
    first = text.splitlines()[0] if text else ""
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


#: what an engine's code may raise that is its own fault: any exception, an exit, an interrupt it raised itself
#: (:func:`own` tells that from the user's Ctrl-C)
ENGINE_FAULTS = (Exception, SystemExit, KeyboardInterrupt)


def did(exc: BaseException) -> str:
    """What an engine did, as the verb of a failure's line: ``raised ValueError: ...``, ``called sys.exit(3)``,
    ``raised KeyboardInterrupt (...)``, ``wrote to standard output (...)``."""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({exc.code!r}): an engine must not end the process"
    if isinstance(exc, KeyboardInterrupt):
        return "raised KeyboardInterrupt itself (it reads as Ctrl-C: an engine must not raise it)"
    if isinstance(exc, EngineWrote):
        return str(exc)
    return f"raised {describe(exc)}"


def fault_text(exc: BaseException, spec) -> str:
    """What an engine did and, when known, where: ``raised ValueError: ... (rules/game.py:12)``."""
    place = where(exc, spec)
    return did(exc) + (f" ({place})" if place else "")


def moment(step: int | None) -> str:
    """When in its game a fault came: ``at action N``, or ``while setting up`` before the first action."""
    return "while setting up" if step is None else f"at action {step}"


def lost_text(found, limit: float, noun: str) -> str:
    """What an engine did when the ``noun`` it played in (a worker process, a process) was lost
    (``model.workers.Lost``): it ran past ``limit`` seconds, or it ended the process."""
    if found.overran:
        return f"took longer than {limit:g} s (--move-timeout)"
    return f"ended its {noun} ({found.why}): an engine must not exit (os._exit, a crash)"


def stalled(game, seed: int, bots: tuple, step: int, turns: int, extra: str = "") -> EngineFailure:
    """A game that took ``MAX_TURN_ACTIONS`` actions without a new turn."""
    slug = game.spec.slug
    return EngineFailure(f"the rules of {slug}: game seed {seed} took {MAX_TURN_ACTIONS:,} actions without a new "
                         f"turn (State.turns stayed at {turns}) by action {step}: the game does not end, or its "
                         f"state does not count its turns; replay it with: "
                         f"{replay_command(slug, seed, game.players, bots, extra)}", seed, step)


def bad_actions(game, seed: int, bots: tuple, step: int, actions, extra: str = "") -> EngineFailure | None:
    """``--strict``: legal actions must be a list of sorted, unique whole numbers."""
    if type(actions) is list and all(type(a) is int for a in actions) and \
            all(a < b for a, b in zip(actions, actions[1:])):
        return None
    slug = game.spec.slug
    shown = repr(list(actions)[:12]) if hasattr(actions, "__iter__") else repr(actions)
    return EngineFailure(f"the rules of {slug}: the legal actions in game seed {seed} at action {step} are not a "
                         f"sorted list of distinct whole numbers: {shown}; replay it with: "
                         f"{replay_command(slug, seed, game.players, bots, extra)}", seed, step)


def replay_failure(game, seed: int, step: int | None, exc: BaseException, lines: list[str]) -> EngineFailure:
    """A replay (``--replay SEED``) that failed: the lines printed so far, then the failure."""
    if isinstance(exc, (EngineFailure, InvariantViolation)):
        return EngineFailure(str(exc), exc.seed, exc.step, lines)
    if isinstance(exc, PnpError):
        message = str(exc)
    else:
        message = f"the rules of {game.spec.slug} {fault_text(exc, game.spec)}"
    return EngineFailure(f"{message} in game seed {seed} {moment(step)}", seed, step, lines)


@contextmanager
def blame(spec):
    """Exceptions raised in ``spec``'s engine code become one EngineError line naming
    the file and line; pnp's own named errors pass; anything else (a fault in pnp)
    keeps its traceback.  An exit (``sys.exit``) or a KeyboardInterrupt the engine
    raised itself (no Ctrl-C was pressed) is the engine's fault too, wherever it is."""
    try:
        yield
    except PnpError:
        raise
    except ENGINE_FAULTS as exc:
        own(exc)
        engine = engine_of(spec)
        file, line = fault_line(exc, engine) if engine is not None else (None, None)
        if not file and isinstance(exc, Exception):  # a fault in pnp
            raise
        raise EngineError(f"the rules of {spec.slug} {did(exc)}", file, line) from None
