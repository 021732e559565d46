"""Fit the native move order ``order6`` on the winner's moves of the 6x6 certificates (#32).

Usage::

    .venv/bin/python benchmarks/minefield_order6.py extract --out /tmp/order6.npz \\
        [--per-cert 1500] [--seed 32] CERT...
    .venv/bin/python benchmarks/minefield_order6.py fit /tmp/order6.npz \\
        --train 'minefield-6x6-a3-*' [--columns 0-7,10,15,16] [--l2 1e-3]

``extract`` reads certificates (``*.cert.xz``): each listed position is a winner's
node with the move the proof plays. A sample of them (``--per-cert``, seeded) gives the
candidates the df-pn would search there under ``must3`` (legal, stopping every threat of
the other side, kept by the must-play rule) and the features of each
(``_minefield.features6``: the 8 of ``order`` and 9 more). Only one move of each position
is known to win (the certificate's); other candidates may win too, so top-1 below is a
lower bound on how often the order tries a winning move first.

``fit`` fits a conditional logit (a softmax over each position's candidates, the
certificate's move the label; numpy gradient descent, L2) on the entries whose file
names match ``--train`` and measures on **the other entries only**: top-1 (the
certificate's move first) and the mean rank of that move (0 = first), in point order,
in today's ``order`` (``W_ORDER`` of ``minefield.c``, its features 0-7) and in the fitted
one, ties broken by the lower point as in C. The integer weights (logit x32) for
``W_ORDER6`` are printed.
"""

from __future__ import annotations

import argparse
import fnmatch
import random
import sys
from pathlib import Path
from typing import Any

import numpy as np

from boardproof.models.minefield import native
from boardproof.models.minefield.proofs.certificate import load_certificate

#: today's W_ORDER (minefield.c), for the comparison
W_ORDER = np.array([13, -2, 14, 21, 6, -2, 12, 64], dtype=float)
NAMES = ("own orth", "own diag", "other orth", "other diag", "edge dist", "off centre",
         "own gain", "other loss", "own dist after", "other dist after", "threats made",
         "own groups", "other groups", "other legal lost", "own legal lost", "bridges",
         "edges touched")  # fmt: skip
#: the scale of the integer weights (score units per logit)
SCALE = 32


def candidates(lib: Any, me: int, op: int, black: bool) -> int:
    """The moves df-pn searches at a node under ``must3`` (a bit mask)."""
    legal = lib.legal(me, op, black)
    threats = lib.winning(op, not black) & ~me
    keep = 0
    for q in range(36):
        if not legal >> q & 1:
            continue
        if threats and threats & lib.legal(op, me | 1 << q, not black) & ~(1 << q):
            continue  # leaves the other side a win in one
        keep |= 1 << q
    return int(lib.must3(me, op, black, keep)) if keep else 0


def extract(paths: list[Path], per_cert: int, seed: int) -> dict[str, np.ndarray]:
    lib = native._native
    native.search_for(6, True, 16)
    feats, group, label, point, entry, stones = [], [], [], [], [], []
    names = []
    pos_id = 0
    for k, path in enumerate(paths):
        cert = load_certificate(str(path))
        n = cert.header["size"]
        if n != 6:
            raise SystemExit(f"{path}: size {n}, expected 6")
        names.append(path.name.removesuffix(".cert.xz"))
        cells = n * n
        mask = (1 << cells) - 1
        records = list(cert.records)
        random.Random(f"{seed}/{path.name}").shuffle(records)
        taken = 0
        for record in records:
            if taken >= per_cert:
                break
            me, op = record & mask, (record >> cells) & mask
            black, code = bool(record >> (2 * cells) & 1), record >> (2 * cells + 1)
            if code >= cells:
                continue  # a pass
            if lib.winning(me, black) & lib.legal(me, op, black):
                continue  # won in one (not searched)
            cand = candidates(lib, me, op, black)
            if not cand >> code & 1 or cand.bit_count() < 2:
                continue
            for q in range(cells):
                if cand >> q & 1:
                    feats.append(lib.features6(me, op, black, q))
                    group.append(pos_id)
                    label.append(q == code)
                    point.append(q)
                    entry.append(k)
                    stones.append((me | op).bit_count())
            pos_id += 1
            taken += 1
        print(f"{path.name}: {taken} positions", file=sys.stderr, flush=True)
    return {"x": np.array(feats, dtype=np.int16), "group": np.array(group, dtype=np.int32),
            "label": np.array(label, dtype=bool), "point": np.array(point, dtype=np.int8),
            "entry": np.array(entry, dtype=np.int16), "stones": np.array(stones, dtype=np.int8),
            "names": np.array(names)}


def ranks(scores: np.ndarray, group: np.ndarray, label: np.ndarray,
          point: np.ndarray) -> np.ndarray:
    """The rank of the labelled move in each group: higher score first, ties lower point
    first (as ``ordered_moves`` in C).

    >>> ranks(np.array([1., 3., 3., 0.]), np.array([0, 0, 0, 0]),
    ...       np.array([False, False, True, False]), np.array([0, 1, 2, 3]))
    array([1])
    """
    count = int(group.max()) + 1
    s_lab = np.zeros(count)
    p_lab = np.zeros(count)
    s_lab[group[label]] = scores[label]
    p_lab[group[label]] = point[label]
    ahead = (scores > s_lab[group]) | ((scores == s_lab[group]) & (point < p_lab[group]))
    return np.bincount(group, weights=ahead.astype(float), minlength=count).astype(int)


def columns(text: str) -> list[int]:
    """Feature columns from ``0-7,10``.

    >>> columns("0-2,10")
    [0, 1, 2, 10]
    """
    out: list[int] = []
    try:
        for part in text.split(","):
            low, _, high = part.partition("-")
            out += list(range(int(low), int(high or low) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected columns like 0-7,10, got {text!r}") from None
    if not out or min(out) < 0 or max(out) >= len(NAMES):
        raise argparse.ArgumentTypeError(f"columns 0..{len(NAMES) - 1}, got {text!r}")
    return out


def fit(x: np.ndarray, group: np.ndarray, label: np.ndarray, l2: float,
        steps: int = 1500, rate: float = 0.5) -> np.ndarray:
    """Conditional logit weights (per raw feature unit) by gradient descent."""
    mean, std = x.mean(axis=0), x.std(axis=0) + 1e-9
    z = (x - mean) / std
    w = np.zeros(x.shape[1])
    count = int(group.max()) + 1
    y = label.astype(float)
    for _ in range(steps):
        s = z @ w
        top = np.full(count, -np.inf)
        np.maximum.at(top, group, s)
        e = np.exp(s - top[group])
        p = e / np.bincount(group, weights=e, minlength=count)[group]
        grad = z.T @ (p - y) / count + l2 * w
        w -= rate * grad
    return w / std


def report(name: str, r: np.ndarray) -> str:
    return f"{name}: top-1 {np.mean(r == 0):.1%}, mean rank {r.mean():.2f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    ex = sub.add_parser("extract")
    ex.add_argument("certs", nargs="+", type=Path)
    ex.add_argument("--out", type=Path, required=True)
    ex.add_argument("--per-cert", type=int, default=1500)
    ex.add_argument("--seed", type=int, default=32)
    ft = sub.add_parser("fit")
    ft.add_argument("data", type=Path, nargs="+")
    ft.add_argument("--train", required=True, help="glob of the fitting entries' names")
    ft.add_argument("--l2", type=float, default=1e-3)
    ft.add_argument("--columns", type=columns, default=list(range(len(NAMES))),
                    help="the features to fit (e.g. 0-7,10,15,16; the others weigh 0)")
    args = ap.parse_args(argv)
    if args.cmd == "extract":
        data = extract(args.certs, args.per_cert, args.seed)
        np.savez_compressed(args.out, **data)  # type: ignore[arg-type]
        print(f"{len(data['names'])} certificates, {int(data['group'].max()) + 1} positions, "
              f"{len(data['label'])} candidates -> {args.out}")
        return 0
    parts = [dict(np.load(p)) for p in args.data]
    offset_g = offset_e = 0
    for part in parts:  # join the files: groups and entries numbered on
        part["group"] = part["group"] + offset_g
        part["entry"] = part["entry"] + offset_e
        offset_g = int(part["group"].max()) + 1
        offset_e += len(part["names"])
    data = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    names = data["names"]
    train_entry = np.array([fnmatch.fnmatch(str(n), args.train) for n in names])
    train = train_entry[data["entry"]]
    x = data["x"].astype(float)
    w = np.zeros(x.shape[1])
    w[args.columns] = fit(x[train][:, args.columns],
                          np.unique(data["group"][train], return_inverse=True)[1],
                          data["label"][train], args.l2)  # fmt: skip
    ints = np.round(w * SCALE).astype(int)
    print(f"# fitted on {int(train_entry.sum())} entries "
          f"({len(np.unique(data['group'][train]))} positions), held out "
          f"{int((~train_entry).sum())} entries")
    for nm, wf, k in zip(NAMES, w, ints, strict=False):
        print(f"{nm:>17}: {wf:+.3f}  (x{SCALE}: {k:+d})")
    print("W_ORDER6 = {" + ", ".join(str(int(k)) for k in ints) + "}")
    xi = data["x"].astype(float)
    for subset, title in ((~train, "held out"), (train, "fitted on (in-sample)")):
        g = np.unique(data["group"][subset], return_inverse=True)[1]
        lab, pt = data["label"][subset], data["point"][subset]
        print(f"## {title}: {g.max() + 1} positions, "
              f"{subset.sum() / (g.max() + 1):.1f} candidates a position")
        print(report("point order", ranks(np.zeros(subset.sum()), g, lab, pt)))
        print(report("order (W_ORDER)", ranks(xi[subset, :8] @ W_ORDER, g, lab, pt)))
        print(report("order6 (fitted, integer)",
                     ranks(xi[subset] @ ints, g, lab, pt)))
    held = ~train_entry
    print("## per held-out entry: top-1 order / order6, mean rank order / order6")
    for k in np.flatnonzero(held):
        sel = data["entry"] == k
        g = np.unique(data["group"][sel], return_inverse=True)[1]
        lab, pt = data["label"][sel], data["point"][sel]
        r0 = ranks(xi[sel, :8] @ W_ORDER, g, lab, pt)
        r1 = ranks(xi[sel] @ ints, g, lab, pt)
        print(f"{names[k]}: {g.max() + 1} positions, top-1 {np.mean(r0 == 0):.1%} / "
              f"{np.mean(r1 == 0):.1%}, mean rank {r0.mean():.2f} / {r1.mean():.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
