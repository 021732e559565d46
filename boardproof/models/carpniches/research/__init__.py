"""boardproof.models.carpniches.research."""
