"""Pictures of the table, for every game: SVG text (`State.picture(p)`) and pixels (`rasterize`).

Each game draws in its own module `virus_envs/<game>/picture.py`, which has

    full_table(state) -> dict       everything on the table, hidden cards included (the god's view)
    draw(game, table, seat) -> Svg  the picture of a table dict: `full_table(state)` (seat None) or
                                    `state.view(seat)` (seat p)

A seat's picture is drawn from `state.view(p)` and the game's static tables alone, so it can show
nothing that p may not know: two states that agree on view(p) (every `determinize(p)`) give the
same picture. The drawing code never runs on the default path (render_mode=None): the rules
modules do not import it.
"""
from __future__ import annotations

import importlib

import numpy as np

from .svg import Svg

#: seat colours (player_0 ... player_5): dice, cubes, markers
SEAT_COLOURS = ("#d1495b", "#2e86ab", "#3c9d4e", "#e0a100", "#7b4fa3", "#e07a1f")
#: the four disease / card colours as printed
RED, GREEN, BLUE, YELLOW = "#d7263d", "#2f9e44", "#1c6dd0", "#f2b705"
INK, MUTED, PAPER, CARD_BACK = "#222222", "#6b6b6b", "#fffdf8", "#4a3f6b"
MULTI_STOPS = ((0, RED), (0.33, GREEN), (0.66, BLUE), (1, YELLOW))


def picture_module(game):
    """The picture module of a game: `<package of its engine>.picture`."""
    return importlib.import_module(type(game).__module__.rsplit(".", 1)[0] + ".picture")


def picture(state, p: int | None = None) -> str:
    """SVG text of the table; with seat p, drawn from view(p) alone."""
    game = state.game
    mod = picture_module(game)
    if p is None:
        return mod.draw(game, mod.full_table(state), None).to_string()
    if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or not 0 <= p < game.num_players:
        raise ValueError(f"picture: seat must be None or in 0..{game.num_players - 1}, got {p!r}")
    return mod.draw(game, state.view(int(p)), int(p)).to_string()


def rasterize(svg: str, scale: float = 1.0) -> np.ndarray:
    """Pixels of an SVG text: a uint8 array of shape (height, width, 3) (cairosvg on cairo)."""
    try:
        from cairosvg.parser import Tree
        from cairosvg.surface import PNGSurface
    except (ImportError, OSError) as e:
        raise RuntimeError("pictures as pixels need cairosvg and the cairo library: "
                           f"pip install 'virus_envs[render]' ({type(e).__name__}: {e})") from None
    # drawn on an image surface and read back directly: writing and decoding a PNG cost more than drawing
    surface = PNGSurface(Tree(bytestring=svg.encode()), None, 96, scale=scale)
    img = surface.cairo
    img.flush()
    h, w, stride = img.get_height(), img.get_width(), img.get_stride()
    bgra = np.ndarray((h, w, 4), dtype=np.uint8, buffer=img.get_data(), strides=(stride, 4, 1))
    return np.ascontiguousarray(bgra[..., 2::-1])   # cairo ARGB32 is B, G, R, A in memory; the background is opaque


def save_png(rgb: np.ndarray, path: str) -> None:
    """Write an (h, w, 3) uint8 array as a PNG file."""
    from PIL import Image

    Image.fromarray(rgb).save(path, optimize=True)


# -- shared drawing helpers -------------------------------------------------------------------
def seat_colour(q: int) -> str:
    return SEAT_COLOURS[q % len(SEAT_COLOURS)]


def header(svg: Svg, title: str, detail: str, seat: int | None, width: float) -> None:
    """The band at the top: the game, the moment, and whose picture this is."""
    svg.rect(0, 0, width, 34, fill="#2b2d42")
    svg.text(12, 23, title, size=16, fill="#ffffff", weight="bold")
    svg.text(width / 2, 23, detail, size=13, fill="#edf2f4", anchor="middle")
    who = "full table (all hidden cards shown)" if seat is None else f"seen by player_{seat}"
    svg.text(width - 12, 23, who, size=12, fill="#ffd166" if seat is not None else "#adb5bd", anchor="end")


def card_back(svg: Svg, x, y, w, h, label: str | None = None) -> None:
    """A face-down card."""
    svg.rect(x, y, w, h, fill=CARD_BACK, stroke="#1d1733", sw=1.2, rx=6)
    svg.rect(x + 5, y + 5, w - 10, h - 10, fill="none", stroke="#9d8fd1", sw=1, rx=4)
    svg.ctext(x + w / 2, y + h / 2, label or "?", size=min(w, h) * 0.3, fill="#d8cff7", weight="bold")


def pill(svg: Svg, cx, cy, colour: str, r: float = 7, text: str | None = None) -> None:
    """A round pill/token with an optional count inside."""
    svg.circle(cx, cy, r, fill=colour, stroke="#555555", sw=1)
    if text is not None:
        svg.ctext(cx, cy, text, size=r * 1.2, fill="#ffffff" if colour not in (YELLOW, "#f2d16b") else INK,
                  weight="bold")


def die(svg: Svg, x, y, value: int, colour: str, size: float = 26) -> None:
    """A die showing `value` pips, in its owner's colour."""
    svg.rect(x, y, size, size, fill=colour, stroke="#444444", sw=1, rx=size * 0.18)
    r = size * 0.09
    c, lo, hi = size / 2, size * 0.26, size * 0.74
    spots = {1: [(c, c)], 2: [(lo, lo), (hi, hi)], 3: [(lo, lo), (c, c), (hi, hi)],
             4: [(lo, lo), (hi, lo), (lo, hi), (hi, hi)], 5: [(lo, lo), (hi, lo), (c, c), (lo, hi), (hi, hi)],
             6: [(lo, lo), (hi, lo), (lo, c), (hi, c), (lo, hi), (hi, hi)]}
    for sx, sy in spots.get(int(value), []):
        svg.circle(x + sx, y + sy, r, fill="#ffffff")
    if value not in spots:
        svg.ctext(x + c, y + c, str(value), size=size * 0.5, fill="#ffffff", weight="bold")


def badge_width(text: str, size: float = 11) -> float:
    """Width of a badge's label (bold; capitals are wider)."""
    return 10 + size * sum(0.78 if ch.isupper() else 0.62 for ch in text)


def badge(svg: Svg, x, y, text: str, fill: str = "#2b2d42", colour: str = "#ffffff", size: float = 11) -> float:
    """A rounded label; returns its width."""
    w = badge_width(text, size)
    svg.rect(x, y, w, size + 7, fill=fill, rx=(size + 7) / 2)
    svg.text(x + w / 2, y + size + 1.5, text, size=size, fill=colour, anchor="middle", weight="bold")
    return w
