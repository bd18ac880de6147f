"""Plugin API, loader, MCP bridge, secrets, and the bundled plugins.

Importing this package is cheap: the ``mcp`` SDK is imported only when an
MCP server starts, and the keyring only when a secret is used.
"""

from plugins.api import Plugin, PluginAPI, PluginError
from plugins.loader import ENTRY_POINT_GROUP, LoadReport, bundled_plugins, load_plugins
from plugins.mcp import MCPManager
from plugins.report import PluginStatus, plugin_report
from plugins.secrets import SecretsUnavailable, delete_secret, get_secret, redact, set_secret

__all__ = [
    "ENTRY_POINT_GROUP",
    "LoadReport",
    "MCPManager",
    "Plugin",
    "PluginAPI",
    "PluginError",
    "PluginStatus",
    "SecretsUnavailable",
    "bundled_plugins",
    "delete_secret",
    "get_secret",
    "load_plugins",
    "plugin_report",
    "redact",
    "set_secret",
]

