"""Game-agnostic solvers: they use only the game protocol of boardproof.models.base."""
