"""The ``pnp`` command line: the top layer, a thin shell over ``generator``,
``validator`` and the spreadsheet model in ``model``.  Nothing imports it."""

from model import __version__

__all__ = ["__version__"]
