"""``pnp export --to png`` and print-shop presets: pixel sizes, the same colours as the PDF,
manifests, and clear refusals that write nothing."""

import csv
import io
from dataclasses import replace
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image

from generator.build import BuildOptions, build_game
from generator.stages.designs import RenderOptions, render_game
from generator.export import ExportOptions, ExportUsageError, check_options
from generator.targets.shops import PresetError, known_presets, load_preset, match_size, parse_preset
from generator.targets import EXPORTS, TARGETS
from model.sheets import load_project
from pnp.cli import main

from helpers import copy_game, design_point, placed

SLUG = "pyramid-scheme"


@pytest.fixture(scope="module")
def rendered(project_root):
    game = load_project(project_root, [SLUG]).games[SLUG]
    return render_game(game, RenderOptions())


def subset(rendered, ids):
    """The rendered game with only some designs (fewer pictures to make)."""
    return replace(rendered, designs=[d for d in rendered.designs if d.card.id in ids])


def pictures(output, folder):
    return {p.name: Image.open(io.BytesIO(data)) for p, data in output.files.items()
            if p.parent == Path(folder) and p.suffix == ".png"}


def manifest_rows(output, folder):
    return list(csv.DictReader(io.StringIO(output.files[Path(folder) / "manifest.csv"].decode())))


def test_png_pixel_sizes_with_bleed_and_trimmed(rendered):
    game = subset(rendered, {"g01", "t-reset", "aid"})
    target = TARGETS["png-cards"]
    for dpi, trim, poker, token in ((300, False, (821, 1121), (347, 347)), (300, True, (750, 1050), (300, 300)),
                                    (150, False, (410, 560), (174, 174))):
        opts = replace(target.configure(BuildOptions(settings={"png-cards": {"dpi": dpi, "trim": trim}})))
        out = target.make(game, opts)
        pics = pictures(out, "png")
        assert pics[f"{SLUG}-victim-g01-front.png"].size == poker  # 69.5 x 94.9 mm (or 63.5 x 88.9) at dpi
        assert pics[f"{SLUG}-victim-g01-back.png"].size == poker
        assert pics[f"{SLUG}-token-t-reset-front.png"].size == token  # 29.4 (25.4) mm, no back
        assert f"{SLUG}-token-t-reset-back.png" not in pics
        rows = manifest_rows(out, "png")
        assert {"file": f"{SLUG}-aid-aid-front.png", "component": "Player aid", "copies": "4", "deck": "aid",
                "id": "aid", "side": "front"}.items() <= rows[-2].items()
        assert out.owns == [Path("png")]


def test_a_png_has_the_pdf_colour_at_the_same_spot(rendered, tmp_path, project_root):
    game = load_project(project_root, [SLUG]).games[SLUG]
    pdf = build_game(game, BuildOptions(out=tmp_path), reference=False).files[0]
    dpi = 150
    out = TARGETS["png-cards"].make(subset(rendered, {"g01", "g02"}),
                                    TARGETS["png-cards"].configure(BuildOptions(settings={"png-cards": {"dpi": dpi}})))
    png = np.asarray(pictures(out, "png")[f"{SLUG}-victim-g01-front.png"].convert("RGB")).astype(int)
    page = np.asarray(pdfium.PdfDocument(str(pdf))[0].render(scale=dpi / 72).to_pil().convert("RGB")).astype(int)
    index, slot = placed(game, "g01")  # on the first page, turned a quarter
    assert index == 0
    compared = 0
    for x_mm in np.arange(4, 66, 4.5):
        for y_mm in np.arange(4, 92, 4.5):
            a = png[round(y_mm / 25.4 * dpi), round(x_mm / 25.4 * dpi)]
            px, py = design_point(slot, 297, x_mm - 3, y_mm - 3)  # from the bleed box's corner to the trim's
            b = page[round(py / 25.4 * dpi), round(px / 25.4 * dpi)]
            # where the neighbourhood is flat (no edge under the sample), the colours agree
            pa = png[round(y_mm / 25.4 * dpi) - 2:round(y_mm / 25.4 * dpi) + 3,
                     round(x_mm / 25.4 * dpi) - 2:round(x_mm / 25.4 * dpi) + 3]
            if np.ptp(pa, axis=(0, 1)).max() > 8:
                continue
            assert np.abs(a - b).max() <= 6, (x_mm, y_mm, a, b)
            compared += 1
    assert compared > 100


@pytest.mark.parametrize("shop,poker", [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_shop_pictures_have_the_shop_pixel_size_and_a_manifest(rendered, shop, poker):
    target = TARGETS[shop]
    out = target.make(subset(rendered, {"g01", "police", "t-reset", "aid"}), target.configure(BuildOptions()))
    pics = pictures(out, shop)
    assert {p.size for p in pics.values()} == {poker}
    assert set(pics) == {f"{SLUG}-victim-g01-front.png", f"{SLUG}-victim-g01-back.png",
                         f"{SLUG}-police-police-front.png", f"{SLUG}-police-police-back.png"}
    assert [(r["file"], r["component"], r["copies"]) for r in manifest_rows(out, shop)] == [
        (f"{SLUG}-victim-g01-front.png", "Penny Pincher", "1"), (f"{SLUG}-victim-g01-back.png", "Penny Pincher", "1"),
        (f"{SLUG}-police-police-front.png", "Police", "18"), (f"{SLUG}-police-police-back.png", "Police", "18")]
    name = load_preset(shop).name
    assert [str(p) for p in out.problems] == [
        f"templates/{SLUG}/game.toml:decks.token: Tokens (25.4 x 25.4 mm) fit no {name} size, left out; sizes: "
        + ", ".join(s.label.lower() for s in load_preset(shop).sizes),
        f"templates/{SLUG}/game.toml:decks.aid: Player aids (88.9 x 127 mm) fit no {name} size, left out; sizes: "
        + ", ".join(s.label.lower() for s in load_preset(shop).sizes)]
    assert all(not p.is_error for p in out.problems)


def test_the_game_crafter_poker_card_keeps_its_trim_in_the_middle(rendered):
    out = TARGETS["tgc"].make(subset(rendered, {"g01"}), TARGETS["tgc"].configure(BuildOptions()))
    image = np.asarray(pictures(out, "tgc")[f"{SLUG}-victim-g01-front.png"].convert("RGB")).astype(int)
    # 750 x 1050 trimmed inside 825 x 1125: 37.5 px of bleed a side; our 3 mm bleed is 35.4 px, the rest is
    # the outermost pixels repeated, so the edge columns equal their neighbours
    assert (image[:, 0] == image[:, 1]).all() and (image[0] == image[1]).all()
    # the card's green frame just inside the trim on the left, halfway down
    r, g, b = image[562, 37 + 8]
    assert abs(r - 0x2B) < 25 and abs(g - 0x93) < 25 and abs(b - 0x48) < 25


def test_mini_cards_fit_the_mini_size_of_the_shops_that_have_one(project_root):
    game = load_project(project_root, ["pyrrameds"]).games["pyrrameds"]
    rendered = render_game(game, RenderOptions())
    few = replace(rendered, designs=rendered.designs[:1])
    out = TARGETS["tgc"].make(few, TARGETS["tgc"].configure(BuildOptions()))
    assert {p.size for p in pictures(out, "tgc").values()} == {(600, 825)}
    assert match_size(load_preset("mpc"), 44, 63.5)[0].canvas == (597, 822)
    assert match_size(load_preset("dtc"), 44, 63.5) is None
    assert match_size(load_preset("tgc"), 88.9, 63.5)[1] is True  # a landscape poker card fits, turned


def test_a_deck_without_a_back_for_a_shop_that_needs_one_is_an_error_and_nothing_is_written(tmp_path):
    data = copy_game(tmp_path / "data")
    manifest = data / "templates" / SLUG / "game.toml"
    text = manifest.read_text(encoding="utf-8")
    start = text.index("[decks.police]")
    block_end = text.index("[decks.", start + 5)
    block = text[start:block_end]
    back_line = next(line for line in block.splitlines() if line.startswith("back"))
    manifest.write_text(text[:start] + block.replace(back_line + "\n", "") + text[block_end:], encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["export", SLUG, "--data", str(data), "--out", str(out), "--to", "tgc"])
    assert result.exit_code == 1, result.output
    assert (f"error templates/{SLUG}/game.toml:decks.police: Police fit The Game Crafter's Poker card (2.5 x 3.5 in)"
            " but have no back, and The Game Crafter prints both sides; add a back template (back = ...)"
            in result.output.splitlines())
    assert "1 error; nothing was written." in result.output
    assert not out.exists()


def test_the_export_command_writes_pictures_and_removes_stale_ones(tmp_path):
    data = copy_game(tmp_path / "data")
    out = tmp_path / "out"
    stale = out / SLUG / "png" / f"{SLUG}-victim-gone-front.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"old")
    keep = out / SLUG / f"{SLUG}-cards.pdf"
    keep.write_bytes(b"pdf")
    result = CliRunner().invoke(main, ["export", SLUG, "--data", str(data), "--out", str(out), "--to", "png",
                                       "--dpi", "40", "--trim"])
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in (out / SLUG / "png").iterdir())
    # a front per design; a back per distinct back: 64 victims', the police's, 4 founders', one for the 18 goals,
    # the aid's (the 4 token designs have none); the manifest
    assert len(files) == 92 + (64 + 1 + 4 + 1 + 1) + 1
    assert f"{SLUG}-goal-back.png" in files and not any(f.startswith(f"{SLUG}-goal-g-") and f.endswith("-back.png")
                                                         for f in files)
    assert not stale.exists() and keep.read_bytes() == b"pdf"
    assert f"wrote 164 files to {out / SLUG / 'png'}" in result.output
    rows = list(csv.DictReader((out / SLUG / "png" / "manifest.csv").open(encoding="utf-8")))
    goal = next(r for r in rows if r["file"] == f"{SLUG}-goal-back.png")
    assert goal["component"] == "Goals (back)" and goal["copies"] == "18" and len(goal["id"].split()) == 18


@pytest.mark.parametrize("args,message", [
    (["--to", "pdf"], "error unknown export 'pdf'; known: dtc, mpc, pdfx, png, tgc, tts"),
    (["--to", "png", "--dpi", "5000"], "error --dpi 5000 is out of range; give 36 to 1200"),
    (["--to", "png", "--dpi", "0"], "error --dpi 0 is out of range; give 36 to 1200"),
    (["--to", "mpc", "--dpi", "600"], "error --dpi does not apply to --to mpc; it applies to png, tts, pdfx, dtc"),
    (["--to", "tts", "--trim"], "error --trim does not apply to --to tts; it applies to png"),
    (["--to", "tts", "--base-url", "notaurl"], "error --base-url 'notaurl' is not an address Tabletop Simulator can "
     "load the sheets from; give an http:// or https:// address (e.g. https://example.org/my-game/), or leave it "
     "out for the export folder"),
])
def test_bad_requests_are_one_line_exit_2_and_write_nothing(tmp_path, args, message):
    data = copy_game(tmp_path / "data")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["export", SLUG, "--data", str(data), "--out", str(out), *args])
    assert result.exit_code == 2
    assert result.output.strip() == message
    assert not out.exists()


def test_an_output_folder_that_cannot_be_written_is_one_line_and_nothing_is_written(tmp_path):
    data = copy_game(tmp_path / "data")
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = CliRunner().invoke(main, ["export", SLUG, "--data", str(data), "--out", str(blocker / "out"),
                                       "--to", "png"])
    assert result.exit_code == 1
    # the one error (after the warning pnp check gives on these sheets)
    assert [line for line in result.output.splitlines() if not line.startswith("warning ")] == [
        f"error cannot write to {blocker / 'out' / SLUG}: {blocker} is a file, not a folder"]


def test_presets_are_checked_data_naming_their_sources():
    assert known_presets() == ["dtc", "mpc", "tgc"]
    assert set(EXPORTS) == {"png", "tts", "dtc", "mpc", "tgc", "pdfx"}
    for slug in known_presets():
        preset = load_preset(slug)
        assert preset.source and preset.dpi == 300 and preset.needs_back
        assert any(s.name == "poker" and s.confirmed for s in preset.sizes)
        assert all(s.confirmed or s.note for s in preset.sizes)
    tgc = load_preset("tgc")
    poker = next(s for s in tgc.sizes if s.name == "poker")
    assert (poker.canvas, poker.trim, poker.safe) == ((825, 1125), (750, 1050), (675, 975))
    bad = {"shop": {"name": "X", "dpi": 300, "source": "s", "colour": "cmyk"},
           "sizes": {"poker": {"label": "P", "canvas": [700, 1125], "trim": [750, 1050], "confirmed": False}}}
    with pytest.raises(PresetError) as exc:
        parse_preset("x", bad, "x.toml")
    assert str(exc.value) == ("x.toml:shop.colour: unknown key; known: dpi, name, needs_back, notes, source, "
                              "tolerance_mm; x.toml:sizes.poker.trim: the trim (750, 1050) is larger than the canvas "
                              "(700, 1125); x.toml:sizes.poker.note: an unconfirmed size needs a note saying why")
    with pytest.raises(ExportUsageError, match="unknown export 'shapeways'; known: dtc, mpc, pdfx, png, tgc, tts"):
        check_options(ExportOptions("shapeways"))
