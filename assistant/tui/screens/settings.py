"""The settings screen: every setting in effect, from the same layered config
as the CLI (defaults < config.toml < .assistant.toml < environment), with
validated edits for this session (new tasks use them)."""

from __future__ import annotations

from pydantic import ValidationError
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Footer, Input, Static

from assistant.infra import paths
from assistant.config import ConfigError, Settings

__all__ = ["SettingsScreen", "settings_rows", "apply_setting"]

_SECTIONS = ("model", "agent", "web")
_TRUE, _FALSE = {"true", "yes", "on", "1"}, {"false", "no", "off", "0"}


def settings_rows(config: Settings) -> list[tuple[str, str, str]]:
    """``(key, value, environment variable)`` for every scalar setting; keys are
    dotted (``agent.max_steps``), the variable is ``ASSISTANT_AGENT__MAX_STEPS``."""
    rows = []
    for section in _SECTIONS:
        for key, value in getattr(config, section).model_dump().items():
            if isinstance(value, (dict, list)):
                continue
            dotted = f"{section}.{key}"
            rows.append((dotted, "" if value is None else str(value), "ASSISTANT_" + dotted.upper().replace(".", "__")))
    return rows


def apply_setting(config: Settings, key: str, text: str) -> Settings:
    """A copy of ``config`` with ``key`` ("section.name") set from ``text``
    (validated like the config file: "" clears an optional value, booleans
    accept true/false/yes/no/on/off).

    Raises:
        ConfigError: unknown key or invalid value (one line naming the key).
    """
    section, _, name = key.partition(".")
    if section not in _SECTIONS or not name:
        raise ConfigError(f"unknown setting {key!r}")
    current = getattr(config, section)
    data = current.model_dump()
    if name not in data:
        raise ConfigError(f"unknown setting {key!r}")
    value: object = text.strip()
    if isinstance(data[name], bool):
        low = str(value).lower()
        if low not in _TRUE | _FALSE:
            raise ConfigError(f"{key}: expected true or false, not {text!r}")
        value = low in _TRUE
    elif value == "":
        value = None
    try:
        updated = type(current).model_validate({**data, name: value})
    except ValidationError as exc:
        raise ConfigError(f"{key}: {exc.errors()[0].get('msg', 'invalid value')}") from None
    return config.model_copy(update={section: updated})


class _EditValue(ModalScreen[str | None]):
    """Asks for a new value of one setting."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    DEFAULT_CSS = """
    _EditValue { align: center middle; }
    _EditValue > Vertical { width: 70; height: auto; border: thick $primary; background: $surface; padding: 0 1; }
    """

    def __init__(self, key: str, value: str) -> None:
        super().__init__()
        self.key, self.value = key, value

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"New value for {self.key} (Enter saves for this session, Esc cancels)")
            yield Input(value=self.value, id="edit-value")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class SettingsScreen(Screen[Settings | None]):
    """Shows the settings; Enter edits the highlighted one for this session.
    Dismisses with the edited :class:`Settings` (None when nothing changed)."""

    BINDINGS = [Binding("escape", "close", "Back"), Binding("enter", "edit", "Edit", priority=True)]

    DEFAULT_CSS = """
    SettingsScreen Static { padding: 0 1; }
    SettingsScreen DataTable { height: 1fr; }
    """

    def __init__(self, config: Settings) -> None:
        super().__init__()
        self.config = config
        self.changed = False

    def compose(self) -> ComposeResult:
        yield Static(Text(f"Settings in effect. Enter edits one for this session; to keep it, put it in "
                          f"{paths.user_config_file()} or .assistant.toml.", style="bold"))
        yield DataTable(cursor_type="row", zebra_stripes=True)
        yield Static("", id="settings-error")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns("setting", "value", "environment variable")
        self._fill()
        table.focus()

    def _fill(self) -> None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        table.clear()
        for key, value, env in settings_rows(self.config):
            table.add_row(key, value, env, key=key)
        if row is not None and table.row_count:
            table.move_cursor(row=min(row, table.row_count - 1))

    def action_edit(self) -> None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return
        key, value, _ = settings_rows(self.config)[table.cursor_row]

        def done(text: str | None) -> None:
            if text is None:
                return
            try:
                self.config = apply_setting(self.config, key, text)
            except ConfigError as exc:
                self.query_one("#settings-error", Static).update(Text(str(exc), style="bold red"))
                return
            self.changed = True
            self.query_one("#settings-error", Static).update("")
            self._fill()

        self.app.push_screen(_EditValue(key, value), done)

    def action_close(self) -> None:
        self.dismiss(self.config if self.changed else None)
