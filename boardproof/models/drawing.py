"""A tiny deterministic SVG document builder, shared by the games' drawing hooks.

Each game draws itself in ``boardproof.models.<game>.drawing`` (``render(position) -> str``),
declared as ``GameInfo.draw``.

>>> doc = SvgDocument(40, 20)
>>> doc.rect(0, 0, 40, 20, fill="#eee")
>>> doc.text(20, 12, "a<b", size=10)
>>> print(doc.to_string().splitlines()[0])
<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20" viewBox="0 0 40 20">
>>> "a&lt;b" in doc.to_string()
True
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr


def _fmt(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text != "-0" else "0"


class SvgDocument:
    """A minimal SVG writer with deterministic output."""

    def __init__(self, width: float, height: float) -> None:
        self.width = width
        self.height = height
        self._items: list[str] = []

    def _element(self, tag: str, attrs: dict[str, object], content: str | None = None) -> None:
        parts = []
        for key, value in attrs.items():
            if value is None:
                continue
            name = key.rstrip("_").replace("_", "-")
            text = _fmt(value) if isinstance(value, float | int) else str(value)
            parts.append(f"{name}={quoteattr(text)}")
        attr_text = " ".join(parts)
        if content is None:
            self._items.append(f"<{tag} {attr_text}/>")
        else:
            self._items.append(f"<{tag} {attr_text}>{content}</{tag}>")

    def rect(self, x: float, y: float, w: float, h: float, **style: object) -> None:
        self._element("rect", {"x": x, "y": y, "width": w, "height": h, **style})

    def circle(self, cx: float, cy: float, r: float, **style: object) -> None:
        self._element("circle", {"cx": cx, "cy": cy, "r": r, **style})

    def line(self, x1: float, y1: float, x2: float, y2: float, **style: object) -> None:
        self._element("line", {"x1": x1, "y1": y1, "x2": x2, "y2": y2, **style})

    def polygon(self, points: list[tuple[float, float]], **style: object) -> None:
        text = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)
        self._element("polygon", {"points": text, **style})

    def polyline(self, points: list[tuple[float, float]], **style: object) -> None:
        text = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in points)
        self._element("polyline", {"points": text, "fill": "none", **style})

    def text(self, x: float, y: float, content: str, size: float = 12, **style: object) -> None:
        attrs: dict[str, object] = {
            "x": x,
            "y": y,
            "font_size": size,
            "font_family": "sans-serif",
            "text_anchor": "middle",
            **style,
        }
        self._element("text", attrs, escape(content))

    def raw(self, fragment: str) -> None:
        """Append an already-escaped fragment (e.g. a nested group)."""
        self._items.append(fragment)

    def to_string(self) -> str:
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{_fmt(self.width)}" '
            f'height="{_fmt(self.height)}" viewBox="0 0 {_fmt(self.width)} {_fmt(self.height)}">'
        )
        return "\n".join([head, *self._items, "</svg>"]) + "\n"
