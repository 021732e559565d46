"""The HTML page of a game review: one self-contained file, the board (SVG) at each move.

Rendering only: the review itself is computed by :mod:`boardproof.review.judge`.
The page has no external resource (inline CSS, inline SVG pictures from
:mod:`boardproof.reports.svg`).

>>> from boardproof import models
>>> from boardproof.review.record import parse_record
>>> from boardproof.review.judge import review_record
>>> review = review_record(parse_record(models.get("minefield"), "2/2 b -\\na1"),
...                        iterations=20)
>>> page = render(review)
>>> page.startswith("<!DOCTYPE html>"), page.count("<svg"), "http" in page.replace(
...     'xmlns="http://www.w3.org/2000/svg"', "")
(True, 2, False)
"""

from __future__ import annotations

import html

from boardproof.reports import svg
from boardproof.review.judge import PlyReview, Review, Verdict

STYLE = """
body { font-family: sans-serif; margin: 2em; max-width: 60em; }
table { border-collapse: collapse; margin: 1em 0; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
.losing { background: #f8d0d0; }
.mistake { background: #fbecc8; }
.ply { display: flex; gap: 1.5em; align-items: flex-start; margin: 1.5em 0;
       border-top: 1px solid #ddd; padding-top: 1em; }
.proved { font-weight: bold; }
.estimated { font-style: italic; color: #555; }
code { background: #f4f4f4; padding: 0 0.2em; }
"""


def _value(value: Verdict | None) -> str:
    if value is None:
        return "-"
    if value.proved is not None:
        return f'<span class="proved">{html.escape(value.proved)} (proved)</span>'
    text = f"{100 * value.estimate:.0f}% (estimated)"
    if value.score is not None:
        text += f", score {value.score:+.1f}"
    return f'<span class="estimated">{html.escape(text)}</span>'


def _mark(row: PlyReview, review: Review) -> str:
    if row.mark == "losing":
        return "the losing move" if row.ply == review.losing_move else "losing move"
    if row.mark == "mistake":
        return "mistake (estimated)"
    return ""


def render(review: Review) -> str:
    """The whole page."""
    game = review.record.game
    name = html.escape(game.name)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        '<head><meta charset="utf-8">',
        f"<title>boardproof review: {name}</title>",
        f"<style>{STYLE}</style>",
        "</head><body>",
        f"<h1>Game review: {name}</h1>",
        f"<p>Start: <code>{html.escape(review.record.start.fen())}</code>. "
        f"{len(review.plies)} moves reviewed in {review.seconds:.1f} s.</p>",
    ]
    if review.losing_move is not None:
        row = review.plies[review.losing_move - 1]
        parts.append(
            f"<p><b>The losing move:</b> ply {row.ply}, {html.escape(game.symbol(row.player))} "
            f"played <code>{html.escape(row.move)}</code>"
            + (f"; <code>{html.escape(row.best)}</code> kept the win" if row.best else "")
            + ".</p>"
        )
    else:
        parts.append("<p>No proved losing move.</p>")
    parts.append("<p>Values are for the player who moves: <b>proved</b> by exact search or "
                 "the search tree, or <i>estimated</i> (the search's win rate).</p>")  # fmt: skip
    parts.append("<table><tr><th>ply</th><th>player</th><th>move</th><th>before</th>"
                 "<th>after</th><th>best alternative</th><th>mark</th></tr>")  # fmt: skip
    for row in review.plies:
        cls = f' class="{row.mark}"' if row.mark else ""
        best = "-" if row.best is None else f"<code>{html.escape(row.best)}</code> "
        best += _value(row.best_value) if row.best is not None else ""
        parts.append(
            f'<tr{cls}><td><a href="#ply{row.ply}">{row.ply}</a></td>'
            f"<td>{html.escape(game.symbol(row.player))}</td>"
            f"<td><code>{html.escape(row.move)}</code></td><td>{_value(row.before)}</td>"
            f"<td>{_value(row.after)}</td><td>{best}</td>"
            f"<td>{html.escape(_mark(row, review))}</td></tr>"
        )
    parts.append("</table>")
    for pos, row in zip(review.record.positions, review.plies, strict=False):
        mark = _mark(row, review)
        parts.append(
            f'<div class="ply" id="ply{row.ply}"><div>{svg.render(pos)}</div><div>'
            f"<h3>Ply {row.ply}: {html.escape(game.symbol(row.player))} plays "
            f"<code>{html.escape(row.move)}</code></h3>"
            f"<p>Position: <code>{html.escape(row.position)}</code></p>"
            f"<p>Before: {_value(row.before)}<br>After: {_value(row.after)}</p>"
            + (f"<p>Best alternative: <code>{html.escape(row.best)}</code> "
               f"{_value(row.best_value)}</p>" if row.best else "")
            + (f"<p><b>{html.escape(mark)}</b></p>" if mark else "")
            + "</div></div>"
        )  # fmt: skip
    final = review.record.positions[len(review.plies)]
    parts.append(
        f'<div class="ply" id="final"><div>{svg.render(final)}</div><div><h3>Final position'
        f"</h3><p><code>{html.escape(final.fen())}</code></p></div></div>"
    )
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
