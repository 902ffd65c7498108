"""A small SVG builder: the one drawing path of every game's picture (`virus_envs/<game>/picture.py`).

Elements are appended as text in drawing order; attribute names take `_` for `-`
(`font_weight="bold"` -> `font-weight="bold"`), values are XML-escaped, numbers kept short.
Why not drawsvg or svgwrite: they build an object per element and were 20x slower on a
1,000-element table (a replay page draws a picture for every decision of a game); this
needs no dependency. `virus_envs.core.picture.rasterize` turns the text into pixels.
"""
from __future__ import annotations

import re
from contextlib import contextmanager
from xml.sax.saxutils import escape

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"


_NAMES: dict[str, str] = {"cls": "class"}
_SPECIAL = re.compile(r'[&<>"]')


def _num(v) -> str:
    if isinstance(v, float):
        if v.is_integer():
            return str(int(v))
        return f"{v:.2f}".rstrip("0").rstrip(".")
    return str(v)


def _attrs(attrs: dict) -> str:
    out = []
    for k, v in attrs.items():
        if v is None or v is False:
            continue
        name = _NAMES.get(k)
        if name is None:
            name = _NAMES[k] = k.rstrip("_").replace("_", "-")
        if isinstance(v, (int, float)):
            out.append(f' {name}="{_num(v)}"')
        else:
            v = str(v)
            if _SPECIAL.search(v):
                v = escape(v, {'"': "&quot;"})
            out.append(f' {name}="{v}"')
    return "".join(out)


class Svg:
    """One SVG document of `width x height` pixels on a solid background."""

    def __init__(self, width: float, height: float, background: str = "#f3efe6", title: str | None = None):
        self.width, self.height = width, height
        self.parts: list[str] = []
        self.defs: dict[str, str] = {}
        self.title = title
        if background:
            self.rect(0, 0, width, height, fill=background)

    # -- elements -----------------------------------------------------------------------
    def add(self, tag: str, text: str | None = None, **attrs) -> None:
        if text is None:
            self.parts.append(f"<{tag}{_attrs(attrs)}/>")
        else:
            self.parts.append(f"<{tag}{_attrs(attrs)}>{escape(text)}</{tag}>")

    def rect(self, x, y, w, h, fill="none", stroke=None, sw=None, rx=None, **attrs):
        self.add("rect", x=x, y=y, width=w, height=h, rx=rx, fill=fill, stroke=stroke, stroke_width=sw, **attrs)

    def circle(self, cx, cy, r, fill="none", stroke=None, sw=None, **attrs):
        self.add("circle", cx=cx, cy=cy, r=r, fill=fill, stroke=stroke, stroke_width=sw, **attrs)

    def line(self, x1, y1, x2, y2, stroke="#222", sw=1, **attrs):
        self.add("line", x1=x1, y1=y1, x2=x2, y2=y2, stroke=stroke, stroke_width=sw, **attrs)

    def polygon(self, points, fill="none", stroke=None, sw=None, **attrs):
        pts = " ".join(f"{_num(float(x))},{_num(float(y))}" for x, y in points)
        self.add("polygon", points=pts, fill=fill, stroke=stroke, stroke_width=sw, **attrs)

    def path(self, d: str, fill="none", stroke=None, sw=None, **attrs):
        self.add("path", d=d, fill=fill, stroke=stroke, stroke_width=sw, **attrs)

    def text(self, x, y, s, size=12, fill="#222", anchor="start", weight=None, **attrs):
        """Text whose baseline is at y (`anchor`: start, middle, end)."""
        self.add("text", str(s), x=x, y=y, font_size=size, fill=fill,
                 text_anchor=None if anchor == "start" else anchor, font_weight=weight, **attrs)

    def ctext(self, x, y, s, size=12, fill="#222", weight=None, **attrs):
        """Text centred on (x, y) both ways (the baseline placed by hand: renderers differ on dominant-baseline)."""
        self.text(x, y + 0.36 * size, s, size=size, fill=fill, anchor="middle", weight=weight, **attrs)

    def gradient(self, gid: str, stops, x2=1, y2=0) -> str:
        """A linear gradient in the defs (once); returns the fill value `url(#gid)`."""
        if gid not in self.defs:
            st = "".join(f'<stop offset="{_num(o)}" stop-color="{c}"/>' for o, c in stops)
            self.defs[gid] = f'<linearGradient id="{gid}" x1="0" y1="0" x2="{x2}" y2="{y2}">{st}</linearGradient>'
        return f"url(#{gid})"

    @contextmanager
    def group(self, **attrs):
        """Elements added inside share these attributes (`transform`, `opacity`, `data_*`, `cls` ...)."""
        self.parts.append(f"<g{_attrs(attrs)}>")
        try:
            yield self
        finally:
            self.parts.append("</g>")

    # -- output -------------------------------------------------------------------------
    def to_string(self) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_num(self.width)}" height="{_num(self.height)}" '
                f'viewBox="0 0 {_num(self.width)} {_num(self.height)}" font-family="{FONT}">')
        title = f"<title>{escape(self.title)}</title>" if self.title else ""
        defs = f"<defs>{''.join(self.defs.values())}</defs>" if self.defs else ""
        return head + title + defs + "".join(self.parts) + "</svg>"

    __str__ = to_string
