"""The engine kit: what every rules engine is built from and checked against.

The names in ``__all__`` below, and those of :mod:`.stats`, :mod:`.html` and
:mod:`.conformance`, are the kit's public interface: an engine outside pnp
(``templates/<slug>/rules/`` of a data folder, or an installed distribution)
may rely on them, and they stay as they are.  Everything else in the kit is
pnp's own.  docs/validator.md lists them.

* :mod:`.protocol` - ``Game``, ``State``, ``View``, ``Bot``; ``TERMINAL``, ``SIMULTANEOUS``
* :mod:`.chance` - ``Chance``, the runner-owned generator rules draw from
* :mod:`.record` - ``GameRecord``, the generic result of one game
* :mod:`.zones` - the conservation check ``--strict`` applies to every game
* :mod:`.checks` - ``sheet_checks``: the static checks every game's deck gets
* :mod:`.guard` - ``TurnGuard``: the turn cap and loop check every game loop asks each turn
* :mod:`.spec` - ``GameSpec``, ``Param``, ``Heuristic``, ``ReportSection``, ``Verdict``, ``Study``
* :mod:`.registry` - slug -> engine, installed or in a data folder; ``get_spec``, ``rules_hash``
* :mod:`.folder` - rules read from ``templates/<slug>/rules/`` and shipped to workers
* :mod:`.stats` - intervals and histogram summaries for stats extensions
* :mod:`.html` - escaped text, tables and inline SVG plots for report sections
* :mod:`.conformance` - the checks every engine must pass (``pnp validate SLUG --conformance``)
"""

from model.errors import IllegalAction, Problem, RulesError

from .chance import Chance, copy_generator, derive_seed, shuffle
from .checks import sheet_checks
from .guard import TurnGuard
from .protocol import SIMULTANEOUS, TERMINAL, Bot, Game, State, View
from .record import GameRecord
from .registry import ENGINES, engines, get_spec, has_rules, rules_hash
from .spec import Figure, GameSpec, Heuristic, Param, ReportSection, StatsExtension, Study, Verdict
from .zones import check_conservation

__all__ = [
    # the protocol
    "Game", "State", "View", "Bot", "TERMINAL", "SIMULTANEOUS",
    # chance
    "Chance", "shuffle", "copy_generator", "derive_seed",
    # what an engine declares and returns
    "GameSpec", "Param", "Figure", "Heuristic", "ReportSection", "StatsExtension", "Study", "Verdict", "GameRecord",
    # checks and loops
    "check_conservation", "sheet_checks", "TurnGuard",
    # the errors an engine raises or returns
    "Problem", "RulesError", "IllegalAction",
    # the registry
    "get_spec", "has_rules", "engines", "ENGINES", "rules_hash",
]
