"""Carpniches' CP-SAT models (:mod:`.cp`): line distance, bounded reachability, win
bounds."""
