"""Plugin API and loader: discovery, enable/disable, failures reported not fatal."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from pydantic import BaseModel

from plugins import PluginAPI, PluginError, bundled_plugins, load_plugins
from plugins.loader import is_enabled
from tools.base import RiskClass, Tool, ToolContext

GOOD = textwrap.dedent(
    '''
    from pydantic import BaseModel
    from tools.base import RiskClass, Tool

    class Settings(BaseModel):
        greeting: str = "hello"

    class Args(BaseModel):
        name: str

    def register(api):
        s = api.settings(Settings)
        api.add_tool(Tool("greet", "Greet someone.", Args,
                          lambda ctx, p: f"{s.greeting}, {p.name}", RiskClass.READ))
        api.add_slash_command("hi", lambda ctx, arg: "hi " + arg, "say hi")
        api.add_system_prompt(lambda ctx: "Be nice.")
    '''
)


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    path.write_text(text)
    return path


def load(tmp_path: Path, config=None, **kw):
    return load_plugins(config or {}, user_dir=tmp_path / "plugins", include_bundled=False,
                        entry_points=False, **kw)


def test_user_folder_plugin_registers_tools_commands_settings_and_prompt(tmp_path):
    write(tmp_path / "plugins", "greeter", GOOD)
    report = load(tmp_path, {"plugins": {"greeter": {"greeting": "ahoy"}}})
    assert report.failures == []
    p = report.get("greeter")
    assert p is not None and p.origin.endswith("greeter.py")
    tool = p.tools[0]
    assert tool.name == "greet" and tool.source == "greeter"
    assert tool.invoke(ToolContext(), tool.validate({"name": "Ann"})).text == "ahoy, Ann"
    assert p.slash_commands["hi"](ToolContext(), "there") == "hi there"
    assert p.slash_help["hi"] == "say hi"
    assert p.system_prompt(ToolContext()) == "Be nice."
    assert p.settings.greeting == "ahoy"
    assert [t.name for t in report.tools()] == ["greet"]


@pytest.mark.parametrize(
    "source, expected",
    [
        ("import no_such_module_xyz\n", "ModuleNotFoundError"),
        ("x = 1\n", "defines no register"),
        ("def register(api):\n    raise RuntimeError('boom\\nsecond line')\n", "RuntimeError: boom second line"),
        ("def register(api):\n    import sys; sys.exit(1)\n", "SystemExit"),
        ("def register(:\n", "SyntaxError"),
        ("from tools.base import Tool\nfrom pydantic import BaseModel\nclass A(BaseModel): pass\n"
         "def register(api):\n    api.add_tool(Tool('Bad-Name', 'x', A, lambda c, p: ''))\n", "must match"),
    ],
)
def test_broken_plugin_is_reported_on_one_line_and_others_still_load(tmp_path, source, expected):
    write(tmp_path / "plugins", "aaa_broken", source)
    write(tmp_path / "plugins", "greeter", GOOD)
    report = load(tmp_path)
    assert [p.name for p in report.plugins] == ["greeter"]
    (name, error), = report.failures
    assert name == "aaa_broken" and expected in error and "\n" not in error


def test_bad_settings_are_a_failure_naming_the_key(tmp_path):
    write(tmp_path / "plugins", "greeter", GOOD)
    report = load(tmp_path, {"plugins": {"greeter": {"greeting": ["not", "a", "string"]}}})
    assert report.plugins == []
    assert "greeting" in report.failures[0][1] and "[plugins.greeter]" in report.failures[0][1]


def test_disabled_plugins_are_not_imported(tmp_path):
    marker = tmp_path / "imported"
    write(tmp_path / "plugins", "sneaky", f"open({str(marker)!r}, 'w').write('x')\ndef register(api): pass\n")
    write(tmp_path / "plugins", "greeter", GOOD)
    for config in ({"plugins": {"disabled": ["sneaky", "greeter"]}},
                   {"plugins": {"sneaky": {"enabled": False}, "greeter": {"enabled": False}}}):
        report = load(tmp_path, config)
        assert report.plugins == [] and sorted(report.disabled) == ["greeter", "sneaky"]
    assert not marker.exists()


def test_enabled_key_is_not_passed_to_settings(tmp_path):
    write(tmp_path / "plugins", "greeter", GOOD.replace("class Settings(BaseModel):",
                                                        "class Settings(BaseModel, extra='forbid'):"))
    report = load(tmp_path, {"plugins": {"greeter": {"enabled": True}}})
    assert report.failures == [] and report.get("greeter")


def test_tool_name_clash_with_builtins_or_other_plugin_fails_the_later_one(tmp_path):
    write(tmp_path / "plugins", "greeter", GOOD)
    write(tmp_path / "plugins", "greeter2", GOOD)
    report = load(tmp_path)
    assert [p.name for p in report.plugins] == ["greeter"]
    assert "already provided by plugin 'greeter'" in dict(report.failures)["greeter2"]
    report = load(tmp_path, reserved_tools=["greet"])
    assert report.plugins == [] and "built-in tools" in report.failures[0][1]


def test_private_files_and_missing_folder_are_ignored(tmp_path):
    write(tmp_path / "plugins", "_helper", "raise RuntimeError('must not import')\n")
    assert load(tmp_path).failures == []
    assert load_plugins({}, user_dir=tmp_path / "nope", include_bundled=False, entry_points=False).plugins == []


def test_is_enabled_reads_both_forms():
    assert is_enabled({}, "x")
    assert not is_enabled({"plugins": {"disabled": ["x"]}}, "x")
    assert not is_enabled({"plugins": {"x": {"enabled": False}}}, "x")
    assert is_enabled({"plugins": {"x": {"enabled": True}}}, "x")


def test_api_rejects_bad_registrations():
    class A(BaseModel):
        pass

    api = PluginAPI("p")
    api.add_tool(Tool("t", "d", A, lambda c, p: ""))
    with pytest.raises(PluginError, match="twice"):
        api.add_tool(Tool("t", "d", A, lambda c, p: ""))
    with pytest.raises(PluginError, match="Tool"):
        api.add_tool(lambda: None)
    with pytest.raises(PluginError, match="slash command"):
        api.add_slash_command("Bad Name", lambda c, a: "")
    api.add_slash_command("/ok", lambda c, a: "")
    assert "ok" in api.build().slash_commands


def test_system_prompts_from_one_plugin_are_joined():
    api = PluginAPI("p")
    api.add_system_prompt(lambda ctx: "one")
    api.add_system_prompt(lambda ctx: "")
    api.add_system_prompt(lambda ctx: "two")
    assert api.build().system_prompt(ToolContext()) == "one\n\ntwo"


def test_plugin_reads_secrets_by_name():
    api = PluginAPI("p", secrets={"token": "abc"}.get)
    assert api.secret("token") == "abc" and api.secret("other") is None


def test_bundled_plugins_load_and_can_be_disabled():
    names = [p.name for p in bundled_plugins()]
    assert names == ["notes", "calendar", "memory"]
    tools = {t.name: t for p in bundled_plugins() for t in p.tools}
    assert tools["memory_forget"].risk == RiskClass.DESTRUCTIVE
    assert tools["note_add"].risk == RiskClass.WRITE
    assert [p.name for p in bundled_plugins({"plugins": {"disabled": ["calendar"]}})] == ["notes", "memory"]
    with pytest.raises(PluginError, match="memory"):
        bundled_plugins({"plugins": {"memory": {"max_prompt_chars": -1}}})
    report = load_plugins({}, include_bundled=True, entry_points=False)
    assert [p.name for p in report.plugins] == ["notes", "calendar", "memory"]


def test_user_plugin_with_a_bundled_name_is_skipped(tmp_path):
    write(tmp_path / "plugins", "notes", GOOD)
    report = load_plugins({}, user_dir=tmp_path / "plugins", entry_points=False)
    assert report.get("notes").origin == "bundled"
    assert "already called 'notes'" in dict(report.failures)["notes"]
