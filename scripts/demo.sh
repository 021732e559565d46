#!/usr/bin/env bash
# `make demo`: a tour of boardproof on every game. Writes its files under out/demo/.
set -euo pipefail
out=out/demo
mkdir -p "$out"
# the command as it can be pasted: words with spaces or shell characters in single quotes
quote() {
    local words=() word
    for word in "$@"; do
        if [[ $word =~ ^[A-Za-z0-9_./:=@%+,-]+$ ]]; then
            words+=("$word")
        else
            words+=("'${word//\'/\'\\\'\'}'")
        fi
    done
    printf '%s' "${words[*]}"
}
# bold on a terminal only: piped into a file, the echoed line is plain text to paste
if [[ -t 1 ]]; then bold=$'\033[1m' plain=$'\033[0m'; else bold='' plain=''; fi
step() { printf '\n%s$ %s%s\n' "$bold" "$(quote "$@")" "$plain"; "$@"; }

step boardproof games

echo; echo "== Minefield =="
step boardproof new minefield --size 5
step boardproof show minefield "wb3/1b1w1/1b3/1b1w1/1b1w1 w -" --svg "$out/minefield.svg"
step boardproof perft minefield "5/5/5/5/5 b p" 4
step boardproof solve minefield "4/4/4/4 b -" --proof "$out/minefield-4x4.proof.json"
step boardproof openings minefield --sizes 2-4 --out "$out/openings"
step boardproof check-proof "$out/minefield-4x4.proof.json"
step boardproof verify minefield-no-draw --sizes 2-8 --out "$out/no-draw" --fresh

echo; echo "== Carpniches =="
start="(cpc)4(pcp)/6/6/6/6/(pcp)4(cpc) c 1"
step boardproof new carpniches
step boardproof show carpniches "$start" --svg "$out/carpniches.svg"
step boardproof perft carpniches "$start" 3
step boardproof solve carpniches "(cpc)4p/3p2/6/4c1/6/(pcp)4(cpc) c -" --max-plies 5
step boardproof reach carpniches "$start" "(cp)4(pcp)/1c4/6/6/1p4/(pc)4(cpc) c -" --max-plies 4

echo; echo "== Candy Conquest =="
step boardproof new candy --players 3
step boardproof perft candy ".,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,./.,.,.,.,. 1 2" 2
step boardproof show candy ".,.,.,.,./.,.,.,.,./.,.,1Os2Sx3Xo,.,./.,.,.,.,./.,1xO,.,.,. 2 3" --svg "$out/candy.svg"

echo; echo "== ColleXion =="
step boardproof new collexion --players 2 --seed 7
P="base 1:g3<3.4,2:g4<4,3:y3,4:g8,5:p3<1,6:p4 g3.g5.y8:2:-/b3.p5:-:- 34/234/234/234 1"
step boardproof show collexion "$P" --svg "$out/collexion.svg"
step boardproof solve collexion "$P"

echo; echo "== Puzzles =="
step boardproof puzzle daily minefield --date 2026-11-29
step boardproof puzzle generate minefield --count 3 --seed 1 --out "$out/puzzles.jsonl"
step boardproof puzzle check "$out/puzzles.jsonl"
step boardproof puzzle daily collexion --date 2026-11-29
step boardproof puzzle generate collexion --count 3 --seed 1 --out "$out/collexion-puzzles.jsonl"
step boardproof puzzle check "$out/collexion-puzzles.jsonl"
step boardproof site --out "$out/site" --days 2 --date 2026-11-29
echo "open $out/site/index.html in a browser to play the puzzles;"
echo "boardproof serve starts the analysis board on http://127.0.0.1:8000/"

echo; echo "Pictures and proofs are in $out/."
