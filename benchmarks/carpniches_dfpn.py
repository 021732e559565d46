"""The native Carpniches df-pn against the native alpha-beta: time to settle the opening
report's questions, and nodes per second.

For each case (a first move, a bound N): the alpha-beta deepens to N (its ``iterate``);
the df-pn answers "the poodles win within N" and "the capybaras win within N" (both, as
the alpha-beta's value answers both), and for a proved win the exact length (one ply less
disproved) and its proof tree checked by the rules-only checker. Nodes: the alpha-beta's
visited positions; the df-pn's expansions (MID calls) and positions generated (each
child made and looked up).

Run (heavy: through /work/notes/heavy on a shared machine):
``.venv/bin/python benchmarks/carpniches_dfpn.py [--quick]``. One line per figure.
"""

from __future__ import annotations

import argparse
import time

from boardproof.models.carpniches import START_POSITION
from boardproof.models.carpniches.native import NativeAlphaBeta
from boardproof.models.carpniches.native.dfpn import NativeDFPN
from boardproof.solvers.proof import check_proof

TT_BITS = 22


def bench(move: str, plies: int, alphabeta: bool) -> None:
    pos = START_POSITION.play(START_POSITION.parse_move(move))
    if alphabeta:
        began = time.perf_counter()
        search = NativeAlphaBeta(pos, tt_bits=TT_BITS)
        result = search.iterate(plies)
        seconds = time.perf_counter() - began
        print(f"{move} alpha-beta to {plies}: {result.value} {result.plies} in {seconds:.2f} s, "
              f"{search.nodes} nodes = {search.nodes / seconds:,.0f} nodes/s")  # fmt: skip
    began = time.perf_counter()
    answers = []
    expansions = generated = 0
    proved = None
    for k, player in enumerate((pos.to_move, 1 - pos.to_move)):
        search_df = NativeDFPN(pos, player=player, max_plies=plies, tt_bits=TT_BITS,
                               keep_table=k > 0)  # fmt: skip
        answer = search_df.solve().proved
        expansions = search_df.nodes  # the C counters run from the first search's clear
        generated = search_df.generated
        answers.append(answer)
        if answer:
            proved = search_df
            break
    seconds = time.perf_counter() - began
    print(f"{move} df-pn within {plies} (p, c): {answers} in {seconds:.2f} s, {expansions} "
          f"expansions = {expansions / seconds:,.0f}/s, {generated} positions generated = "
          f"{generated / seconds:,.0f}/s")  # fmt: skip
    if proved is not None:
        began = time.perf_counter()
        exact = proved.shortest()
        print(f"{move} df-pn exact length {exact} (disproof of {plies - 1}) in "
              f"{time.perf_counter() - began:.2f} s")  # fmt: skip
        began = time.perf_counter()
        proof = proved.proof()
        built = time.perf_counter() - began
        began = time.perf_counter()
        report = check_proof(proof)
        print(f"{move} proof tree: {len(proof['nodes'])} nodes built in {built:.2f} s, "
              f"checked ({report.nodes} positions) in {time.perf_counter() - began:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="the small cases only")
    args = parser.parse_args()
    cases = [("f1-e1", 7, True), ("f1-d1", 11, True)]
    if not args.quick:
        cases += [("f1-c1", 13, True), ("f1-e2", 11, True), ("f1-e2", 12, True),
                  ("f1-e2", 13, False)]  # fmt: skip
    for move, plies, alphabeta in cases:
        bench(move, plies, alphabeta)


if __name__ == "__main__":
    main()
