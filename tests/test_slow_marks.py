"""The names of slow tests in tests/slow.py still name tests: a renamed test would
otherwise drop out of the slow ones unseen, and slow down the quick subset."""

from __future__ import annotations

import re
from pathlib import Path

from slow import SLOW_MODULES, SLOW_TESTS

TESTS = Path(__file__).parent


def test_every_slow_module_and_test_exists():
    for module in SLOW_MODULES:
        assert (TESTS / module).is_file(), f"SLOW_MODULES names {module}, which is not there"
    for module, names in SLOW_TESTS.items():
        text = (TESTS / module).read_text(encoding="utf-8")
        for name in names:
            assert re.search(rf"^def {name}\(", text, re.M), f"SLOW_TESTS names {module}::{name}, which is not there"


def test_the_readme_offers_the_quick_subset_by_a_registered_marker():
    import tomllib

    root = TESTS.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    assert 'pytest -m "not slow"' in readme
    assert "several minutes on two cores" in readme and "one virtual environment, `.venv`" in readme
    markers = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert any(m.startswith("slow:") for m in markers["markers"])
