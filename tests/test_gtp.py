"""``boardproof gtp``: the Go Text Protocol, checked with a client written from the
specification (GTP version 2: commands with optional numeric ids, ``=``/``?`` answers
ended by an empty line), a scripted exchange per game, error answers for malformed
input, and a whole game between two engine processes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BOARDPROOF = Path(sys.executable).parent / "boardproof"


class GtpClient:
    """A GTP controller: sends numbered commands, reads each answer to its empty line."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen([str(BOARDPROOF), "gtp", *args], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)  # fmt: skip
        self.next_id = 1

    def send(self, command: str) -> tuple[bool, str]:
        """(success, answer text) of ``command``; the answer's id must be the command's."""
        assert self.process.stdin is not None and self.process.stdout is not None
        ident = self.next_id
        self.next_id += 1
        self.process.stdin.write(f"{ident} {command}\n")
        self.process.stdin.flush()
        lines = []
        while True:
            line = self.process.stdout.readline()
            assert line, f"the engine closed its output after {command!r}"
            if line == "\n":
                break
            lines.append(line.rstrip("\n"))
        first = lines[0]
        assert first[0] in "=?", first
        head, _, rest = first.partition(" ")
        assert head[1:] == str(ident), (command, first)
        text = "\n".join([rest, *lines[1:]]) if lines[1:] else rest
        return first[0] == "=", text

    def ok(self, command: str) -> str:
        success, text = self.send(command)
        assert success, f"{command!r}: ? {text}"
        return text

    def fails(self, command: str) -> str:
        success, text = self.send(command)
        assert not success, f"{command!r} should fail, got = {text}"
        return text

    def close(self) -> None:
        if self.process.poll() is None:
            self.ok("quit")
        self.process.wait(10)
        assert self.process.returncode == 0


@pytest.fixture
def minefield() -> GtpClient:
    client = GtpClient("minefield", "--iterations", "60")
    yield client
    client.close()


def test_the_required_commands(minefield: GtpClient) -> None:
    assert minefield.ok("protocol_version") == "2"
    assert minefield.ok("name") == "boardproof"
    assert minefield.ok("version")
    commands = minefield.ok("list_commands").split("\n")
    for name in ("boardsize", "clear_board", "play", "genmove", "undo", "showboard",
                 "final_score", "time_settings", "time_left", "gogui-rules_game_id",
                 "gogui-rules_legal_moves", "gogui-rules_board"):
        assert name in commands
        assert minefield.ok(f"known_command {name}") == "true"
    assert minefield.ok("known_command frobnicate") == "false"


def test_minefield_vertices_skip_i_and_map_to_the_notation(minefield: GtpClient) -> None:
    minefield.ok("boardsize 11")
    minefield.ok("play b J5")  # GTP's J is the notation's i
    minefield.ok("play w swap")  # the players change seats; the stone stays, White moves
    board = minefield.ok("showboard")
    assert board.splitlines()[-1] == "11/11/11/11/11/11/8b2/11/11/11/11 w -"
    assert minefield.fails("play w I3") == "invalid vertex: GTP has no column I, got 'I3'"
    legal = minefield.ok("gogui-rules_legal_moves").split()
    assert "J5" not in legal and "I5" not in legal and "K5" in legal and len(legal) == 120
    assert minefield.ok("gogui-rules_game_id") == "Minefield"
    assert minefield.ok("gogui-rules_board_size") == "11"
    assert minefield.ok("gogui-rules_side_to_move") == "white"
    rows = minefield.ok("gogui-rules_board").split("\n")[1:]
    assert rows[6] == "........X.." and len(rows) == 11


def test_genmove_plays_and_undo_takes_back(minefield: GtpClient) -> None:
    minefield.ok("boardsize 5")
    minefield.ok("play b c3")
    legal = minefield.ok("gogui-rules_legal_moves").split()
    assert "swap" in legal
    reply = minefield.ok("genmove w")
    assert reply in legal
    after = minefield.ok("showboard").splitlines()[-1]
    minefield.ok("undo")
    assert minefield.ok("showboard").splitlines()[-1] == "5/5/2b2/5/5 w p" != after
    minefield.ok("clear_board")
    assert minefield.fails("undo") == "cannot undo"
    minefield.ok("play b a1")
    minefield.ok("undo")
    assert minefield.ok("showboard").splitlines()[-1] == "5/5/5/5/5 b p"


def test_a_won_game_is_scored_and_refuses_more_moves() -> None:
    client = GtpClient("minefield", "--no-pie", "--iterations", "30")
    try:
        client.ok("boardsize 3")
        for colour, vertex in (("b", "B1"), ("w", "A1"), ("b", "B2"), ("w", "A2"),
                               ("b", "B3")):  # fmt: skip
            client.ok(f"play {colour} {vertex}")
        assert client.ok("final_score") == "B+"
        assert client.ok("gogui-rules_final_result") == "Black wins"
        assert client.ok("gogui-rules_legal_moves") == ""
        assert client.fails("play w C1") == "illegal move: the game is over"
        assert client.fails("genmove w") == "the game is over"
    finally:
        client.close()


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ("frobnicate", "unknown command"),
        ("play", "syntax error"),
        ("play b", "syntax error"),
        ("play purple c3", "invalid colour"),
        ("play w c3", "w is not to move"),
        ("play b z99", "invalid"),
        ("play b c", "invalid vertex"),
        ("boardsize 0", "unacceptable size"),
        ("boardsize 26", "unacceptable size"),
        ("boardsize x", "unacceptable size"),
        ("time_settings a b c", "syntax error"),
        ("time_settings -1 0 0", "negative"),
        ("time_left b x 0", "syntax error"),
        ("genmove", "syntax error"),
        ("final_score", "not over"),
        ("undo", "cannot undo"),
    ],
)
def test_malformed_commands_get_error_answers(minefield: GtpClient, command: str,
                                              words: str) -> None:  # fmt: skip
    assert words in minefield.fails(command)
    assert minefield.ok("protocol_version") == "2"  # the engine goes on


def test_preprocessing_comments_control_characters_and_empty_lines() -> None:
    process = subprocess.run([str(BOARDPROOF), "gtp", "minefield", "--iterations", "10"],
                             input="# a comment\n\n\x01name\x02\n7 \tversion # c\n3\nquit\n",
                             capture_output=True, text=True, timeout=60)  # fmt: skip
    assert process.returncode == 0
    answers = process.stdout.split("\n\n")
    assert answers[0] == "= boardproof"
    assert answers[1].startswith("=7 ")
    assert answers[2] == "?3 no command"


@pytest.mark.parametrize(
    ("game", "moves"),
    [
        ("carpniches", ["c f1-e2"]),
        ("candy", ["1 Os@c3"]),
        ("collexion", []),
    ],
)
def test_the_other_games_speak_their_notation(game: str, moves: list[str]) -> None:
    client = GtpClient(game, "--iterations", "20")
    try:
        for move in moves:
            client.ok(f"play {move}")
        symbol = client.ok("gogui-rules_side_to_move")
        assert client.ok(f"genmove {symbol}")
        assert client.fails("boardsize 9") == "unacceptable size"
        assert f"{game} has no GoGui board" in client.fails("gogui-rules_board")
        assert client.ok("showboard")
    finally:
        client.close()


def test_a_whole_game_between_two_engine_processes() -> None:
    """Two ``boardproof gtp`` processes play 5x5 Minefield through a controller: every
    move one generates is legal for the other, and both score the end alike."""
    black = GtpClient("minefield", "--no-pie", "--iterations", "40", "--engine-seed", "1")
    white = GtpClient("minefield", "--no-pie", "--iterations", "40", "--engine-seed", "2")
    try:
        for engine in (black, white):
            engine.ok("boardsize 5")
        players = {"b": (black, white), "w": (white, black)}
        colour = "b"
        for _ in range(60):
            if black.ok("gogui-rules_final_result") != "unknown":
                break
            mover, other = players[colour]
            move = mover.ok(f"genmove {colour}")
            other.ok(f"play {colour} {move}")
            colour = "w" if colour == "b" else "b"
        result = black.ok("final_score")
        assert result in ("B+", "W+")
        assert white.ok("final_score") == result
        assert black.ok("showboard").splitlines()[-1] == white.ok("showboard").splitlines()[-1]
    finally:
        black.close()
        white.close()
