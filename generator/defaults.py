"""Defaults a command line reads without importing the rendering machinery
(Jinja2, reportlab, svglib): ``pnp --help`` stays quick."""

#: The targets a build makes unless told otherwise (names in ``generator.targets.TARGETS``), in this order.
DEFAULT_TARGETS: tuple[str, ...] = ("pdf-sheets", "reference")

#: Pictures (png, tts) are rendered at this resolution unless told otherwise; shops use their own.
DEFAULT_DPI = 300
