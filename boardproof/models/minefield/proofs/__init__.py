"""boardproof.models.minefield.proofs."""
