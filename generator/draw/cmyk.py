"""CMYK through an ICC profile: the print shop's, or the one pnp ships.

A ``Profile`` is a CMYK output profile (``load_profile``: a file the designer
names, or ``generator/icc/generic-cmyk-240-coated.icc``, freely redistributable,
derived from the CGATS TR 006 data set: its notice is ``generator/icc/README.md``).
Colours go through LittleCMS (Pillow's ImageCms) with relative colorimetric
intent and black-point compensation, the usual choice for artwork: sRGB to
the profile's CMYK (``to_cmyk``), the profile's CMYK to sRGB (``to_rgb``) and
the round trip, what a printed sRGB colour looks like (``printed``).

``max_ink`` is the largest total ink (C + M + Y + K, in %) the profile gives to
any sRGB colour: what a preflight holds a file to when nobody says otherwise.
``gamut`` measures how far a picture's colours move on the round trip: for
each colour covering a noticeable part of the picture, the CIEDE2000
difference (``coloraide``) between the colour and its printed self.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path

from model.errors import PnpError

#: The profile used when none is named (package data, with its notice in ``generator/icc/README.md``).
BUNDLED = "generic-cmyk-240-coated.icc"
#: A colour printed this far (CIEDE2000) from its sRGB self is reported as out of the profile's gamut;
#: in-gamut colours come back within about 2 (the profile's tables and 8-bit steps), a difference of 5
#: is plain to see side by side.
GAMUT_DELTA_E = 5.0
#: Colours covering less of a picture than this share are not judged (anti-aliased edges, specks).
GAMUT_MIN_SHARE = 0.001


class ProfileError(PnpError):
    """A profile file that cannot be used: missing, not ICC, or not a CMYK output profile."""

    exit_code = 2


@dataclass(frozen=True)
class Profile:
    data: bytes = field(repr=False)
    name: str  # the profile's description
    source: str  # the file as named, or "bundled"

    @property
    def digest(self) -> str:
        return hashlib.sha256(self.data).hexdigest()[:16]

    @property
    def bundled(self) -> bool:
        return self.source == "bundled"

    @property
    def max_ink(self) -> float:
        return _max_ink(self.data)

    def to_cmyk(self, pixels):
        """sRGB pixels (uint8, ... x 3) -> CMYK (uint8, ... x 4)."""
        return _apply(pixels, _transform(self.data, "RGB", "CMYK"), "RGB", 4)

    def to_rgb(self, pixels):
        """The profile's CMYK pixels (uint8, ... x 4) -> sRGB (uint8, ... x 3)."""
        return _apply(pixels, _transform(self.data, "CMYK", "RGB"), "CMYK", 3)

    def printed(self, pixels):
        """sRGB pixels as they print through the profile, in sRGB (the round trip)."""
        return self.to_rgb(self.to_cmyk(pixels))

    def gamut(self, pixels) -> "Gamut":
        return gamut(self, pixels)

    def black_only(self, grey: int) -> float:
        """The black ink alone (0-1) that prints the sRGB grey ``grey`` (0-255) as light as the
        profile prints it in all four inks: what neutral text is set in on the press."""
        return _black_only(self.data)[grey]


def bundled_path() -> Path:
    return Path(str(resources.files("generator") / "icc" / BUNDLED))


def load_profile(path: Path | str | None = None) -> Profile:
    """The CMYK output profile in ``path``, or the bundled one (ProfileError names what is wrong)."""
    if path is None:
        return _bundled()
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ProfileError(f"--profile {path}: cannot read it ({exc.strerror or exc})") from None
    return profile_of(data, str(path))


@lru_cache(maxsize=1)
def _bundled() -> Profile:
    return profile_of(bundled_path().read_bytes(), "bundled")


def profile_of(data: bytes, source: str) -> Profile:
    """A Profile of an ICC file's bytes; ProfileError unless it is a CMYK output profile LittleCMS reads."""
    import io

    from PIL import ImageCms

    try:
        opened = ImageCms.ImageCmsProfile(io.BytesIO(data))
    except (OSError, ValueError, TypeError):
        raise ProfileError(f"--profile {source}: not an ICC profile LittleCMS can read") from None
    space = opened.profile.xcolor_space.strip()
    if space != "CMYK":
        raise ProfileError(f"--profile {source}: a {space} profile; give the print shop's CMYK output profile")
    if opened.profile.device_class.strip() != "prtr":
        raise ProfileError(f"--profile {source}: a CMYK profile of class '{opened.profile.device_class.strip()}', "
                           "not an output (printer) profile")
    name = (opened.profile.profile_description or Path(source).stem).strip()
    try:
        _transform(data, "RGB", "CMYK")
    except ImageCms.PyCMSError as exc:
        raise ProfileError(f"--profile {source}: LittleCMS cannot convert to it ({exc})") from None
    return Profile(data, name, source)


@lru_cache(maxsize=8)
def _transform(data: bytes, mode_in: str, mode_out: str):
    import io

    from PIL import ImageCms

    cmyk = ImageCms.ImageCmsProfile(io.BytesIO(data))
    srgb = ImageCms.createProfile("sRGB")
    src, dst = (srgb, cmyk) if mode_in == "RGB" else (cmyk, srgb)
    return ImageCms.buildTransform(src, dst, mode_in, mode_out, renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC,
                                   flags=ImageCms.Flags.BLACKPOINTCOMPENSATION)


def _apply(pixels, transform, mode: str, channels: int):
    import numpy as np
    from PIL import Image, ImageCms

    pixels = np.asarray(pixels, dtype=np.uint8)
    shape = pixels.shape[:-1]
    flat = np.ascontiguousarray(pixels.reshape(1, -1, pixels.shape[-1]))
    if flat.shape[1] == 0:
        return np.zeros((*shape, channels), np.uint8)
    image = Image.frombuffer(mode, (flat.shape[1], 1), flat.tobytes(), "raw", mode, 0, 1)
    out = np.asarray(ImageCms.applyTransform(image, transform))
    return out.reshape(*shape, channels)


@lru_cache(maxsize=8)
def _max_ink(data: bytes) -> float:
    import numpy as np

    steps = np.arange(0, 256, 5, dtype=np.uint8)
    grid = np.stack(np.meshgrid(steps, steps, steps), -1).reshape(-1, 3)
    cmyk = Profile(data, "", "").to_cmyk(grid).astype(int)
    return float(cmyk.sum(-1).max()) * 100 / 255


@lru_cache(maxsize=8)
def _black_only(data: bytes) -> tuple[float, ...]:
    """For every sRGB grey 0-255: the K-only tint whose printed lightness (CIE L*) is nearest the
    grey's own print in all four inks; pure black is 100 % K, white no ink."""
    import numpy as np
    from coloraide import Color

    profile = Profile(data, "", "")
    greys = np.repeat(np.arange(256, dtype=np.uint8)[:, None], 3, axis=1)
    ramp = np.zeros((256, 4), np.uint8)
    ramp[:, 3] = np.arange(256)

    def lightness(rows) -> np.ndarray:
        return np.array([Color("srgb", [v / 255 for v in row]).convert("lab-d65")["lightness"] for row in rows])

    wanted, black = lightness(profile.printed(greys)), lightness(profile.to_rgb(ramp))
    tints = [int(np.argmin(np.abs(black - w))) for w in wanted]
    tints[0], tints[255] = 255, 0
    return tuple(round(t / 255, 4) for t in tints)


def ink_limit(profile: Profile) -> int:
    """The profile's total ink limit in whole per cent (its largest total ink, rounded up)."""
    return math.ceil(profile.max_ink - 1e-9)


# ---------------------------------------------------------------- gamut
@dataclass(frozen=True)
class Shift:
    """One colour of a picture and what printing makes of it."""

    rgb: tuple[int, int, int]
    printed: tuple[int, int, int]
    delta_e: float  # CIEDE2000
    share: float  # of the picture's area

    @staticmethod
    def hex(rgb) -> str:
        return "#" + "".join(f"{v:02x}" for v in rgb)


@dataclass(frozen=True)
class Gamut:
    """How a picture's colours fare through a profile: its colours (covering at least
    ``GAMUT_MIN_SHARE``), those that move most first."""

    shifts: tuple[Shift, ...]

    @property
    def worst(self) -> Shift | None:
        return self.shifts[0] if self.shifts else None

    @property
    def delta_e(self) -> float:
        """The largest difference of any colour judged (0 for a blank picture)."""
        return self.shifts[0].delta_e if self.shifts else 0.0

    @property
    def outside(self) -> float:
        """The share of the picture in colours that print more than ``GAMUT_DELTA_E`` away."""
        return sum(s.share for s in self.shifts if s.delta_e > GAMUT_DELTA_E)

    @property
    def out_of_gamut(self) -> bool:
        return self.delta_e > GAMUT_DELTA_E


def gamut(profile: Profile, pixels, min_share: float = GAMUT_MIN_SHARE) -> Gamut:
    """The colours of sRGB ``pixels`` (uint8, H x W x 3) covering at least ``min_share`` of them,
    each with its printed colour and their CIEDE2000 difference."""
    import numpy as np

    flat = np.asarray(pixels, dtype=np.uint8).reshape(-1, 3)
    if not len(flat):
        return Gamut(())
    packed = (flat[:, 0].astype(np.uint32) << 16) | (flat[:, 1].astype(np.uint32) << 8) | flat[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    keep = counts >= max(1, min_share * len(flat))
    values, counts = values[keep], counts[keep]
    rgb = np.stack([(values >> 16) & 255, (values >> 8) & 255, values & 255], -1).astype(np.uint8)
    printed = profile.printed(rgb)
    shifts = [Shift(tuple(int(v) for v in a), tuple(int(v) for v in b), _delta_e(tuple(a.tolist()), tuple(b.tolist())),
                    float(n) / len(flat)) for a, b, n in zip(rgb, printed, counts)]
    shifts.sort(key=lambda s: (-s.delta_e, -s.share, s.rgb))
    return Gamut(tuple(shifts))


@lru_cache(maxsize=65536)
def _delta_e(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    if a == b:
        return 0.0
    from coloraide import Color

    return float(Color("srgb", [v / 255 for v in a]).delta_e(Color("srgb", [v / 255 for v in b]), method="2000"))
