"""The hidden card of a Tabletop Simulator sheet (its last cell, what TTS shows for the
cards in another player's hand) tells nothing about which card it stands for: the back
every card of the sheet shares, or a plain card where their backs differ (Pyramid
Scheme's victims each have their own smart-ass side)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from generator.build import BuildOptions
from generator.stages.designs import RenderOptions, render_game
from generator.targets import TARGETS
from model.sheets import load_project

from helpers import REPO


@pytest.fixture(scope="module")
def scheme():
    game = load_project(REPO, ["pyramid-scheme"]).games["pyramid-scheme"]
    rendered = render_game(game, RenderOptions())
    target = TARGETS["tts"]
    out = target.make(rendered, target.configure(BuildOptions(settings={"tts": {"dpi": 40}})))
    save = json.loads(out.files[Path("tts") / "pyramid-scheme.json"])
    images = {p.name: np.asarray(Image.open(io.BytesIO(d)).convert("RGB")).astype(int)
              for p, d in out.files.items() if p.suffix == ".png"}
    return save, images


def _cells(image, entry):
    cols, rows = entry["NumWidth"], entry["NumHeight"]
    h, w = image.shape[0] // rows, image.shape[1] // cols
    return [image[r * h:(r + 1) * h, c * w:(c + 1) * w] for r in range(rows) for c in range(cols)]


def test_the_hidden_card_is_the_shared_back_or_a_plain_card(scheme):
    save, images = scheme
    kinds = set()
    for deck in save["ObjectStates"]:
        if deck["Name"] != "DeckCustom":
            continue
        used = {card["CardID"] % 100 for card in deck["ContainedObjects"]}
        for entry in deck["CustomDeck"].values():
            faces = _cells(images[Path(entry["FaceURL"]).name], entry)
            hidden = faces[-1]
            back = images[Path(entry["BackURL"]).name]
            if not entry["UniqueBack"]:  # one back for the sheet: the hidden card is that back
                assert hidden.shape == back.shape and np.abs(hidden - back).mean() < 1, deck["Nickname"]
                kinds.add("shared")
                continue
            backs = _cells(back, entry)
            assert np.array_equal(backs[-1], hidden), f"{deck['Nickname']}: the backs sheet's hidden card differs"
            for slot in used:  # it is none of the cards' own backs ...
                difference = np.abs(backs[slot] - hidden).mean()
                assert difference > 20, f"{deck['Nickname']}: the hidden card shows the back of slot {slot}"
            # ... but a plain card: one colour inside its edge
            h, w = hidden.shape[:2]
            inner = hidden[h // 8:-h // 8, w // 8:-w // 8].reshape(-1, 3)
            assert (inner.max(axis=0) - inner.min(axis=0)).max() <= 2, f"{deck['Nickname']}: not a plain card"
            kinds.add("plain")
    assert kinds == {"shared", "plain"}  # the victims' own backs and the goals' shared one
