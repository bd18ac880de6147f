"""Screens of the assistant's TUI."""

from .approval import ApprovalDecision, ApprovalScreen
from .model import ModelScreen
from .settings import SettingsScreen
from .tasks import TasksScreen

__all__ = ["ApprovalDecision", "ApprovalScreen", "ModelScreen", "SettingsScreen", "TasksScreen"]
