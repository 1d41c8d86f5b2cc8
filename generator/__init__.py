"""Spreadsheets -> SVG -> reportlab PDFs.  Knows no game by name: every game is
a manifest, rows in the sheets and Jinja2 templates under templates/<slug>/.

Stages: ``designs`` renders each design once (``render``: Jinja2 -> SVG ->
drawing; ``keys``: the per-design key; ``cache``: the drawing-store contract);
``targets`` turn the rendered game into files (card sheets via ``layout`` and
``pdf``, the reference sheet via ``reference``); ``build`` runs both and is the
only writer.  Imports only ``model`` and third-party libraries."""

from reportlab import rl_config as _rl_config

# Our drawings come from svglib and our own code, never from user Python:
# skip reportlab's per-attribute validation (set before reportlab.graphics is
# imported), and write plain compressed streams rather than ASCII85 ones.
_rl_config.shapeChecking = 0
_rl_config.useA85 = 0
