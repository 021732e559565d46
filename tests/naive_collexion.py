"""A naive, separately written reference for ColleXion turns (tests only).

Plain loops over dicts and lists, deep copies everywhere, nothing shared with
``boardproof.models.collexion``: it reads the position text itself, lists every
whole turn in the documented canonical order and writes the position after
each, so the model's ``legal_moves`` and ``play`` can be checked against it.
"""

from __future__ import annotations

import copy

COLS = "gybp"
SHPS = "3458"
ORDER = [c + s for c in COLS for s in SHPS]


def read(text: str) -> dict:
    variant, box, players, piles, turn = text.split()
    state: dict = {"variant": variant, "box": {}, "coll": [], "tok": [], "pow": [], "piles": []}
    if box != "-":
        for entry in box.split(","):
            head, _, under = entry.partition("<")
            pid, poly = head.split(":")
            state["box"][int(pid)] = (poly, [int(x) for x in under.split(".")] if under else [])
    for entry in players.split("/"):
        coll, tok, pw = entry.split(":")
        state["coll"].append([] if coll == "-" else coll.split("."))
        state["tok"].append([] if tok == "-" else [int(t) for t in tok.split(".")])
        state["pow"].append("" if pw == "-" else pw)
    for pile in piles.split("/"):
        state["piles"].append([] if pile == "-" else [int(t) for t in pile])
    state["player"] = int(turn[0]) - 1
    state["final"] = turn.endswith("!")
    return state


def write(state: dict) -> str:
    ids = sorted(state["box"])
    parts = []
    for pid in ids:
        poly, under = state["box"][pid]
        on = sorted(x for x in under if x in state["box"])
        parts.append(f"{pid}:{poly}" + ("<" + ".".join(str(x) for x in on) if on else ""))
    players = []
    for k in range(len(state["coll"])):
        coll = sorted(state["coll"][k], key=ORDER.index)
        tok = sorted(state["tok"][k])
        pw = "".join(c for c in "rsx" if c in state["pow"][k])
        players.append(
            (".".join(coll) or "-")
            + ":"
            + (".".join(str(t) for t in tok) or "-")
            + ":"
            + (pw or "-")
        )
    piles = "/".join("".join(str(t) for t in p) or "-" for p in state["piles"])
    turn = str(state["player"] + 1) + ("!" if state["final"] else "")
    return " ".join([state["variant"], ",".join(parts) or "-", "/".join(players), piles, turn])


def is_free(state: dict, pid: int) -> bool:
    return all(other not in state["box"] for other in state["box"][pid][1])


def is_over(state: dict) -> bool:
    no_tokens = all(len(p) == 0 for p in state["piles"])
    return state["player"] == 0 and not state["final"] and (len(state["box"]) == 0 or no_tokens)


def enemies(state: dict, me: int) -> list[int]:
    n = len(state["coll"])
    if state["variant"] == "teams":
        return [q for q in range(n) if q % 2 != me % 2]
    return [q for q in range(n) if q != me]


def powers(state: dict, me: int, letters: str, spend: bool) -> list[tuple[str, dict]]:
    out = []
    if "r" in letters:
        for pid in sorted(state["box"]):
            if is_free(state, pid):
                s = copy.deepcopy(state)
                del s["box"][pid]
                if spend:
                    s["pow"][me] = s["pow"][me].replace("r", "")
                out.append((f"r{pid}", s))
    if "s" in letters:
        for q in enemies(state, me):
            for poly in ORDER:
                if poly in state["coll"][q]:
                    s = copy.deepcopy(state)
                    s["coll"][q].remove(poly)
                    s["coll"][me].append(poly)
                    if spend:
                        s["pow"][me] = s["pow"][me].replace("s", "")
                    out.append((f"s{q + 1}{poly}", s))
    if "x" in letters:
        for mine in ORDER:
            if mine not in state["coll"][me]:
                continue
            for q in enemies(state, me):
                for theirs in ORDER:
                    if theirs in state["coll"][q]:
                        s = copy.deepcopy(state)
                        s["coll"][me].remove(mine)
                        s["coll"][q].append(mine)
                        s["coll"][q].remove(theirs)
                        s["coll"][me].append(theirs)
                        if spend:
                            s["pow"][me] = s["pow"][me].replace("x", "")
                        out.append((f"x{mine}={q + 1}{theirs}", s))
    return out


def take_lists(state: dict, me: int, taken: list[int], last: str | None) -> list:
    out = []
    if len(taken) == 4:
        return out
    for pid in sorted(state["box"]):
        if not is_free(state, pid):
            continue
        poly = state["box"][pid][0]
        if last is not None and poly[0] != last[0] and poly[1] != last[1]:
            continue
        s = copy.deepcopy(state)
        del s["box"][pid]
        s["coll"][me].append(poly)
        now = taken + [pid]
        out.append((now, s))
        out.extend(take_lists(s, me, now, poly))
    return out


def full_sets(coll: list[str]) -> list[str]:
    found = []
    for c in COLS:
        if all(c + s in coll for s in SHPS):
            found.append(c)
    for s in SHPS:
        if all(c + s in coll for c in COLS):
            found.append(s)
    return found


def hand_ins(state: dict, who: int) -> list[tuple[list[str], dict]]:
    found = full_sets(state["coll"][who])
    if not found:
        return [([], state)]
    out = []
    for kind in found:
        if kind in COLS:
            choices = [(kind, COLS.index(kind))]
            members = [kind + s for s in SHPS]
        else:
            members = [c + kind for c in COLS]
            sizes = [len(p) for p in state["piles"] if p]
            if sizes:
                smallest = min(sizes)
                choices = [
                    (kind + COLS[i], i)
                    for i in range(4)
                    if state["piles"][i] and len(state["piles"][i]) == smallest
                ]
            else:
                choices = [(kind + "-", -1)]
        for name, pile in choices:
            s = copy.deepcopy(state)
            for m in members:
                s["coll"][who].remove(m)
            if pile >= 0 and s["piles"][pile]:
                s["tok"][who].append(s["piles"][pile].pop(0))
            for rest, s2 in hand_ins(s, who):
                out.append(([name] + rest, s2))
    return out


def end_turn(state: dict) -> dict:
    s = copy.deepcopy(state)
    if len(s["box"]) == 0 or all(len(p) == 0 for p in s["piles"]):
        s["final"] = True
    s["player"] = (s["player"] + 1) % len(s["coll"])
    if s["final"] and s["player"] == 0:
        s["final"] = False
    return s


def turns(text: str) -> list[tuple[str, str]]:
    """Every whole turn of ``text`` with the position after it, canonical order."""
    state = read(text)
    if is_over(state):
        return []
    me = state["player"]
    variant = state["variant"]
    result = []
    firsts = [("", state)]
    if variant == "powers":
        firsts += powers(state, me, state["pow"][me], True)
    for pw, s1 in firsts:
        takes = take_lists(s1, me, [], None)
        if s1["final"]:
            takes = [([], s1)] + takes
        for taken, s2 in takes:
            polys = [state["box"][pid][0] for pid in taken]
            bonus = [("", s2)]
            if variant == "expert" and len(set(polys)) < len(polys):
                bonus += powers(s2, me, "rsx", False)
            for bn, s3 in bonus:
                gifts = [False, True] if variant == "teams" and taken else [False]
                for gift in gifts:
                    s4 = copy.deepcopy(s3)
                    if gift:
                        s4["coll"][me].remove(polys[-1])
                        s4["coll"][(me + 2) % 4].append(polys[-1])
                    for sets, s5 in hand_ins(s4, me):
                        partner_options = hand_ins(s5, (me + 2) % 4) if gift else [([], s5)]
                        for psets, s6 in partner_options:
                            name = ".".join(str(x) for x in taken) or "pass"
                            if pw:
                                name = pw + ":" + name
                            if bn:
                                name += "+" + bn
                            if sets:
                                name += "/" + ".".join(sets)
                            if gift:
                                name += ">" + ".".join(psets)
                            result.append((name, write(end_turn(s6))))
    return result


def score(text: str) -> list[int]:
    """Each player's own score."""
    state = read(text)
    return [
        sum(state["tok"][k]) + len(state["pow"][k]) - len(state["coll"][k])
        for k in range(len(state["coll"]))
    ]
