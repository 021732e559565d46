"""boardproof: solvers and puzzle analysis for four abstract board games.

>>> from boardproof import models
>>> "minefield" in models.names()
True
"""

__version__ = "0.1.0"
