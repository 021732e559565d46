"""boardproof.review."""
