"""Geometry of fold-up components (nets), exposed to templates as ``nets``."""
