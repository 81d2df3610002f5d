"""The percentile system's rules text and data: every module of the system reads them through
:data:`DATA`, which also runs the system's own table checks."""

from rulescore.systems import SystemData

from .table_checks import check_table

DATA = SystemData("percentile", check=check_table)
