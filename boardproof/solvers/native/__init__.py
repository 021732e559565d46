"""What the native (C) searches of every game share: the progress hook
(:mod:`.hook`) and the C headers ``table_memory.h``, ``progress_hook.h`` and
``playout_common.h`` that each game's C sources include."""

#: the largest node limit a C search takes: every one counts its nodes, and reads its
#: limit, as an unsigned 64-bit number (``K`` of ``PyArg_ParseTuple``, which wraps a larger
#: or negative number silently: 2**64 becomes 0, "no limit"); the bindings check theirs
MAX_NODES = 2**64 - 1
