"""The direct SVG reader gives exactly what svglib gives: every bundled game's
card sheets are byte-identical with and without it."""

from __future__ import annotations

import pytest

import generator.draw.svgfast as svgfast
from generator.build import BuildOptions, build_game
from model.sheets import load_project

GAMES = ["pyramid-scheme", "golden-pyramid", "pyramid-shambo", "pyrrameds", "drinking-pyramid"]


@pytest.mark.parametrize("slug", GAMES)
def test_cards_pdf_is_the_same_with_svglib_alone(project_root, tmp_path, monkeypatch, slug):
    game = load_project(project_root, [slug]).games[slug]
    read, real = [], svgfast.to_display_list

    def spy(svg):
        found = real(svg)
        read.append(found is not None)
        return found

    monkeypatch.setattr(svgfast, "to_display_list", spy)
    fast = build_game(game, BuildOptions(out=tmp_path / "fast"), reference=False, write=False)
    assert sum(read) > len(read) / 2  # the direct reader took most designs
    monkeypatch.setattr(svgfast, "to_display_list", lambda svg: None)
    slow = build_game(game, BuildOptions(out=tmp_path / "slow"), reference=False, write=False)
    name = f"{slug}-cards.pdf"
    a = next(v for k, v in fast.data.items() if k.name == name)
    b = next(v for k, v in slow.data.items() if k.name == name)
    assert a == b
