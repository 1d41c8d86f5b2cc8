"""One rules module per bundled game, each with the same skeleton:

1. constants (actions, phases, vocabulary),
2. a declarative spec (players, rules options with defaults and readings),
3. the ``Game``: compiled from the shared spreadsheet model, picklable,
4. the ``State``: ``current_player``, ``legal_actions``, ``apply_action``,
   ``is_terminal``, ``returns``, ``clone``, ``determinize``, ``record``,
   ``check_invariants``, plus a greedy heuristic and a position evaluation,
5. static deck checks,
6. registration on import (``validator.core.register``).

Which module serves which slug is listed in ``validator.core.MODULES``.
"""
