"""The rules engine: pure Python, no Jupyter imports. See DESIGN §1."""

from .errors import RulesError
from .history import History
from .roster import Column, Fighter, Roster, RosterFormat

__all__ = ["RulesError", "Column", "Fighter", "History", "Roster", "RosterFormat"]
__version__ = "0.1.0"
