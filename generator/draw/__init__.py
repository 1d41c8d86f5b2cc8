"""Drawing: SVG text read into display lists (the canvas calls that draw it), text set to fit
its box, and display lists and picture files drawn into PDF canvases; the colours of what is drawn
taken through a CMYK profile (``cmyk``) and a finished PDF's colours converted (``recolour``).
Imports ``art`` only."""
