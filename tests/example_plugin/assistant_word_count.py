"""An example assistant plugin: count words in a workspace file."""

from pydantic import BaseModel, Field

from tools.base import RiskClass, Tool, ToolContext, ToolError


class Settings(BaseModel):
    max_bytes: int = 1_000_000


class CountArgs(BaseModel):
    path: str = Field(..., description="workspace-relative file to count")


def register(api):
    settings = api.settings(Settings)

    def count_words(ctx: ToolContext, p: CountArgs) -> str:
        text = ctx.workspace.read_text(p.path)
        if len(text.encode()) > settings.max_bytes:
            raise ToolError(f"{p.path} is larger than {settings.max_bytes} bytes")
        return f"{p.path}: {len(text.split())} words"

    api.add_tool(Tool("count_words", "Count the words in a workspace file.",
                      CountArgs, count_words, RiskClass.READ))
    api.add_slash_command("wc", lambda ctx, arg: count_words(ctx, CountArgs(path=arg)),
                          "count words: /wc FILE")
