"""The rules engine: pure Python, no Jupyter imports. See DESIGN §1."""

from .errors import RulesError

__all__ = ["RulesError"]
__version__ = "0.1.0"
