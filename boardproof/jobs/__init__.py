"""boardproof.jobs."""
