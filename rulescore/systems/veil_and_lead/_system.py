"""The Veil & Lead's rules text and data: every module of the system reads them through
:data:`DATA`."""

from rulescore.systems import SystemData

DATA = SystemData("veil_and_lead")
