"""OR-Tools CP-SAT models (Carpniches: line distance, bounded reachability, win bounds)."""
