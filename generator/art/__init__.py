"""What a game brings, read and checked: its fonts (``fonts``), icons (``icons``, ``icon_sets``),
SVG files (``svgsafe``) and picture files (``pictures``).  Imports no other part of the generator."""
