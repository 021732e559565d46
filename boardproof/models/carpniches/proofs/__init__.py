"""boardproof.models.carpniches.proofs."""
