"""The engine kit's public names: what docs/validator.md lists is exactly each module's
``__all__``, and every name there exists - so a name outside engines rely on cannot
disappear or appear without the page saying so."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parents[2] / "docs" / "validator.md"
MODULES = ("validator.kit", "validator.kit.stats", "validator.kit.html", "validator.kit.conformance")


def documented() -> dict[str, list[str]]:
    """module -> names, from the page's list items ``- `module`: `name`, `name` ...``."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## The engine kit's public names", 1)[1].split("\n## ", 1)[0]
    items = re.findall(r"^- `(validator\.kit[\w.]*)`: (.*?)(?=^- |\n\n)", section, re.M | re.S)
    return {module: re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)`", names) for module, names in items}


def test_the_page_lists_each_public_module():
    assert sorted(documented()) == sorted(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_the_documented_names_are_the_modules_public_names(name):
    module = importlib.import_module(name)
    assert sorted(documented()[name]) == sorted(module.__all__)
    assert [n for n in module.__all__ if not hasattr(module, n)] == []
