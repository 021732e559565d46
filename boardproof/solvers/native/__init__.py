"""What the native (C) searches of every game share: the progress hook
(:mod:`.hook`) and the C headers ``table_memory.h``, ``progress_hook.h`` and
``playout_common.h`` that each game's C sources include."""
