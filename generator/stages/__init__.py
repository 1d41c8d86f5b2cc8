"""The stages a build runs: every design rendered once (``designs``: templates -> SVG -> display
lists, with ``render``), keyed (``keys``) and kept in a store (``cache``: the contract), the
reference sheet (``reference``) and pictures of single components (``raster``).  Imports
``sheets``, ``draw`` and ``art``."""
