# Voilà's configuration for the live book, found through JUPYTER_CONFIG_PATH (set by
# rulebook.cli.voila_env). What it sets, and why, is in rulebook/live.py; the places it reaches
# into Voilà or jupyter_server are listed in rulebook/patches.py.
from rulebook.live import configure

configure(c)  # noqa: F821 (c is the config object)
