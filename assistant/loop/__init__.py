"""The agent loop: one step after another over a checkpointed task.

``agent`` drives a task (render -> generate -> classify -> run calls ->
checkpoint); ``turns`` decides what a model turn means; ``calls`` runs one tool
call through validate -> policy -> journal -> execute; ``resolve`` applies the
user's decision when a paused task resumes; ``history`` renders and folds the
prompt; ``prompt``, ``toolgroups``, ``policy``, ``stuck``, ``verify`` and
``arguments`` are the rules each of those consults.
"""

from .agent import MAX_FORMAT_ERRORS, Agent

__all__ = ["Agent", "MAX_FORMAT_ERRORS"]
