"""The exploding-d6 system's rules text and data: every module of the system reads them
through :data:`DATA`."""

from rulescore.systems import SystemData

DATA = SystemData("exploding_d6")
