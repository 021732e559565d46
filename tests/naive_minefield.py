"""A deliberately naive, separate implementation of Minefield's rules (tests only).

Plain loops over cells and windows, a list-of-lists board and breadth-first
search; it shares no code with ``boardproof.models.minefield``. It produces the
counts in ``tests/data/minefield.perft`` and cross-checks legal moves.

Run ``python tests/naive_minefield.py`` to regenerate the perft file.
"""

from __future__ import annotations

import sys
from collections import deque
from pathlib import Path

EMPTY, B, W = ".", "b", "w"


class Naive:
    """A position: grid[rank][file] (rank 0 = rank 1), side 'b'/'w', pie flag."""

    def __init__(self, grid: list[list[str]], side: str, pie: bool, diagonal: bool = False):
        self.grid = grid
        self.n = len(grid)
        self.side = side
        self.pie = pie
        self.diagonal = diagonal

    @staticmethod
    def parse(text: str, diagonal: bool = False) -> Naive:
        fields = text.split()
        rows = fields[0].split("/")
        n = len(rows)
        grid = [[EMPTY] * n for _ in range(n)]
        for i, row in enumerate(rows):
            rank = n - 1 - i
            f = 0
            number = ""
            for ch in row + "$":
                if ch.isdigit():
                    number += ch
                    continue
                if number:
                    f += int(number)
                    number = ""
                if ch in "bw":
                    grid[rank][f] = ch
                    f += 1
            assert f == n, text
        pie = len(fields) > 2 and fields[2] == "p"
        return Naive(grid, fields[1], pie, diagonal)

    def fen(self) -> str:
        rows = []
        for rank in range(self.n - 1, -1, -1):
            text = ""
            run = 0
            for f in range(self.n):
                if self.grid[rank][f] == EMPTY:
                    run += 1
                else:
                    if run:
                        text += str(run)
                    run = 0
                    text += self.grid[rank][f]
            if run:
                text += str(run)
            rows.append(text)
        return "/".join(rows) + " " + self.side + " " + ("p" if self.pie else "-")

    def at(self, f: int, r: int) -> str:
        return self.grid[r][f]

    # -- glyphs ------------------------------------------------------------

    def window_is_glyph(self, f0: int, r0: int, w: int, h: int) -> bool:
        """Is the w x h window at (f0, r0) a glyph? Checked literally from the rules."""
        if w == 2 and h == 2:
            a, b_, c, d = (
                self.at(f0, r0),
                self.at(f0 + 1, r0),
                self.at(f0, r0 + 1),
                self.at(f0 + 1, r0 + 1),
            )
            for diag, other in (((a, d), (b_, c)), ((b_, c), (a, d))):
                if diag[0] != EMPTY and diag[0] == diag[1]:
                    x = diag[0]
                    y = W if x == B else B
                    if (other[0] == y and other[1] == EMPTY) or (
                        other[0] == EMPTY and other[1] == y
                    ):
                        return True
            return False
        # switch: the corners two of each colour on opposite corners, the rest empty
        corners = [(f0, r0), (f0 + w - 1, r0 + h - 1), (f0 + w - 1, r0), (f0, r0 + h - 1)]
        values = [self.at(f, r) for f, r in corners]
        if EMPTY in values:
            return False
        if not (values[0] == values[1] and values[2] == values[3] and values[0] != values[2]):
            return False
        for f in range(f0, f0 + w):
            for r in range(r0, r0 + h):
                if (f, r) not in corners and self.at(f, r) != EMPTY:
                    return False
        return True

    def glyph_at(self, f: int, r: int) -> bool:
        """Does some glyph window containing (f, r) hold a glyph?"""
        for w, h in ((2, 2), (2, 3), (3, 2), (2, 4), (4, 2)):
            for f0 in range(f - w + 1, f + 1):
                for r0 in range(r - h + 1, r + 1):
                    if f0 < 0 or r0 < 0 or f0 + w > self.n or r0 + h > self.n:
                        continue
                    if self.window_is_glyph(f0, r0, w, h):
                        return True
        return False

    def can_place(self, colour: str, f: int, r: int) -> bool:
        if self.grid[r][f] != EMPTY:
            return False
        self.grid[r][f] = colour
        bad = self.glyph_at(f, r)
        self.grid[r][f] = EMPTY
        return not bad

    def placements(self, colour: str) -> list[tuple[int, int]]:
        out = []
        for r in range(self.n):
            for f in range(self.n):
                if self.can_place(colour, f, r):
                    out.append((f, r))
        return out

    # -- winning -------------------------------------------------------------

    def has_path(self, colour: str) -> bool:
        n = self.n
        seen = set()
        queue: deque[tuple[int, int]] = deque()
        for i in range(n):
            start = (i, 0) if colour == B else (0, i)
            if self.at(*start) == colour:
                seen.add(start)
                queue.append(start)
        steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
        if self.diagonal:
            steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
        while queue:
            f, r = queue.popleft()
            if (colour == B and r == n - 1) or (colour == W and f == n - 1):
                return True
            for df, dr in steps:
                g, s = f + df, r + dr
                if 0 <= g < n and 0 <= s < n and (g, s) not in seen and self.at(g, s) == colour:
                    seen.add((g, s))
                    queue.append((g, s))
        return False

    # -- moves -------------------------------------------------------------

    def other(self) -> str:
        return W if self.side == B else B

    def terminal(self) -> bool:
        if self.has_path(B) or self.has_path(W):
            return True
        return not self.placements(self.side) and not self.placements(self.other())

    def count(self, colour: str) -> int:
        return sum(row.count(colour) for row in self.grid)

    def swap_ok(self) -> bool:
        # rulebook case, written for the mover's colours so symmetric positions agree
        return self.pie and self.count(self.side) == 0 and self.count(self.other()) == 1

    def moves(self) -> list[str]:
        if self.terminal():
            return []
        files = "abcdefghijklmnopqrstuvwxyz"
        out = [f"{files[f]}{r + 1}" for f, r in self.placements(self.side)]
        if self.swap_ok():
            out.append("swap")
        if not out:
            out.append("pass")
        return out

    def play(self, move: str) -> Naive:
        grid = [row[:] for row in self.grid]
        if move == "swap":
            return Naive(grid, self.side, False, self.diagonal)
        if move == "pass":
            return Naive(grid, self.other(), False, self.diagonal)
        f = "abcdefghijklmnopqrstuvwxyz".index(move[0])
        r = int(move[1:]) - 1
        was_empty = self.count(B) + self.count(W) == 0
        grid[r][f] = self.side
        return Naive(grid, self.other(), self.pie and was_empty, self.diagonal)


def perft(pos: Naive, depth: int) -> int:
    if depth == 0:
        return 1
    return sum(perft(pos.play(m), depth - 1) for m in pos.moves())


#: (id, position, win rule, max depth) of the regression file
CASES = [
    ("n2-pie", "2/2 b p", "orthogonal", 5),
    ("n2-nopie", "2/2 b -", "orthogonal", 5),
    ("n2-diag", "2/2 b p", "orthodiagonal", 5),
    ("n3-pie", "3/3/3 b p", "orthogonal", 5),
    ("n3-nopie", "3/3/3 b -", "orthogonal", 6),
    ("n3-diag", "3/3/3 b -", "orthodiagonal", 6),
    ("n3-white", "3/1b1/3 w -", "orthogonal", 5),
    ("n3-pass", "1bw/b2/w1b w -", "orthogonal", 3),
    ("n3-dead", "b1w/w1b/b1w b -", "orthogonal", 2),
    ("n4-pie", "4/4/4/4 b p", "orthogonal", 4),
    ("n4-nopie", "4/4/4/4 b -", "orthogonal", 4),
    ("n4-diag", "4/4/4/4 b p", "orthodiagonal", 4),
    ("n4-mid", "4/1bw1/1w2/b3 b -", "orthogonal", 5),
    ("n4-pass", "wbbw/wb2/ww1b/bb2 w -", "orthogonal", 4),
    ("n4-diag-pass", "bwbw/3w/w2b/b1wb b -", "orthodiagonal", 4),
    ("n5-pie", "5/5/5/5/5 b p", "orthogonal", 3),
    ("n5-nopie", "5/5/5/5/5 b -", "orthogonal", 4),
    ("n5-mid", "5/1w1b1/2b2/1w1w1/b4 b -", "orthogonal", 4),
    ("n5-diag-mid", "5/1w1b1/2b2/1w1w1/b4 b -", "orthodiagonal", 4),
    ("n5-pass", "bbwww/wb1b1/w1b1b/wwbwb/bbbww w -", "orthogonal", 4),
    ("n6-pie", "6/6/6/6/6/6 b p", "orthogonal", 3),
    ("n6-example", "6/6/1b1wb1/4b1/6/6 w -", "orthogonal", 3),
    ("n6-late", "b1w3/1bw2b/w1b1w1/1bw1b1/b2w2/1w1bw1 b -", "orthogonal", 4),
    ("n6-diag-late", "b1w3/1bw2b/w1b1w1/1bw1b1/b2w2/1w1bw1 b -", "orthodiagonal", 4),
    ("n6-pass", "bbbwwb/wbwwww/bbbbbb/ww1wbb/b1wwww/bbwbww b -", "orthogonal", 3),
]


def write_perft_file(path: Path) -> None:
    lines = [
        "# Minefield perft regression (format after python-chess's examples/perft).",
        "# Blocks separated by blank lines:",
        "#   id <name>",
        "#   position <rows> <side> <pie>",
        "#   win <orthogonal|orthodiagonal>     (optional, default orthogonal)",
        "#   depth <d> <count>                  (one line per depth)",
        "# Counts made by tests/naive_minefield.py (python tests/naive_minefield.py).",
        "",
    ]
    for name, text, win, depth in CASES:
        pos = Naive.parse(text, diagonal=win == "orthodiagonal")
        lines.append(f"id {name}")
        lines.append(f"position {text}")
        if win != "orthogonal":
            lines.append(f"win {win}")
        for d in range(1, depth + 1):
            lines.append(f"depth {d} {perft(pos, d)}")
            print(name, d, lines[-1], file=sys.stderr, flush=True)
        lines.append("")
    path.write_text("\n".join(lines))


if __name__ == "__main__":
    write_perft_file(Path(__file__).parent / "data" / "minefield.perft")
