"""The certificates of the opening-table entries that budgeted attempts settled (issue 18).

An entry settled by one attempt has the certificate that attempt wrote from its own
df-pn table (from ``subtrees.GUIDED_CONFIRM_FROM`` on, in ``subtrees.attempt_folder`` of
the journal), else one made by a search of its own (``make_certificate`` with the
attempt's rules, table and budget). An entry settled **through its replies** (a split,
``subtrees.merge``) has one certificate composed of its parts' (``certify.compose``):
the winning reply's when the winner moves, every reply's when the loser moves, each part
found or made the same way, recursively. The composed file is an ordinary certificate of
the entry: ``check-proof`` checks it with the rules alone.

A :class:`Plan` says where each part comes from; :func:`searches` lists the searches it
still needs (their files go into the attempt folder, so a stopped run makes each once);
:func:`assemble` reads or composes the certificate once they are made.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from boardproof import models
from boardproof.models.minefield.native.certify import compose
from boardproof.models.minefield.proofs import certificate as fmt
from boardproof.models.minefield.research import subtrees

#: the node budget of the search that makes the certificate of a position whose side to
#: move loses, in times its attempt's budget (the attempt disproved the side to move; the
#: certificate needs the winner's proof, a search of its own)
LOSER_BUDGET_FACTOR = 4


@dataclass
class Plan:
    """The certificate of the position after ``line``: the file it is (or will be) in,
    the search that makes it if it is missing (``job``), or the parts it is composed of
    and the winner's move at the root (None: the loser moves there)."""

    line: str
    position: str
    winner: str
    path: str | None = None
    job: tuple[Any, ...] | None = None
    parts: list[Plan] = field(default_factory=list)
    move: str | None = None


def plan(n: int, line: str, value: dict[str, Any], folder: str, win: str,
         budget: int) -> Plan:  # fmt: skip
    """The plan of the certificate of ``value`` (an entry, or a part of one: position,
    winner, method, budget, parts) at ``line``; ``folder``: the attempt certificates'
    folder (the journal's ``subtrees.attempt_folder``); ``budget``: the run's, for the
    parts whose own is not known (a split's)."""
    node = Plan(line, value["position"], value["winner"])
    parts = value.get("parts")
    if parts and value.get("method") != "native df-pn":
        root = models.get("minefield", win=win).parse_position(value["position"])
        mover = root.game.symbol(root.to_move)
        node.move = parts[0]["reply"] if mover == value["winner"] else None
        node.parts = [plan(n, f"{line} {p['reply']}".strip(), p, folder, win, budget)
                      for p in parts]  # fmt: skip
        return node
    node.path = os.path.join(folder, subtrees.certificate_file(n, line))
    if not same_claim(node.path, value["position"], value["winner"]):
        budget = value.get("budget") or budget
        pos = models.get("minefield", win=win).parse_position(value["position"])
        if pos.game.symbol(pos.to_move) != value["winner"]:
            # the attempt disproved its side to move: the proof is a search with the
            # other attacker, which may take more nodes
            budget *= LOSER_BUDGET_FACTOR
        node.job = (value["position"], value["winner"], win, subtrees.RULES, subtrees.TABLE,
                    budget)  # fmt: skip
    return node


def searches(node: Plan) -> list[tuple[str, tuple[Any, ...]]]:
    """The searches the plan still needs: (the file to write, the certificate task of
    ``opening_certificates.make_entry_certificate``), each file once."""
    found: dict[str, tuple[Any, ...]] = {}
    stack = [node]
    while stack:
        here = stack.pop()
        if here.job is not None and here.path is not None:
            found.setdefault(here.path, here.job)
        stack.extend(reversed(here.parts))
    return list(found.items())


def leaves(node: Plan) -> list[str]:
    """The files a composed certificate's records come from (its parts', recursively),
    in order, each once; [] for a certificate that is not composed."""
    found: list[str] = []
    stack = list(reversed(node.parts))
    while stack:
        here = stack.pop()
        if here.path is not None and here.path not in found:
            found.append(here.path)
        stack.extend(reversed(here.parts))
    return found


def assemble(node: Plan, win: str) -> fmt.Certificate | None:
    """The certificate of the plan once its searches are made (None: a part is missing,
    e.g. its search failed)."""
    if not node.parts:
        if node.path is None or not same_claim(node.path, node.position, node.winner):
            return None
        return fmt.load_certificate(node.path)
    parts = [assemble(part, win) for part in node.parts]
    if any(part is None for part in parts):
        return None
    root = models.get("minefield", win=win).parse_position(node.position)
    move = None if node.move is None else root.parse_move(node.move)
    return compose(root, node.winner, [p for p in parts if p is not None], move)


def same_claim(path: str, root: str, winner: str, variant: str = "standard") -> bool:
    """Whether ``path`` is a readable certificate of ``winner`` at ``root`` (in
    ``variant``)."""
    if not os.path.exists(path):
        return False
    try:
        header = fmt.load_certificate(path).header
    except (OSError, fmt.ProofError):
        return False
    return bool(header.get("root") == root and header.get("winner") == winner
                and header.get("variant", "standard") == variant)  # fmt: skip
