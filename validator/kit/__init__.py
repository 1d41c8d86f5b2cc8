"""The engine kit: what every rules engine is built from and checked against.

* :mod:`.protocol` - ``Game``, ``State``, ``View``; ``TERMINAL``, ``SIMULTANEOUS``
* :mod:`.chance` - the runner-owned generator rules draw from
* :mod:`.record` - ``GameRecord``, the generic result of one game
* :mod:`.zones` - the conservation check ``--strict`` applies to every game
* :mod:`.spec` - ``GameSpec``, ``Param``, ``Heuristic``, ``ReportSection``
* :mod:`.registry` - slug -> engine package; ``get_spec``, ``rules_hash``
"""

from .chance import Chance, shuffle
from .protocol import SIMULTANEOUS, TERMINAL, Bot, Game, State, View
from .record import GameRecord
from .registry import ENGINES, engines, get_spec, has_rules, rules_hash
from .spec import GameSpec, Heuristic, Param, ReportSection, StatsExtension
from .zones import check_conservation

__all__ = ["Chance", "shuffle", "SIMULTANEOUS", "TERMINAL", "Bot", "Game", "State", "View", "GameRecord", "ENGINES",
           "engines", "get_spec", "has_rules", "rules_hash", "GameSpec", "Heuristic", "Param", "ReportSection",
           "StatsExtension", "check_conservation"]
