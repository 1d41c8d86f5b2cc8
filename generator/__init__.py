"""Spreadsheets -> SVG -> reportlab PDFs.  Knows no game by name: every game is
a manifest, rows in the sheets and Jinja2 templates under templates/<slug>/.

A pipeline in layers, each importing only those below it (docs/architecture.md;
the import-linter contracts of pyproject.toml hold it):

- ``build``, ``export``, ``uptodate``, ``diskcache``, ``scaffold``: the build and
  its caches, the only writers of files;
- ``targets/``: a rendered game turned into file contents (card sheets, reference
  sheet, proofs, pictures, Tabletop Simulator, print shops);
- ``options``: what a build is asked for (``BuildOptions``);
- ``stages/``: every design rendered once (templates -> SVG -> display lists),
  its keys and the store contract, the reference sheet, pictures of components;
- ``sheets/``: page geometry and layout, nets, the card-sheet PDF writer, the
  calibration sheet;
- ``draw/``: SVG read into display lists, text set to fit, display lists and
  picture files drawn on a PDF canvas;
- ``art/``: what a game brings, read and checked: picture files, SVG, fonts, icons;
- ``defaults``: what a command line reads without the rest.

Imports only ``model`` and third-party libraries.  Importing the package (or any
of its subpackages) imports no third-party library, so that a command that only
needs option defaults (``pnp --help``) starts quickly.
"""

import os as _os
import sys as _sys

# Our drawings come from svglib and our own code, never from user Python:
# skip reportlab's per-attribute validation (it must be off before
# reportlab.graphics is imported), and write plain compressed streams rather
# than ASCII85 ones.  Given to reportlab through its own RL_* environment
# settings, read when it is first imported, or set directly when it already is.
_RL_SETTINGS = {"shapeChecking": 0, "useA85": 0}
_rl_config = _sys.modules.get("reportlab.rl_config")
for _name, _value in _RL_SETTINGS.items():
    if _rl_config is not None:
        setattr(_rl_config, _name, _value)
    else:
        _os.environ[f"RL_{_name}"] = str(_value)
