"""The engine kit: what every rules engine is built from and checked against.

* :mod:`.protocol` - ``Game``, ``State``, ``View``; ``TERMINAL``, ``SIMULTANEOUS``
* :mod:`.chance` - the runner-owned generator rules draw from
* :mod:`.record` - ``GameRecord``, the generic result of one game
* :mod:`.zones` - the conservation check ``--strict`` applies to every game
* :mod:`.guard` - ``TurnGuard``: the turn cap and loop check every game loop asks each turn
* :mod:`.spec` - ``GameSpec``, ``Param``, ``Heuristic``, ``ReportSection``
* :mod:`.registry` - slug -> engine package; ``get_spec``, ``rules_hash``
* :mod:`.stats` - intervals and histogram summaries for stats extensions
* :mod:`.html` - escaped text, tables and inline SVG plots for report sections
* :mod:`.conformance` - the checks every engine must pass (tests/validator/test_conformance_all.py)
"""

from .chance import Chance, copy_generator, derive_seed, shuffle
from .guard import TurnGuard
from .protocol import SIMULTANEOUS, TERMINAL, Bot, Game, State, View
from .record import GameRecord
from .registry import ENGINES, engines, get_spec, has_rules, rules_hash
from .spec import Figure, GameSpec, Heuristic, Param, ReportSection, StatsExtension, Verdict
from .zones import check_conservation

__all__ = ["Chance", "copy_generator", "derive_seed", "shuffle", "SIMULTANEOUS", "TERMINAL", "Bot", "Game", "State",
           "View", "TurnGuard", "GameRecord", "ENGINES", "engines", "get_spec", "has_rules", "rules_hash", "GameSpec", "Heuristic",
           "Param", "ReportSection", "StatsExtension", "Verdict", "check_conservation", "Figure"]
