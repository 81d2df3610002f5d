# Voilà's configuration for the live book, found through JUPYTER_CONFIG_PATH (set by
# rulescore.cli.voila_env). Chapters are served without their worked-example checks.
from rulescore.serving import prelaunch_hook

c.VoilaConfiguration.prelaunch_hook = prelaunch_hook  # noqa: F821 (c is the config object)
