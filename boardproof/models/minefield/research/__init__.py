"""boardproof.models.minefield.research."""
