"""The shared spreadsheet model: sheets, manifests, small languages, named errors
and the atomic writer.  The bottom layer: it imports no other package of the
project; ``generator``, ``validator`` and the ``pnp`` command line stand on it."""

__version__ = "0.1.0"
