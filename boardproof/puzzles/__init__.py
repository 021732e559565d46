"""Puzzle generation, rating, daily selection and puzzle files."""
