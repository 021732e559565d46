"""Claim verification and report rendering (Markdown, JSON, SVG, HTML)."""
