"""Pyramid print-and-play toolchain: the shared spreadsheet model and the command line."""

__version__ = "0.1.0"
