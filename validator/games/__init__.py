"""One package per game's rules engine, each with the same skeleton (see
docs/validator.md, "Adding an engine"):

* ``__init__``: ``SPEC``, the engine's :class:`validator.kit.GameSpec`
* ``spec``: constants, action encoding and the rules options
* ``game``: the compiled ``Game`` (from the shared spreadsheet model)
* ``state``: the ``State`` - rules only
* ``heuristics``: the greedy scores and the search evaluation, from observations
* ``checks``: static deck checks
* ``stats`` and ``report``: the engine's statistics, report sections and verdicts

Which package serves which slug is listed in ``validator.kit.registry.ENGINES``.
"""
