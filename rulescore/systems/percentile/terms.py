"""The percentile seed's fixed vocabularies (success levels, shades, aspects, defences, shock
states) and the bounds on dice typed in, shared by its rules modules and its table checks."""

LEVELS = ("CF", "F", "S", "CS")
SHADES = ("none", "white", "grey", "black")
ASPECTS = ("B", "E", "P", "F")
DEFENCES = ("Block", "Counterstrike", "Dodge", "Ignore")
SHOCK_STATES = (None, "STN", "INC", "UNC", "KIA")  # mildest first
MAX_DIE = 100  # the largest die the seed rolls (d100): a bound on zone and impact dice
MAX_ZONE_DICE = 6  # one Zone Die plus five Precision TAs, beyond any victory's TAs
MAX_TYPED_DICE = 40  # dice typed for one walker; a whole shot or strike uses fewer than 10
