"""Bundled plugin ``calendar``: local .ics files (see ``plugin``)."""

from plugins.bundled.calendar.plugin import CalendarSettings, make_register, register

__all__ = ["CalendarSettings", "make_register", "register"]
