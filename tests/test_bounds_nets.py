"""The geometry of ``nets`` runs in Python, between the template's own checks of its time: each
of its calls is bounded by its arguments (docs/security.md).  A count, a step or a list of
faces past its bound is one line at the template's line, exit 1, within seconds; never minutes
of work (``tightest(0.0000001)`` tried 1.8 billion turns, ``row(100000000, ...)`` made a
hundred million points, ``fold_cross`` of 300 faces took minutes)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from generator.sheets import nets

from helpers import run_bounded

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "docs" / "example"
RELIC = "templates/tiny-tombs/relic.svg.j2"
NET = "{% set n = nets.fan_net(nets.pyramid(25, 44)) %}"


def check(tmp_path: Path, body: str, timeout: float = 30) -> tuple[int, list[str], float]:
    """``pnp check`` of a copy of the example game with ``body`` in its relic template's body:
    (exit code, its error and warning lines, seconds)."""
    data = tmp_path / "data"
    shutil.copytree(EXAMPLE, data, ignore=shutil.ignore_patterns("output", "rules"))
    (data / RELIC).write_text('{% extends "pnp/card.svg.j2" %}\n{% block body %}\n' + body + "\n{% endblock %}\n",
                              encoding="utf-8")
    code, lines, _, seconds = run_bounded(data, "check", timeout=timeout)
    return code, lines, seconds


pytestmark = pytest.mark.slow  # each runs pnp check in a process of its own


@pytest.mark.parametrize("body, said", [
    (NET + "{{ n.tightest(0.0000001).width }}", "tightest(): step is 1e-07; it must be a number of degrees between "
                                                "0.1 and 180"),
    (NET + "{{ n.tightest(-1).width }}", "tightest(): step is -1"),
    (NET + "{{ n.faces[0].row(100000000, 1, 0.001)|length }}", "row(): n is 100,000,000; it must be from 0 to "
                                                               "100,000 points"),
    ("{{ nets.fold_cross([(0,0),(1,0),(1,1),(0,1)], [((0,0),(1,0),(0.5,-1))] * 300) }}",
     "fold_cross(): more than 16 faces; it folds at most 16 faces"),
    ("{{ nets.fold_fan((0, 0), [(1, 0), (0, 1)] * 5000) }}", "fold_fan(): more than 17 corners"),
], ids=["tightest-tiny-step", "tightest-negative-step", "row-of-a-hundred-million", "fold-cross-300",
        "fold-fan-10000"])
def test_a_call_of_nets_past_its_bound_is_one_line_at_the_template(tmp_path, body, said):
    code, lines, seconds = check(tmp_path, body)
    assert code == 1
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"error {RELIC}:3: ") and said in lines[0], lines
    assert seconds < 30


def test_the_bounds_leave_a_real_net_alone():
    """What a template draws a net with still works: the default step, a few pips, a fold."""
    n = nets.fan_net(nets.pyramid(25, 44), base=True)
    assert n.tightest().width == pytest.approx(n.tightest(0.5).width)
    finest, coarse = n.tightest(nets.LEAST_STEP), n.tightest(1)
    assert nets.LEAST_STEP == 0.1 and finest.width * finest.height <= coarse.width * coarse.height + 1e-3
    assert len(n.faces[0].row(3, 5.0, 5.3)) == 3 and len(n.faces[0].row(3.0, 5.0, 5.3)) == 3
    assert n.faces[0].row(0, 5.0, 5.3) == []
    assert n.fold().closure < 1e-6
    assert nets.cross_net(nets.pyramid(30, 20)).fold().closure < 1e-6
    with pytest.raises(ValueError, match="whole number"):
        n.faces[0].row(2.5, 1, 1)
    with pytest.raises(ValueError, match="between 0.1 and 180"):
        n.tightest(float("nan"))
