"""Spreadsheets -> SVG -> reportlab PDFs.  Knows no game by name: every game is
a manifest, rows in the sheets and Jinja2 templates under templates/<slug>/."""
