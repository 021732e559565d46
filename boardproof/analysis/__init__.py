"""Analyses that use the solvers on whole games: game records and their review."""
