"""TSL's rules text and data: every module of the system reads them through :data:`DATA`."""

from rulescore.systems import SystemData

#: TSL's combat rules are §11 of its primer, so every reference starts "11 ".
DATA = SystemData("tsl", section_prefix="11 ")
