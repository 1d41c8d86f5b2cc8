"""The ``pnp`` command: a thin shell over the library.

Each command is one module in ``pnp/commands/``; it parses options, calls the
library, and prints.  Every user mistake ends as one clear line per problem and
a non-zero exit (1: the data, 2: the command line); tracebacks are for bugs only,
and come with a line saying so (exit 3).
"""

from __future__ import annotations

import gc
import importlib

import click

from model import __version__
from model.errors import PnpError

from .commands import COMMANDS
from .console import bug, fail, interrupted


class PnpGroup(click.Group):
    """The commands of ``COMMANDS``, each imported when it is first asked for."""

    def list_commands(self, ctx):
        return list(COMMANDS) + [n for n in super().list_commands(ctx) if n not in COMMANDS]

    def get_command(self, ctx, name):
        if name not in self.commands and name in COMMANDS:
            module = importlib.import_module(f"{__package__}.commands.{COMMANDS[name]}")
            self.add_command(getattr(module, name))
        return super().get_command(ctx, name)

    def all_commands(self) -> dict:
        """Every command, by name (each module imported)."""
        return {name: self.get_command(None, name) for name in self.list_commands(None)}

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except PnpError as exc:
            fail(exc)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except KeyboardInterrupt:
            interrupted()
        except Exception as exc:  # noqa: BLE001 - anything else is a bug in pnp: say so, and where to report it
            bug(exc)


@click.group(cls=PnpGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pnp")
def main():
    """Print-and-play toolchain: spreadsheets to print-ready PDFs, plus a rules validator.

    Run it in the folder that holds cards.csv, goals.csv and templates/.
    """


def run() -> None:
    """The ``pnp`` program: :func:`main`, then a quick exit.  Everything a command makes is written and closed
    by the time it returns, so the objects of the run are set aside (``gc.freeze``) rather than swept one by
    one as the interpreter ends (a quarter of a second after a validation run)."""
    try:
        main()
    finally:
        gc.freeze()


if __name__ == "__main__":
    run()
