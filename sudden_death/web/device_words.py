"""The page's words for playing the computer on the device itself, with no server (issue 74):
its button on the start form, how far the game has loaded, and what went wrong when it could
not. Merged into `site.page_words`, from the same catalogs as every other word of the page."""

from __future__ import annotations

from ..language import _


def device_words() -> dict[str, str]:
    """Templates the page fills itself: {step} of {steps} as the game loads (page/device.js)."""
    return {
        # Translators: the browser page's start form: a game against the computer that runs
        # in the browser itself, with no server (and so with no network).
        "play_here": _("Play the computer on this device"),
        # Translators: the browser page, while the game it plays on the device loads ("step 1
        # of 3"): said as each step begins.
        "loading_here": _("Loading the game on this device: step {step} of {steps}."),
        "failed_here": _("The game could not be loaded on this device. Reload the page to "
                         "try again."),
        # Translators: the browser page, when Play the computer finds no table server (the
        # page was opened from a plain web host, or the network is gone): the game is played
        # in the browser instead.
        "no_server_here": _("No table server answers: you play the computer on this device."),
        # Translators: the browser page, said once when the whole game has been copied onto
        # the device (a phone's browser): from then on it opens and plays with no network.
        "kept_here": _("The game is kept on this device: it plays the computer with no "
                       "network."),
    }
