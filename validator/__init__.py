"""The rules validator: rules engines (``validator.games``), bots, a runner that
plays seeded games on local processes or a Dask cluster, streaming metrics, and
the deck-validation report.  ``validator.validate.validate_game`` is the library
entry point behind ``pnp validate``; docs/validator.md describes it."""
