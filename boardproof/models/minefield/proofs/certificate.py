"""Compact certificates of Minefield wins: the file format and a rules-only checker.

A proof tree (:mod:`boardproof.solvers.proof`) of a 5x5 opening entry would have
millions of nodes. A **certificate** lists only the *winner's* positions, one per class
of the board's 8 symmetries, each with its winning move; the loser's positions and the
positions won in one are not written: the checker rebuilds them with the rules. See
``docs/proofs.md`` ("Compact certificates") for the file layout and the soundness
argument. The certificates are made by :mod:`boardproof.models.minefield.native.certify` (the
native df-pn); this module never imports the native search.

The checker (:func:`check_certificate`) accepts a certificate when

- every listed position P is ongoing and its move m is legal; P + m is won by P's side
  to move, or every legal reply r of P + m (the forced pass included) leads to a
  position that is won by P's side, or is won in one by it (a legal placement completes
  its path: found and played by the checker), or is listed (up to symmetry);
- the root is won in the same way: listed or won in one (winner to move), or every reply
  leads to such a position (loser to move).

Each check adds at least one stone between two winner's positions (two passes in a row
are impossible), so by induction on the empty points every listed position is won by
its side to move, hence the root by the winner.

>>> from boardproof.models import get
>>> game = get("minefield")
>>> root = game.parse_position("2/2 b -")
>>> cert = Certificate.build({"size": 2, "win": "orthogonal", "rule": "orthogonal",
...                           "root": "2/2 b -", "lemmas": []}, "w", [], 0, 0.0)
>>> check_certificate(cert)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
boardproof.solvers.proof.ProofError: bad certificate: the root 2/2 b - (b to move): reply a1 \
leads to 2/b1 w -, which is neither listed nor won in one
"""

from __future__ import annotations

import json
import lzma
import os
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from boardproof.models.minefield.board import GUARD, PASS, VARIANTS, Move, flood, tables
from boardproof.models.minefield.rules import MinefieldGame, MinefieldPosition
from boardproof.solvers.proof import NotAProofError, ProofError

FORMAT = "boardproof-certificate"
VERSION = 1
#: the largest board a certificate describes (the native 64-bit search)
MAX_SIZE = 8
#: the lemmas a certificate may rely on, and what each one says
LEMMAS = {
    "theorem-o": "Theorem O (reports/minefield-orthodiagonal.md, n = 2..26): in a position "
    "of a legal game, the orthogonal and the ortho-diagonal game have the same winner",
}
#: the symmetries the keys are taken under
SYMMETRIES = ("the 8 symmetries of the square; the 4 that exchange Black's and White's "
              "edges also exchange the colours and the side to move")  # fmt: skip
#: the first bytes of an xz file (a certificate is one)
MAGIC = b"\xfd7zXZ\x00"


def record_bytes(n: int) -> int:
    """Bytes per listed position: 2 bitboards of n*n points, the mover's colour, a move.

    >>> [record_bytes(n) for n in (3, 4, 5, 6)]
    [3, 5, 7, 10]
    """
    return (2 * n * n + 1 + (n * n).bit_length() + 7) // 8


@dataclass
class Certificate:
    """The header (a JSON object) and the packed records of one certificate."""

    header: dict[str, Any]
    records: list[int] = field(default_factory=list)

    @classmethod
    def build(cls, base: dict[str, Any], winner: str, records: list[int], nodes: int,
              seconds: float) -> Certificate:  # fmt: skip
        """A certificate with the full versioned header (``nodes``/``seconds``: how it
        was made, not part of the claim)."""
        header = {
            "format": FORMAT, "version": VERSION, "game": "minefield",
            "size": base["size"], "win": base["win"], "rule": base["rule"],
            "root": base["root"], "winner": winner, "lemmas": list(base["lemmas"]),
            "symmetries": SYMMETRIES, "omitted": "the loser's positions, and the winner's "
            "positions won in one", "positions": len(records),
            "record_bytes": record_bytes(base["size"]),
            "record": "little-endian: mover's stones (n*n bits, point r*n+f), the other "
            "stones (n*n bits), 1 if the mover is Black, the move (point r*n+f, n*n: pass)",
            "made_by": {"search": "native df-pn", "nodes": nodes},
        }  # fmt: skip
        if base.get("variant", "standard") != "standard":  # the standard header stays as it was
            header["variant"] = base["variant"]
        del seconds  # not written: the same input gives the same file
        return cls(header, list(records))

    def to_bytes(self) -> bytes:
        """The file's bytes: xz of the header line and the records."""
        width = self.header["record_bytes"]
        head = json.dumps(self.header, sort_keys=True).encode("ascii") + b"\n"
        body = b"".join(r.to_bytes(width, "little") for r in self.records)
        return lzma.compress(head + body, preset=9)

    def write(self, path: str) -> int:
        """Write the file (whole or not at all); returns its size in bytes."""
        return write_atomic(path, self.to_bytes())


def write_atomic(path: str, data: bytes) -> int:
    """Write ``data`` to ``path`` through a temporary file (never a half-written file)."""
    temporary = f"{path}.part"
    with open(temporary, "wb") as handle:
        handle.write(data)
    os.replace(temporary, path)
    return len(data)


def is_certificate_file(path: str) -> bool:
    """Whether ``path`` starts like a certificate (an xz file), not a JSON proof (nor a JSON
    proof tree compressed with xz, whose first bytes name the ``boardproof-proof`` format)."""
    import lzma

    with open(path, "rb") as handle:
        if handle.read(len(MAGIC)) != MAGIC:
            return False
        handle.seek(0)
        head = handle.read(1 << 16)
    try:
        start = lzma.LZMADecompressor().decompress(head, max_length=256)
    except lzma.LZMAError:
        return True  # a damaged certificate: its checker says so
    return b'"boardproof-proof"' not in start


def load_certificate(path: str) -> Certificate:
    """Read a certificate file; ProofError if it is damaged or cut short.

    OSError is left to the caller.
    """
    from boardproof.inputs import read_bytes

    return parse_certificate(read_bytes(path), path)


def parse_certificate(raw: bytes, name: str = "certificate") -> Certificate:
    """The certificate in the bytes ``raw`` (see :func:`load_certificate`)."""
    from boardproof.inputs import MAX_INPUT_BYTES

    if not raw.startswith(MAGIC):
        raise NotAProofError(f"invalid certificate: not an xz file: {name!r}")
    # decompressed within the input limit: a small file that expands without end (a damaged
    # or a hostile one) is refused, not decompressed into the memory
    decompressor = lzma.LZMADecompressor(lzma.FORMAT_XZ)
    try:
        data = decompressor.decompress(raw, max_length=MAX_INPUT_BYTES + 1)
    except lzma.LZMAError as error:
        raise ProofError(f"bad certificate: damaged or truncated file ({error}): {name!r}") \
            from None
    if len(data) > MAX_INPUT_BYTES:
        most = MAX_INPUT_BYTES
        shown = f"{most >> 20} MiB" if most >= 1 << 20 else f"{most} bytes"
        raise ProofError(f"bad certificate: larger than {shown} once decompressed: {name!r}")
    if not decompressor.eof:
        raise ProofError(f"bad certificate: damaged or truncated file (Compressed file ended "
                         f"before the end-of-stream marker was reached): {name!r}")  # fmt: skip
    head, newline, body = data.partition(b"\n")
    try:
        header = json.loads(head.decode("ascii")) if newline else None
    except (ValueError, RecursionError):  # not ASCII, not JSON, nested too deeply, a number
        header = None  # of more than 4300 digits: no header
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise NotAProofError(f"invalid certificate: no {FORMAT} header: {name!r}")
    if header.get("version") != VERSION:
        raise NotAProofError(f"invalid certificate: expected version {VERSION}, got "
                             f"{header.get('version')!r}: {name!r}")  # fmt: skip
    size = header.get("size")
    if not isinstance(size, int) or not 2 <= size <= MAX_SIZE:
        raise ProofError(f"bad certificate: field 'size': expected 2 to {MAX_SIZE}, got "
                         f"{size!r}")  # fmt: skip
    width = record_bytes(size)
    count = header.get("positions")
    if header.get("record_bytes") != width or not isinstance(count, int):
        raise ProofError("bad certificate: fields 'record_bytes'/'positions' do not fit")
    if len(body) != count * width:
        raise ProofError(f"bad certificate: truncated: the header lists {count} positions "
                         f"but the file holds {len(body) / width:g}")  # fmt: skip
    records = [int.from_bytes(body[i : i + width], "little") for i in range(0, len(body), width)]
    return Certificate(header, records)


# ---------------------------------------------------------------------------
# the checker (rules only: legal_moves, play, outcome, canonical of the model)
# ---------------------------------------------------------------------------


@dataclass
class CertificateReport:
    """A certificate that passed."""

    game: str
    root: str
    winner: str
    #: listed positions checked
    positions: int
    #: the lemmas the result relies on (besides the rules)
    lemmas: list[str]
    #: positions rebuilt from the rules and checked (listed, replies, won in one)
    replies: int = 0
    #: listed positions not checked again: a check of another certificate accepted them
    #: (``check_certificate(..., accepted_before=...)``)
    trusted: int = 0


def _decoder(n: int) -> Callable[[int], tuple[int, int, int, Move]]:
    """record -> (black, white, to_move, move) in the model's bit layout."""
    cells = n * n
    width = n + GUARD
    spread = [(r * width + f) for r in range(n) for f in range(n)]
    chunks = [(k, [sum(1 << spread[k + i] for i in range(8) if byte >> i & 1 and k + i < cells)
                   for byte in range(256)]) for k in range(0, cells, 8)]  # fmt: skip
    moves = [Move(p % n, p // n) for p in range(cells)] + [PASS]
    mask = (1 << cells) - 1

    def expand(bits: int) -> int:
        out = 0
        for k, table in chunks:
            out |= table[(bits >> k) & 0xFF]
        return out

    def decode(record: int) -> tuple[int, int, int, Move]:
        me, op = expand(record & mask), expand((record >> cells) & mask)
        black = (record >> (2 * cells)) & 1
        code = record >> (2 * cells + 1)
        if code > cells:
            raise ValueError(f"move code {code}")
        if black:
            return me, op, 0, moves[code]
        return op, me, 1, moves[code]

    return decode


def _won_in_one(pos: MinefieldPosition) -> Move | None:
    """A legal placement that completes the side to move's path, or None.

    The candidates (points next to both edges' groups) are only a filter: each one is
    played and its outcome read from the rules.
    """
    legal = pos.legal_placements()
    if not legal:
        return None
    t = tables(pos.n)
    mover = pos.to_move
    own = pos.black if mover == 0 else pos.white
    first, second = t.edges[mover]
    width, diagonal, full = t.width, pos.game.diagonal, t.full

    def around(group: int) -> int:
        grown = group | (group << 1) | (group >> 1)
        if diagonal:
            return (grown | (grown << width) | (grown >> width)) & full
        return (grown | (group << width) | (group >> width)) & full

    near_first = first | around(flood(own & first, own, width, diagonal))
    near_second = second | around(flood(own & second, own, width, diagonal))
    candidates = legal & near_first & near_second
    while candidates:
        low = candidates & -candidates
        candidates ^= low
        move = t.moves[low.bit_length() - 1]
        assert move is not None
        child = pos.play(move)
        if child.winner() == mover:
            return move
    return None


def check_certificate(
    cert: Certificate,
    *,
    progress: Callable[[int, int], object] | None = None,
    every: int = 4096,
    accepted_before: Iterable[Certificate] = (),
) -> CertificateReport:
    """Check a certificate with the model's rules; ProofError naming the first bad position.

    ``progress(done, total)`` is called every ``every`` listed positions.

    ``accepted_before``: certificates that an earlier check accepted (the caller says so: e.g.
    the parts a composed certificate was made of, see ``certify.compose``). A record of
    ``cert`` that one of them lists too is not checked again, provided that every
    position it lists is listed in ``cert`` (same size and rules): a record's check only
    asks that its replies be listed or won in one, so what held in the smaller list holds
    in this one. The others, and the root, are checked as always; one that is not
    included so is ignored.
    """
    header = cert.header
    n = header["size"]
    win, rule = header.get("win"), header.get("rule")
    variant = header.get("variant", "standard")
    if variant not in VARIANTS:  # the checker plays any variant's rules (Python's own)
        raise ProofError(f"bad certificate: field 'variant': expected one of "
                         f"{', '.join(VARIANTS)}, got {variant!r}")  # fmt: skip
    lemmas = header.get("lemmas")
    if win not in ("orthogonal", "orthodiagonal") or rule not in ("orthogonal",
                                                                   "orthodiagonal"):
        raise ProofError(f"bad certificate: fields 'win'/'rule': unknown rule {win!r}/{rule!r}")
    if not isinstance(lemmas, list) or not all(
        isinstance(lemma, str) and lemma in LEMMAS for lemma in lemmas  # a list is unhashable
    ):
        raise ProofError(f"bad certificate: field 'lemmas': unknown lemma in {lemmas!r}")
    if rule != win and not (win == "orthogonal" and rule == "orthodiagonal"
                            and "theorem-o" in lemmas):  # fmt: skip
        raise ProofError(f"bad certificate: a proof in the {rule} game of a {win} claim "
                         f"needs the lemma theorem-o")  # fmt: skip
    if "theorem-o" in lemmas and variant != "standard":  # proved for the standard glyphs
        raise ProofError(f"bad certificate: field 'lemmas': theorem-o is not proved for the "
                         f"{variant} variant")  # fmt: skip
    claim_game = MinefieldGame(win=win, variant=variant)
    game = MinefieldGame(win=rule, variant=variant)
    try:
        claimed_root = claim_game.parse_position(str(header.get("root")))
        winner = game.player_of(str(header.get("winner")))
    except ValueError as error:
        raise ProofError(f"bad certificate: wrong root or winner: {error}") from None
    if claimed_root.n != n or claimed_root.pie:
        raise ProofError(f"bad certificate: wrong root: {claimed_root.fen()} is not a {n}x{n} "
                         f"position without a pending swap")  # fmt: skip
    if rule != win:
        problems = claimed_root.status()
        if problems:  # Theorem O speaks of positions of a legal game only
            raise ProofError(f"bad certificate: wrong root: {claimed_root.fen()} is not a "
                             f"position of a legal game ({problems[0]})")  # fmt: skip
    root = game.parse_position(claimed_root.fen())
    decode = _decoder(n)
    listed: set[tuple[Any, ...]] = set()
    positions: list[MinefieldPosition] = []
    moves: list[Move] = []
    full = tables(n).full
    for index, record in enumerate(cert.records):
        try:
            black, white, to_move, move = decode(record)
        except ValueError as error:
            raise ProofError(f"bad certificate: position {index}: unreadable ({error})") \
                from None
        pos = MinefieldPosition(game, n, black, white, to_move, False)
        if black & white or (black | white) & ~full:
            raise ProofError(f"bad certificate: position {index}: stones overlap")
        key = pos.canonical()[0]
        if key in listed:
            raise ProofError(f"bad certificate: position {index} ({pos.fen()}) is listed twice")
        listed.add(key)
        positions.append(pos)
        moves.append(move)
    trusted = _trusted_records(cert, accepted_before, listed, decode, game)

    replies = 0

    def accepted(child: MinefieldPosition, side: int) -> bool:
        """Is ``child`` (``side`` to move) won by ``side``: listed or won in one?"""
        return child.canonical()[0] in listed or _won_in_one(child) is not None

    def defended(after: MinefieldPosition, side: int, where: str) -> None:
        """Every reply of the loser in ``after`` leads to a position won by ``side``."""
        nonlocal replies
        for reply in after.legal_moves():
            child = after.play(reply)
            replies += 1
            result = child.outcome()
            if result is not None:
                if side in result.winners and len(result.winners) == 1:
                    continue
                raise ProofError(f"bad certificate: {where}: reply {reply} leads to "
                                 f"{child.fen()}, which {side_name(side)} does not win")
            if not accepted(child, side):
                raise ProofError(f"bad certificate: {where}: reply {reply} leads to "
                                 f"{child.fen()}, which is neither listed nor won in one")

    def side_name(side: int) -> str:
        return game.symbol(side)

    total = len(positions)
    for index, (pos, move) in enumerate(zip(positions, moves, strict=True)):
        if progress is not None and index % every == 0:
            progress(index, total)
        if cert.records[index] in trusted:
            continue
        where = f"position {index} ({pos.fen()})"
        if pos.outcome() is not None:
            raise ProofError(f"bad certificate: {where}: the game is over there")
        if move not in pos.legal_moves():
            raise ProofError(f"bad certificate: {where}: illegal move {move}")
        after = pos.play(move)
        replies += 1
        result = after.outcome()
        if result is not None:
            if result.winners == {pos.to_move}:
                continue
            raise ProofError(f"bad certificate: {where}: the move {move} does not win")
        defended(after, pos.to_move, where)
    if progress is not None:
        progress(total, total)

    where = f"the root {root.fen()} ({side_name(root.to_move)} to move)"
    result = root.outcome()
    if result is not None:
        if result.winners != {winner}:
            raise ProofError(f"bad certificate: wrong root: {root.fen()} is not won by "
                             f"{side_name(winner)}")  # fmt: skip
    elif root.to_move == winner:
        if not accepted(root, winner):
            raise ProofError(f"bad certificate: wrong root: {where} is neither listed nor won "
                             f"in one")  # fmt: skip
    else:
        defended(root, winner, where)
    name = "minefield" if variant == "standard" else f"minefield ({variant} variant)"
    return CertificateReport(name, claimed_root.fen(), side_name(winner), total,
                             list(lemmas), replies, len(trusted))  # fmt: skip


def _trusted_records(cert: Certificate, accepted: Iterable[Certificate], listed: set[Any],
                     decode: Callable[[int], tuple[int, int, int, Move]],
                     game: MinefieldGame) -> set[int]:  # fmt: skip
    """The records of ``cert`` that an accepted certificate lists too, from those whose
    every listed position ``cert`` lists (same size, rule and claim game)."""
    own = set(cert.records)
    found: set[int] = set()
    for other in accepted:
        h = other.header
        if (h.get("size"), h.get("rule"), h.get("win"), h.get("variant")) != (
                cert.header["size"], cert.header["rule"], cert.header["win"],
                cert.header.get("variant")):  # fmt: skip
            continue
        common = own.intersection(other.records)
        if not common:
            continue
        n = cert.header["size"]
        keys = set()
        for record in other.records:
            black, white, to_move, _ = decode(record)
            keys.add(MinefieldPosition(game, n, black, white, to_move, False).canonical()[0])
        if keys <= listed:
            found |= common
    return found


def certificate_hints(cert: Certificate) -> Iterator[tuple[int, int, bool]]:
    """The positions a certificate proves lost for their side to move: each listed
    position after its move (``NativeSearch.set_hints``: the confirming alpha-beta then
    tries these moves first). A forced pass needs no hint (it is the only move).

    >>> from boardproof.models import get
    >>> from boardproof.models.minefield import native
    >>> from boardproof.models.minefield.native.certify import make_certificate
    >>> if native.available():
    ...     cert = make_certificate(get("minefield").parse_position("3/3/1b1 w -"))
    ...     print(len(list(certificate_hints(cert))) == len(cert.records))
    ... else:
    ...     print(True)
    True
    """
    cells = cert.header["size"] ** 2
    mask = (1 << cells) - 1
    for record in cert.records:
        me, op = record & mask, (record >> cells) & mask
        black, code = bool(record >> (2 * cells) & 1), record >> (2 * cells + 1)
        if code < cells:
            yield op, me | 1 << code, not black
