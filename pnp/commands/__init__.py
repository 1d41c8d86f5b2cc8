"""One module per command; ``COMMANDS`` lists them in the order ``pnp --help`` shows."""

from .build import build
from .check import check
from .clean import clean
from .export import export
from .preview import preview
from .validate import validate
from .watch import watch

COMMANDS = [check, build, validate, export, watch, preview, clean]
