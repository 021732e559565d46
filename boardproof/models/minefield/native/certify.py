"""Compact certificates of Minefield wins, made from the native df-pn (issue 18).

:func:`make_certificate` proves "``winner`` wins ``root``" with the native df-pn (the
attacker is the winner, so a proof never relies on the no-draw result) and then walks
the proof: at each of the winner's positions one move, the first of

1. a legal move that completes the winner's path (the position is *won in one*: it is not
   listed, the checker finds that move by itself),
2. a move to a loser's position already walked (transpositions are shared: the proof
   re-uses what is proved),
3. among the moves whose child the df-pn table proves at once (``fewest``, the default),
   the one that leaves the loser the fewest replies to positions of ours neither won in
   one nor listed already (ties: point order; fewer positions than the next rule alone,
   see benchmarks/RESULTS.md);
4. the move the df-pn table proves (``dfpn(..., keep=True)``: a proved child read from the
   table; re-searched, in the same table, if the entry was overwritten);

and at each of the loser's positions every legal move (or the forced pass). The result
is the list of the winner's positions (one per class of the 8 symmetries) with their
moves, that :mod:`boardproof.models.minefield.proofs.certificate` writes and checks with the rules
only
(it never imports this module). Deterministic: the same root, rule and table size give
the same list (depth-first, moves in point order, records sorted).

With ``theorem_o`` (the default from 5x5 on, as in the opening tables) the proof is made
in the ortho-diagonal game and the certificate names Theorem O as the lemma it relies on.

>>> from boardproof.models import get
>>> from boardproof.models.minefield import native
>>> if native.available():
...     cert = make_certificate(get("minefield").parse_position("3/3/1b1 w -"),
...                             theorem_o=True)
...     print(cert.header["winner"], cert.header["lemmas"], len(cert.records) > 0)
... else:
...     print("w ['theorem-o'] True")
w ['theorem-o'] True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from boardproof import models
from boardproof.models.base import InvalidOptionError
from boardproof.models.minefield import native
from boardproof.models.minefield.native import prover
from boardproof.models.minefield.proofs import certificate as fmt

#: the df-pn table of :func:`make_certificate` per board size (2**bits entries of 32
#: bytes: 2 GiB from 5x5 on, as the opening tables: with 1 GiB the entry a2 takes over
#: 60 M nodes instead of 11 M)
CERT_TT_BITS = {2: 12, 3: 12, 4: 18}
LARGE_CERT_TT_BITS = 26
#: ``theorem_o`` by default from this size on (as the opening tables' df-pn): smaller
#: boards get certificates in the orthogonal game itself, which rely on no lemma
THEOREM_O_SIZE = 5


def cert_tt_bits(n: int) -> int:
    """The df-pn table of a certificate of an n x n board (the file depends on it).

    >>> [cert_tt_bits(n) for n in (3, 4, 5, 6)]
    [12, 18, 26, 26]
    """
    return CERT_TT_BITS.get(n, LARGE_CERT_TT_BITS)


class CertificateFailed(Exception):  # noqa: N818 - raised when the search proves nothing
    """The native search did not prove the claimed win (budget, or a wrong winner)."""


def make_certificate(
    root: Any,
    *,
    winner: int | None = None,
    theorem_o: bool | None = None,
    tt_bits: int | None = None,
    timeout: float | None = None,
    progress: Callable[[int, int], object] | None = None,
    fewest: bool = True,
    rules: Iterable[str] = (),
    table: str = "pairs",
    node_limit: int = 0,
) -> fmt.Certificate:
    """A certificate that ``winner`` (default: found by df-pn) wins ``root``.

    ``root``: a Minefield position of at most 8x8 without a pending swap. Raises
    CertificateFailed when df-pn does not prove the win within ``timeout`` seconds (or
    ``node_limit`` nodes, 0: no limit).
    ``progress(listed, walked)`` is called now and then during the walk.

    ``rules`` (``prover.RULES``, e.g. ``["must3"]``, as the 6x6 attempts) and ``table``
    (the df-pn table scheme) only change the search that finds the proof, never what the
    checker accepts: the walk still lists every legal move of the loser, and a move that a
    rule cut is proved by a search of its own (for ``must3``: at once, every reply of the
    loser after the winner's unstoppable reply being cut in its turn).
    """
    with prover.rules(rules):
        return _make(root, winner, theorem_o, tt_bits, timeout, progress, fewest, table,
                     node_limit)  # fmt: skip


def _prepare(root: Any, theorem_o: bool | None) -> tuple[Any, dict[str, Any]]:
    """The position the proof is made in (ortho-diagonal with ``theorem_o``) and the
    certificate's header fields; refuses what no certificate describes."""
    if not native.available():
        raise InvalidOptionError("invalid option method native: the C module was not built")
    if (root.game.name != "minefield" or root.n > native.SMALL_MAX_SIZE or root.pie
            or root.game.variant not in native.VARIANTS):  # fmt: skip
        raise InvalidOptionError(
            f"invalid position for a certificate: expected a Minefield board of 2x2 to "
            f"{native.SMALL_MAX_SIZE}x{native.SMALL_MAX_SIZE} without a pending swap "
            f"({' or '.join(native.VARIANTS)} glyphs), got {root.fen()!r}"
        )
    variant = root.game.variant
    if theorem_o is None:  # Theorem O is proved for the standard glyphs only
        theorem_o = root.n >= THEOREM_O_SIZE and root.game.standard
    elif theorem_o and not root.game.standard:
        raise InvalidOptionError(f"invalid option theorem_o: Theorem O is proved for the "
                                 f"standard glyphs only, got variant {variant!r}")  # fmt: skip
    claim_rule = root.game.win
    target = root
    if theorem_o and claim_rule == "orthogonal":
        target = models.get("minefield", win="orthodiagonal").parse_position(root.fen())
    lemmas = ["theorem-o"] if target.game.win != claim_rule else []
    header = {"size": root.n, "win": claim_rule, "rule": target.game.win,
              "root": root.fen(), "lemmas": lemmas}  # fmt: skip
    if not root.game.standard:
        header["variant"] = variant
    return target, header


def _finished(root: Any, target: Any, winner: int | None,
              base: dict[str, Any]) -> fmt.Certificate | None:  # fmt: skip
    """The (empty) certificate of a root whose game is over, else None."""
    outcome = target.outcome()
    if outcome is None:
        return None
    if len(outcome.winners) != 1 or (winner is not None and winner not in outcome.winners):
        raise CertificateFailed(f"the game is over and not won by the winner: {root.fen()}")
    return fmt.Certificate.build(base, root.game.symbol(next(iter(outcome.winners))), [], 0,
                                 0.0)  # fmt: skip


def _make(root: Any, winner: int | None, theorem_o: bool | None, tt_bits: int | None,
          timeout: float | None, progress: Callable[[int, int], object] | None, fewest: bool,
          table: str, node_limit: int) -> fmt.Certificate:  # fmt: skip
    """:func:`make_certificate` with its rules on."""
    target, header_base = _prepare(root, theorem_o)
    if tt_bits is None:
        tt_bits = cert_tt_bits(root.n)
    done = _finished(root, target, winner, header_base)
    if done is not None:
        return done
    search = native.search_for(root.n, target.game.win == "orthodiagonal", wide=False,
                               variant=root.game.variant)  # fmt: skip
    if winner is None:
        proved, _, _ = search.proof(target, target.to_move, tt_bits=tt_bits, timeout=timeout,
                                    table=table, node_limit=node_limit)  # fmt: skip
        if proved is None:
            raise CertificateFailed(f"df-pn did not settle {root.fen()} within the budget")
        winner = target.to_move if proved else 1 - target.to_move
    # the proof, in a fresh table that the walk then reads (keep=True); proof() installs
    # this size's tables in the C module, which the walk's direct calls use
    proved, nodes, _ = search.proof(target, winner, tt_bits=tt_bits, timeout=timeout,
                                    table=table, node_limit=node_limit)  # fmt: skip
    if not proved:
        what = "did not settle" if proved is None else "disproves"
        raise CertificateFailed(f"df-pn {what} the win of {root.game.symbol(winner)} in "
                                f"{root.fen()}")  # fmt: skip
    return _walk(root, target, winner, header_base, search, tt_bits, table, nodes, progress,
                 fewest)  # fmt: skip


def certificate_from_table(
    root: Any,
    winner: int,
    nodes: int,
    *,
    tt_bits: int,
    table: str,
    rules: Iterable[str] = (),
    theorem_o: bool = True,
) -> fmt.Certificate:
    """The certificate that :func:`make_certificate` would make with these arguments
    (the same bytes), walked from the df-pn table that the last native search left: that
    search must be the proof of ``winner`` at ``root`` with these ``tt_bits``, ``table``,
    ``rules`` and ``theorem_o`` in a fresh table (``prover.who_wins(root, tt_bits=...,
    table=..., use=rules)`` that found the side to move winning, ``nodes`` its nodes), and
    nothing may have searched since. It saves the second search of :func:`make_certificate`:
    the budgeted 6x6 attempts make their certificates so
    (:mod:`~boardproof.models.minefield.research.subtrees`).
    Deterministic as :func:`make_certificate`: the table is the one its own search leaves."""
    target, header_base = _prepare(root, theorem_o)
    done = _finished(root, target, winner, header_base)
    if done is not None:
        return done
    search = native.search_for(root.n, target.game.win == "orthodiagonal", wide=False,
                               variant=root.game.variant)  # fmt: skip
    with prover.rules(rules):
        return _walk(root, target, winner, header_base, search, tt_bits, table, nodes, None,
                     True)  # fmt: skip


def _walk(root: Any, target: Any, winner: int, header_base: dict[str, Any], search: Any,
          tt_bits: int, table: str, nodes: int,
          progress: Callable[[int, int], object] | None,
          fewest: bool) -> fmt.Certificate:  # fmt: skip
    """The certificate read from the table that holds the proof of ``winner`` at the
    root (re-searching, in it, the entries that were overwritten)."""
    start = time.perf_counter()
    n = root.n
    me, op, black = search.boards(target)
    c = native._native
    assert c is not None
    attacker_moves = target.to_move == winner
    scheme = native.DFPN_TABLES.index(table)
    perms = search.tables.perms
    full = (1 << (n * n)) - 1
    pass_code = n * n
    legal, winning, canonical, dfpn = c.legal, c.winning, c.canonical, c.dfpn
    listed: dict[tuple[int, int, int], int] = {}  # winner's class -> record
    walked: set[tuple[int, int, int]] = set()  # loser's classes walked
    extra = 0  # df-pn nodes of re-searches (entries overwritten in the table)

    # an explicit stack of (me, op, black, winner_to_move)
    stack: list[tuple[int, int, bool, bool]] = [(me, op, black, attacker_moves)]
    steps = 0
    while stack:
        me, op, black, ours = stack.pop()
        steps += 1
        if progress is not None and steps % 4096 == 0:
            progress(len(listed), len(walked))
        a, b, kb, sym = canonical(me, op, black)
        key = (a, b, kb)
        if ours:
            if key in listed:
                continue
            moves = legal(me, op, black)  # (the roles of the colour to move: the cartwheel's)
            if moves & winning(me, black):
                continue  # won in one: the checker finds the move itself
            if not moves:
                if not legal(op, me, not black):
                    raise CertificateFailed(f"dead position in the proof: {me:x} {op:x}")
                point = -2
            else:
                point = -1
                rest = moves
                while rest:
                    q = (rest & -rest).bit_length() - 1
                    rest &= rest - 1
                    ca, cb, ckb, _ = canonical(op, me | (1 << q), not black)
                    if (ca, cb, ckb) in walked:
                        point = q
                        break
                if point == -1 and fewest:
                    point = _fewest_open(me, op, black, moves, tt_bits, c, listed, scheme)
                if point == -1:
                    proved, more, point = dfpn(me, op, black, True, tt_bits, 0, 0.0, True,
                                               scheme)  # fmt: skip
                    extra += more
                    if proved != 1 or point == -1:
                        raise CertificateFailed("df-pn lost a proved position")
            code = pass_code if point == -2 else perms[sym][point]
            listed[key] = a | b << (n * n) | (1 if kb else 0) << (2 * n * n) | code << (
                2 * n * n + 1
            )
            if point == -2:
                stack.append((op, me, not black, False))
            else:
                stack.append((op, me | (1 << point), not black, False))
        else:
            if key in walked:
                continue
            walked.add(key)
            moves = legal(me, op, black)
            if not moves:
                if not legal(op, me, not black):
                    raise CertificateFailed("dead position in the proof")
                stack.append((op, me, not black, True))
                continue
            if moves & winning(me, black):
                raise CertificateFailed("the loser wins at once in the proof")
            children = []
            rest = moves
            while rest:
                low = rest & -rest
                rest ^= low
                children.append((op, me | low, not black, True))
            stack.extend(reversed(children))
    assert full  # (the board mask: every record's stones lie in it)
    records = sorted(listed.values())
    seconds = time.perf_counter() - start
    return fmt.Certificate.build(header_base, root.game.symbol(winner), records,
                                 nodes + extra, seconds)  # fmt: skip


def compose(root: Any, winner: str, parts: list[fmt.Certificate],
            move: Any = None) -> fmt.Certificate:  # fmt: skip
    """The certificate of ``root`` made of its replies' certificates (an entry settled
    through its replies, :mod:`boardproof.models.minefield.research.subtrees`): with the winner to
    move,
    ``move`` and the one certificate of the position after it (the root is listed with
    that move); with the loser to move, one certificate per reply (one per symmetry class
    is enough: the checker looks replies up up to symmetry).

    The records are the union of the parts' (a position listed in two parts keeps the
    first part's move): each record's claim only needs its replies to be listed, so it
    holds in the union too; the checker checks it all again. Raises CertificateFailed if
    a part is not a certificate of ``winner`` at a position one move after ``root``, or
    the parts disagree on the rule or lemmas.

    >>> from boardproof.models import get
    >>> if native.available():
    ...     game = get("minefield")
    ...     root = game.parse_position("3/3/3 b -")
    ...     move = root.parse_move("a2")
    ...     part = make_certificate(root.play(move), winner=0)
    ...     whole = compose(root, "b", [part], move)
    ...     print(whole.header["root"], len(whole.records) == len(part.records) + 1)
    ... else:
    ...     print("3/3/3 b - True")
    3/3/3 b - True
    """
    if not parts:
        raise CertificateFailed(f"no part to compose the certificate of {root.fen()}")
    base = parts[0].header
    children = {root.play(m).fen() for m in root.legal_moves()}
    for cert in parts:
        h = cert.header
        if h["winner"] != winner or h["root"] not in children or (
                h["rule"], h["win"], h["lemmas"], h["size"], h.get("variant")) != (
                base["rule"], base["win"], base["lemmas"], root.n,
                base.get("variant")):  # fmt: skip
            raise CertificateFailed(f"not a part of the certificate of {winner} at "
                                    f"{root.fen()}: {h['root']} ({h['winner']})")  # fmt: skip
    n, cells = root.n, root.n * root.n
    key_mask = (1 << (2 * cells + 1)) - 1
    listed: dict[int, int] = {}
    if move is not None:
        if root.play(move).fen() != parts[0].header["root"] or len(parts) != 1:
            raise CertificateFailed(f"the part is not the position after {move} in "
                                    f"{root.fen()}")  # fmt: skip
        search = native.search_for(n, base["rule"] == "orthodiagonal", wide=False,
                                   variant=base.get("variant", "standard"))  # fmt: skip
        search.activate()
        me, op, black = search.boards(root)
        a, b, kb, sym = search.canonical(me, op, black)
        code = search.tables.perms[sym][move.rank * n + move.file]
        listed[a | b << cells | (1 if kb else 0) << (2 * cells)] = (
            a | b << cells | (1 if kb else 0) << (2 * cells) | code << (2 * cells + 1))
    for cert in parts:
        for record in cert.records:
            listed.setdefault(record & key_mask, record)
    header = {"size": n, "win": base["win"], "rule": base["rule"], "root": root.fen(),
              "lemmas": list(base["lemmas"])}  # fmt: skip
    if "variant" in base:
        header["variant"] = base["variant"]
    nodes = sum(cert.header.get("made_by", {}).get("nodes", 0) for cert in parts)
    return fmt.Certificate.build(header, winner, sorted(listed.values()), nodes, 0.0)


def _fewest_open(me: int, op: int, black: bool, moves: int, tt_bits: int, c: Any,
                 listed: dict[tuple[int, int, int], int], scheme: int = 0) -> int:  # fmt: skip
    """Among the moves whose child the df-pn table proves at once (a probe of 2 nodes),
    the one that leaves the loser the fewest replies to a position of ours that is
    neither won in one nor listed already; -1: none."""
    best, best_open = -1, 1 << 30
    rest = moves
    while rest:
        low = rest & -rest
        rest ^= low
        child_me, child_op = op, me | low
        proved, _, _ = c.dfpn(child_me, child_op, not black, False, tt_bits, 2, 0.0, True,
                              scheme)  # fmt: skip
        if proved != 1:
            continue
        replies = c.legal(child_me, child_op, not black)  # the loser's (by colour)
        count = 0
        while replies and count < best_open:
            r = replies & -replies
            replies ^= r
            ours, theirs = child_op, child_me | r
            if not c.legal(ours, theirs, black) & c.winning(ours, black):
                ka, kb, kc, _ = c.canonical(ours, theirs, black)
                if (ka, kb, kc) not in listed:
                    count += 1
        if count < best_open:
            best, best_open = low.bit_length() - 1, count
    return best
