"""The local analysis board: ``boardproof serve`` (Starlette + uvicorn, extra ``boardproof[web]``).

- :mod:`boardproof.web.api` computes the JSON answers (plain functions over the
  library, no web framework): a position with its legal moves and clickable picture,
  a line played, a bounded solve in a child process;
- :mod:`boardproof.web.app` is the Starlette application around them.
"""
