"""Plugins shipped with the app: notes, calendar, memory.

``BUNDLED`` maps each name to its ``register(api)``; the loader treats them
like any other plugin (they can be disabled in config).
"""

from plugins.bundled import memory, notes
from plugins.bundled.calendar import register as _calendar_register

__all__ = ["BUNDLED"]

BUNDLED = {
    "notes": notes.register,
    "calendar": _calendar_register,
    "memory": memory.register,
}
