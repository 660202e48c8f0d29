"""Report a problem in words: its item, where the report went, why it could not be written,
and the one sentence offered after a fault notice (said once a session, so a normal down
never grows by it)."""

from __future__ import annotations

from pathlib import Path

from ...language import _


def report_item() -> str:
    # Translators: an item on the title screen and in settings: writes a problem report.
    return _("Report a problem")


def report_written(path: Path, copied: bool) -> str:
    if copied:
        # Translators: {path} is the whole path of the report file written.
        return _("A problem report was written to {path}, and its path copied to the "
                 "clipboard. Send that file to whoever helps you.").format(path=path)
    # Translators: {path} is the whole path of the report file written.
    return _("A problem report was written to {path}. Send that file to whoever helps "
             "you.").format(path=path)


def report_failed(reason: str) -> str:
    # Translators: {reason} is the system's reason, which may be in English.
    return _("The problem report could not be written: {reason}.").format(reason=reason)


def report_offer() -> str:
    # Translators: said once, after the first fault notice of a session.
    return _("To tell someone, choose Report a problem on the title screen or in settings.")
