"""Spreadsheets -> SVG -> reportlab PDFs.  Knows no game by name: every game is
a manifest, rows in the sheets and Jinja2 templates under templates/<slug>/.

Stages: ``designs`` renders each design once (``render``: Jinja2 -> SVG ->
drawing; ``keys``: the per-design keys; ``cache``: the drawing-store contract,
``diskcache``: the store on disk; ``displaylist``: drawings kept as canvas
calls); ``targets`` turn the rendered game into files (card sheets via
``layout`` and ``pdf``, the reference sheet via ``reference``); ``build`` runs
both and is the only writer.  Imports only ``model`` and third-party libraries.

Importing the package imports no third-party library, so that a command that
only needs option defaults (``pnp --help``) starts quickly.
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
