#!/usr/bin/env bash
# `make demo`: a tour of boardproof on every game. Writes its files under out/demo/.
set -euo pipefail
out=out/demo
mkdir -p "$out"
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@"; }

step boardproof games

echo; echo "== Minefield =="
step boardproof new minefield --size 5
step boardproof show minefield "wb3/1b1w1/1b3/1b1w1/1b1w1 w -" --svg "$out/minefield.svg"
step boardproof perft minefield "5/5/5/5/5 b p" 4
step boardproof solve minefield "4/4/4/4 b -" --proof "$out/minefield-4x4.proof.json"
step boardproof check-proof "$out/minefield-4x4.proof.json"
step boardproof verify minefield-no-draw --sizes 2-8 --out "$out/no-draw" --fresh

echo; echo "== Carpniches =="
start="(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1"
step boardproof new carpniches
step boardproof show carpniches "$start" --svg "$out/carpniches.svg"
step boardproof perft carpniches "$start" 3

echo; echo "== Candy Conquest =="
step boardproof new candy --players 3
step boardproof perft candy ".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. 1 2" 2

echo; echo "== ColleXion =="
step boardproof new collexion --players 2 --seed 7

echo; echo "Pictures and proofs are in $out/."
