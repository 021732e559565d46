"""What the native (C) searches of every game share: the progress hook
(:mod:`.hook`) and the C headers ``table_memory.h``, ``progress_hook.h`` and
``playout_common.h`` that each game's C sources include."""

from collections.abc import Mapping

from boardproof.models.base import check_range

#: the largest node limit a C search takes: every one counts its nodes, and reads its
#: limit, as an unsigned 64-bit number (``K`` of ``PyArg_ParseTuple``, which wraps a larger
#: or negative number silently: 2**64 becomes 0, "no limit"); the bindings check theirs
MAX_NODES = 2**64 - 1


#: where the C modules' ranges come from, as their refusals say it
C_RANGE = "the range of the C search"


def check_ranges(ranges: Mapping[str, tuple[int, int]], why: str = C_RANGE,
                 **given: int | None) -> None:  # fmt: skip
    """Raise InvalidOptionError unless each given option (None: not given) lies in its
    range of ``ranges`` (inclusive), naming the option and ``why`` (where the range comes
    from): what each game's binding checks before it calls its C module.

    >>> check_ranges({"plies": (0, 250)}, "the C search", plies=None)
    >>> check_ranges({"plies": (0, 250)}, "the C search", plies=999)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
        ...
    boardproof...InvalidOptionError: invalid option plies: expected 0 to 250 (the C search), got 999
    """
    for name, value in given.items():
        if value is not None:
            low, high = ranges[name]
            check_range(name, value, low, high, why)
