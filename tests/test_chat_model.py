"""LocalChatModel on the real demo model: turns, streaming, grammar, cache reuse."""

from __future__ import annotations

import pytest

from model.chat import open_chat_model
from model.select import demo_model_path
from model.types import Message, SamplingParams

WEATHER = [{
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Weather forecast for a city.",
        "parameters": {
            "type": "object",
            "properties": {"city": {"type": "string", "enum": ["Paris", "Rome", "Oslo"]},
                           "days": {"type": "integer"}},
            "required": ["city", "days"],
        },
    },
}]

TOOLS = [{
    "type": "function",
    "function": {
        "name": "write_file",
        "description": "Write a text file in the workspace.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
            "required": ["path", "content"],
        },
    },
}]


@pytest.fixture(scope="module")
def chat(tmp_path_factory):
    m = open_chat_model(demo_model_path(), n_ctx=2048, cache_dir=tmp_path_factory.mktemp("kv"), n_threads=2,
                        label="demo", is_demo=True)
    m.sampling = SamplingParams(temperature=0.0)
    yield m
    m.runtime.close()


def history(user: str) -> list[Message]:
    return [Message("system", "You are a helpful assistant."), Message("user", user)]


def test_turn_streams_and_parses(chat):
    deltas: list[tuple[str, str]] = []
    out = chat.complete(history("Say hello in five words."), [], on_delta=lambda k, t: deltas.append((k, t)),
                        max_tokens=24)
    assert out.parsed.content
    assert "".join(t for k, t in deltas if k == "content").strip() == out.parsed.content
    assert out.metrics.generated == len(out.token_ids) > 0
    assert chat.is_demo and chat.context_size == 2048


def test_next_turn_reuses_generated_tokens(chat):
    msgs = history("Name a colour.")
    first = chat.complete(msgs, [], max_tokens=16)
    msgs.append(Message("assistant", first.parsed.content, token_ids=first.token_ids))
    msgs.append(Message("user", "Name another."))
    second = chat.complete(msgs, [], max_tokens=16)
    # everything up to the end of the first turn comes from the KV cache
    assert second.metrics.reused >= first.metrics.prompt_tokens + len(first.token_ids) - 1
    assert second.metrics.evaluated < 40


@pytest.mark.parametrize("fmt", ["json", "xml"])
def test_forced_turn_gives_schema_valid_call(chat, fmt):
    import dataclasses

    saved = chat.profile
    chat.profile = dataclasses.replace(saved, tool_call_format=fmt)
    try:
        out = chat.complete(history("What is the weather in Rome for the next 3 days?"), WEATHER,
                            force="tool_call_or_final", max_tokens=120)
    finally:
        chat.profile = saved
    p = out.parsed
    assert p.errors == []
    if p.tool_calls:
        call = p.tool_calls[0]
        assert call.name == "get_weather"
        assert call.arguments["city"] in {"Paris", "Rome", "Oslo"} and isinstance(call.arguments["days"], int)
    else:  # the grammar's other branch: an explicit final answer, prefix stripped
        assert p.content and not p.content.startswith("Final answer:")


def test_system_prefix_is_persisted(chat):
    chat.complete(history("Hi."), TOOLS, max_tokens=4)
    assert list(chat.runtime.cache_dir.glob("prefix-*.state"))


def test_a_trailing_block_is_all_that_is_evaluated_again(chat):
    """A user message at the end that changes every step (the agent's progress
    block) costs only itself and the turn before it: the history before it
    stays in the KV cache, generated ids included."""
    def block(n: int) -> Message:
        return Message("user", f"[Progress check: step {n} of 9]\nPlan:\n1. Name colours\nDone: {n - 1} turns")

    msgs = history("Name a colour.")
    first = chat.complete(msgs + [block(1)], [], max_tokens=12)
    for n, ask in ((2, "Name another."), (3, "And one more.")):
        msgs.append(Message("assistant", first.parsed.content, token_ids=first.token_ids))
        before = chat.render(msgs[:-1], [], add_generation_prompt=False)  # history up to the last block's place
        msgs.append(Message("user", ask))
        prompt = chat.render(msgs + [block(n)], [])
        assert prompt.startswith(before)
        new = len(chat.runtime.tokenize(prompt[len(before):]))  # the last turn, the new message, the block
        out = chat.complete(msgs + [block(n)], [], max_tokens=12)
        assert out.metrics.evaluated <= new + 1
        assert out.metrics.reused >= out.metrics.prompt_tokens - new - 1
        first = out


def test_the_ids_before_the_last_message_are_kept_for_the_next_prompt(chat):
    """The prompt without its last message is a second checkpoint: a later prompt
    that continues it (not the last prompt + generation, because the trailing
    block changed) reuses its exact ids, even where re-tokenizing the text would
    give other ids (as a generated turn often does)."""
    msgs = history("Name a colour.") + [Message("user", "[Progress check: step 1 of 9]")]
    chat.complete(msgs, [], max_tokens=4)
    head = chat.render(msgs[:-1], [], add_generation_prompt=False)
    assert chat._stable[0] == head
    # pretend the cached ids of that prefix are an unusual tokenization of the same text
    odd = list(chat._stable[1][:-3]) + [t for ch in chat.runtime.detokenize(chat._stable[1][-3:])
                                          for t in chat.runtime.tokenize(ch)]
    assert odd != chat._stable[1]
    chat._stable = (head, odd)
    later = head + "<|im_start|>user\n[Progress check: step 2 of 9]<|im_end|>\n<|im_start|>assistant\n"
    assert chat._tokenize_prompt(later)[:len(odd)] == odd


def test_a_free_turn_ends_once_it_holds_a_whole_json_call():
    """Qwen2.5-Coder-1.5B wrote a call in a ```json block and went on (more calls, imagined results) until
    a 300 s budget ran out; the loop only runs the first such call."""
    import threading

    from model.chat import _JsonCallCut

    stream = ["I'll list the files.\n```json\n{\n  \"name\": \"write_file\",", " \"arguments\": {\"path\": \"a\"",
              ", \"content\": \"{x}\"}", "\n}", "\n```\nThen I will"]
    cancel = threading.Event()
    cut = _JsonCallCut(TOOLS, cancel)
    seen = []
    for piece in stream:
        if cut.is_set():
            break
        seen.append(piece)
        cut.feed("content", piece)
    assert len(seen) == 4 and cut.done and cut.is_set()  # stopped right after the object closed
    other = _JsonCallCut(TOOLS, cancel)
    for piece in ['{"name": "delete_all", "arguments": {}}', '{"name": "write_file", "arguments": "a"}']:
        other.feed("content", piece)  # no such tool; not a call's shape
    other.feed("reasoning", '{"name": "write_file", "arguments": {}}')  # thinking is not the answer
    assert not other.is_set()
    cancel.set()
    assert other.is_set() and not other.done  # the user's cancel still cancels
    assert not _JsonCallCut([], None).is_set()  # a constrained turn: nothing to watch


def test_a_free_turn_of_long_prose_with_no_call_is_cut_as_too_long():
    """multistep_invoices_memo: Qwen 1.5B's first turn wrote a plan in prose for the whole 300 s budget."""
    from model.chat import _JsonCallCut

    cut = _JsonCallCut(TOOLS, None)
    words = "First I will read the invoices and then I will add them up carefully. " * 60
    for i in range(0, len(words), 50):
        cut.feed("content", words[i:i + 50])
        if cut.is_set():
            break
    assert cut.done and cut.prose and i < _JsonCallCut.PROSE_CHARS + 50
    calling = _JsonCallCut(TOOLS, None)  # a call has begun: long arguments are not prose
    calling.feed("content", 'Here it is:\n```json\n{"name": "write_file", "arguments": {"path": "a", "content": "')
    calling.feed("content", "x" * 5000)
    assert not calling.is_set()
    answered = _JsonCallCut(TOOLS, None)
    answered.feed("tool_call", "<tool_call>...</tool_call>")
    answered.feed("content", "y" * 5000)
    assert not answered.is_set()


def test_a_free_turn_ends_where_it_begins_a_tool_result_of_its_own():
    """Qwen 1.5B opened turns with an invented <tool_response> (then the result it imagined, hundreds of tokens):
    the turn ends at the tag; the loop asks again constrained."""
    from model.chat import _JsonCallCut

    cut = _JsonCallCut(TOOLS, None)
    for piece in ["<", "tool", "_", "response", ">\n", "no files match"]:
        if cut.is_set():
            break
        cut.feed("content", piece)
    assert cut.done and not cut.prose and piece == "no files match"  # stopped right after the tag
    prose = _JsonCallCut(TOOLS, None)
    prose.feed("content", "The tool_response says the total is 12.")  # the word is no tag
    assert not prose.is_set()
