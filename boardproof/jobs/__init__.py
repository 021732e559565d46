"""Long jobs: the executor that runs independent tasks in this process, a local process
pool or on Dask (:mod:`.executor`), their checkpoints (:mod:`.checkpoints`) and progress
(:mod:`.progress`). Nothing here knows a game."""
