"""The ``pnp`` command: a thin shell over the library.

Each command is one module in ``pnp/commands/``; it parses options, calls the
library, and prints.  Every user mistake ends as one clear line per problem and
a non-zero exit (1: the data, 2: the command line); tracebacks are for bugs only.
"""

from __future__ import annotations

import click

from model import __version__
from model.errors import PnpError

from .commands import COMMANDS
from .console import fail


class PnpGroup(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PnpError as exc:
            fail(exc)


@click.group(cls=PnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
def main():
    """Print-and-play toolchain: spreadsheets to print-ready PDFs, plus a rules validator.

    Run it in the folder that holds cards.csv, goals.csv and templates/.
    """


for _command in COMMANDS:
    main.add_command(_command)


if __name__ == "__main__":
    main()
