"""Worker processes: an error in one reaches the parent as the problem lines it
would give in the parent, never a hang or a broken pool; a bug is told as a bug;
and no worker outlives its parent, however the parent ends."""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from model.errors import InputErrors, InvariantViolation, Problem
from model.workers import WorkerCrash, process_pool

from helpers import REPO, copy_game

linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")


def pnp(*args, cwd=None, timeout=180):
    """``pnp ARGS`` in a process of its own; a hang fails the test instead of the run."""
    return subprocess.run([sys.executable, "-c", "from pnp.cli import main; main()", *map(str, args)],
                          cwd=cwd, capture_output=True, text=True, timeout=timeout)


# ------------------------------------------------------------------ errors that cross processes
def test_named_errors_pickle_whole():
    errors = InputErrors([Problem("cards.csv", 3, "name", "name is empty"), Problem("cards.csv", 1, "x", "w", "warning")])
    again = pickle.loads(pickle.dumps(errors))
    assert again.problems == errors.problems and again.warnings == errors.warnings and str(again) == str(errors)
    violation = InvariantViolation("pyramid-scheme", 7, 12, "a card is lost", 4, ("greedy",))
    again = pickle.loads(pickle.dumps(violation))
    assert (again.seed, again.step, str(again)) == (7, 12, str(violation))


class _Unpicklable(Exception):
    def __init__(self, a, b):  # pickling calls __init__ with args=(message,): fails
        super().__init__(f"{a} {b}")


def _raise_unpicklable():
    raise _Unpicklable("not", "picklable")


def _raise_input_errors():
    raise InputErrors([Problem("templates/g/card.svg.j2", 9, None, "card has no column 'nmae'")])


def test_an_exception_in_a_worker_reaches_the_parent():
    with process_pool(2) as pool:
        with pytest.raises(InputErrors) as named:
            pool.submit(_raise_input_errors).result(timeout=60)
        with pytest.raises(WorkerCrash) as crash:
            pool.submit(_raise_unpicklable).result(timeout=60)
        assert pool.submit(os.getpid).result(timeout=60) != os.getpid()  # the pool still works
    assert str(named.value.problems[0]) == "templates/g/card.svg.j2:9: card has no column 'nmae'"
    assert crash.value.kind == "_Unpicklable" and "_raise_unpicklable" in crash.value.trace


def _frozen(_) -> int:
    import gc

    return gc.get_freeze_count()


@pytest.mark.skipif(sys.platform == "win32", reason="workers are forked")
def test_a_forked_worker_leaves_what_it_inherits_to_the_parent_and_the_parent_collects_it_again():
    """A worker's garbage collector never marks the objects it inherited (which would copy the parent's memory
    into every worker, page by page); the parent's own collector goes on as before."""
    import gc

    from model.workers import Supervisor

    before = gc.get_freeze_count()
    pool = Supervisor(1)
    try:
        [inherited] = pool.map_ordered(_frozen, [None])
    finally:
        pool.close()
    assert inherited > len(gc.get_objects()) // 2 and gc.get_freeze_count() == before


# ------------------------------------------------------------------ template mistakes in worker processes
def test_template_mistakes_in_workers_are_one_line_each_and_nothing_is_written(tmp_path):
    data = copy_game(tmp_path / "data", "pyramid-scheme", REPO, "drinking-pyramid")
    reference = data / "templates" / "pyramid-scheme" / "reference.xml.j2"
    reference.write_text(reference.read_text(encoding="utf-8").replace("{{ game.title }}: player aid",
                                                                       "{{ game.titel }}: player aid"))
    card = data / "templates" / "drinking-pyramid" / "card.svg.j2"
    lines = card.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if "card.name" in line)
    lines[at] = lines[at].replace("card.name", "card.nmae", 1)
    card.write_text("\n".join(lines) + "\n", encoding="utf-8")
    ref_line = next(n for n, line in enumerate(reference.read_text().splitlines(), 1) if "game.titel" in line)
    for games in ([], ["pyramid-scheme"]):  # every game, one per worker; one game, its reference in a worker
        done = pnp("build", *games, "--data", data, "--out", tmp_path / "out")
        assert done.returncode == 1, done.stderr
        assert "Traceback" not in done.stderr and "Traceback" not in done.stdout
        errors = [line for line in done.stderr.splitlines() if line.startswith("error ")]
        expected = [f"error templates/pyramid-scheme/reference.xml.j2:{ref_line}: game has no attribute 'titel'; "
                    "did you mean 'title'?"]
        if not games:
            expected.insert(0, f"error templates/drinking-pyramid/card.svg.j2:{at + 1}: card has no column 'nmae'; "
                            "did you mean 'name'? (cards 'AH', 'JH', 'QH' and 13 more)")
        assert errors == expected, done.stderr
        assert not (tmp_path / "out" / "pyramid-scheme").exists()


def test_an_unknown_reference_element_names_its_line(tmp_path):
    data = copy_game(tmp_path / "data")
    reference = data / "templates" / "pyramid-scheme" / "reference.xml.j2"
    lines = reference.read_text(encoding="utf-8").splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("<h2>"))
    lines.insert(at, "<para>Hello</para>")
    reference.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = pnp("build", "--data", data, "--out", tmp_path / "out")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert (f"error templates/pyramid-scheme/reference.xml.j2:{at + 1}: unknown element <para>; known: h1, h2, h3, p, "
            "small, caption, ul, ol, table, figure, card, row, keep, spacer, pagebreak, inventory") \
        in done.stderr.splitlines()


# ------------------------------------------------------------------ no worker outlives its parent
def _descendants(pid: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in found:
                found.add(child)
                todo.append(child)
    return found


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has ended; only its parent's bookkeeping is left


def _kill_when_workers_run(process: subprocess.Popen, least: int = 1) -> set[int]:
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while time.monotonic() < deadline and process.poll() is None:
        workers = _descendants(process.pid)
        if len(workers) >= least:
            break
        time.sleep(0.01)
    assert process.poll() is None and len(workers) >= least, "the process ended before its workers were seen"
    time.sleep(0.3)  # the workers at work
    workers |= _descendants(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    return workers


def _all_end(workers: set[int], within: float = 10.0) -> set[int]:
    """The workers still running after ``within`` seconds (killed then, so that a failing test leaves none)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and any(_running(p) for p in workers):
        time.sleep(0.05)
    left = {p for p in workers if _running(p)}
    for p in left:
        try:
            os.kill(p, signal.SIGKILL)
        except OSError:
            pass
    return left


@linux_only
def test_workers_end_when_their_parent_is_killed():
    script = textwrap.dedent("""
        import time
        from model.workers import process_pool
        pool = process_pool(2)
        futures = [pool.submit(time.sleep, 600) for _ in range(2)]
        time.sleep(600)
    """)
    process = subprocess.Popen([sys.executable, "-c", script], cwd=REPO)
    workers = _kill_when_workers_run(process, least=2)
    assert not _all_end(workers)


@linux_only
def test_kill_9_of_a_build_leaves_no_process(tmp_path):
    sys.path.insert(0, str(REPO / "bench"))
    from build import thousand_card_deck

    data = thousand_card_deck(tmp_path / "deck", 1500)
    with (data / "cards.csv").open("a", encoding="utf-8") as fh:  # a second game: one game per worker process
        fh.write("".join(f"tiny-tombs,curse,c{i},Curse {i},1,,,Pass it on.\n" for i in range(300)))
    process = subprocess.Popen([sys.executable, "-c", "from pnp.cli import main; main()", "build", "--no-cache",
                                "--data", str(data), "--out", str(tmp_path / "out")], cwd=REPO,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = _kill_when_workers_run(process)
    assert workers
    assert not _all_end(workers), "worker processes outlived the killed build"
    assert not (tmp_path / "out" / "tiny-tombs" / "tiny-tombs-cards.pdf").exists()
