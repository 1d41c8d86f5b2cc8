"""The rules validator: the engine kit (``validator.kit``: protocol, record,
zones, spec, registry, conformance checks), one rules engine per game
(``validator.games``), and the generic part that knows no game - bots, a runner
that plays seeded games on local processes or a Dask cluster, streaming metrics,
verdicts and the deck-validation report.  ``validator.validate.validate_game`` is
the library entry point behind ``pnp validate``, ``validator.checks.deck_checks``
behind ``pnp check``; docs/validator.md describes them."""
