"""The validator's layers: engines build on the kit and the model only, and the
generic modules (runner, metrics, verdicts, report, thresholds, bots) know no
game - everything game-specific comes from an engine's GameSpec."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from validator.kit import ENGINES

ROOT = Path(__file__).resolve().parents[2] / "validator"
ALLOWED = ("model", "validator.kit", "numpy", "matplotlib")
GENERIC = ("runner.py", "metrics.py", "validate.py", "report.py", "thresholds.py", "bots.py", "checks.py")
# words of Pyramid Scheme's rules that a generic module has no business knowing
GAME_WORDS = ("victim", "founder", "smart", "police", "goal", "reward", "reset", "pyramid_scheme", "deck-tie",
              '"deck"', "placed", "flipped")


def _imports(path: Path, package: str):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside the engine's own package
                continue
            yield node.module


@pytest.mark.parametrize("slug", sorted(ENGINES))
def test_engines_import_only_the_kit_the_model_and_the_standard_library(slug):
    package = ENGINES[slug]
    folder = ROOT.parent / Path(*package.split("."))
    files = sorted(folder.rglob("*.py")) if folder.is_dir() else [folder.with_suffix(".py")]
    assert files, f"no source for {package}"
    for path in files:
        for name in _imports(path, package):
            top = name.split(".")[0]
            ok = (top in sys.stdlib_module_names or name.startswith(package)
                  or any(name == a or name.startswith(a + ".") for a in ALLOWED))
            assert ok, f"{path.relative_to(ROOT.parent)} imports {name}: an engine may import only model.*, " \
                       "validator.kit.*, the standard library and numpy"


@pytest.mark.parametrize("name", GENERIC)
def test_generic_modules_know_no_game(name):
    text = (ROOT / name).read_text(encoding="utf-8").lower()
    found = [w for w in GAME_WORDS if w in text]
    assert not found, f"validator/{name} mentions {found}: game-specific knowledge belongs in an engine's spec"
