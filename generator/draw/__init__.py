"""Drawing: SVG text read into display lists (the canvas calls that draw it), text set to fit
its box, and display lists and picture files drawn into PDF canvases.  Imports ``art`` only."""
