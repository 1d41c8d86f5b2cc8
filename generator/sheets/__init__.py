"""Sheets of paper: page sizes and the layout of components on them (``layout``), nets that fold
into boxes (``nets``), the PDF writer of card sheets (``pdf``) and the duplex calibration sheet
(``calibrate``).  Imports ``draw`` and ``art``."""
