"""The try-first grammar sampler picks the same tokens as llama-cpp-python's
grammar-first chain (greedy), and its every token is one the grammar allows."""

from __future__ import annotations

import pytest

from model.chat_template import ChatTemplate
from model.grammar import FINAL_ANSWER, forced_turn_grammar, tool_call_grammar
from model.grammar_sampler import TryFirstGrammarSampler
from model.parsing import parse_turn
from model.types import Message
from test_grammar import TOOLS, demo_model_path


@pytest.fixture(scope="module")
def llama_cpp():
    return pytest.importorskip("llama_cpp")


@pytest.fixture(scope="module")
def demo_llm(llama_cpp):
    return llama_cpp.Llama(str(demo_model_path()), n_ctx=1024, verbose=False)


def _decode(llm, prompt: str, sampler, max_tokens: int = 48) -> list[int]:
    llm.reset()
    llm.eval(llm.tokenize(prompt.encode("utf-8"), add_bos=False, special=True))
    out: list[int] = []
    for _ in range(max_tokens):
        tok = sampler.sample(llm._ctx, -1)
        if tok == llm.token_eos():
            break
        out.append(tok)
        llm.eval([tok])
    return out


def _prompt(llm, user: str, fmt: str, opened: bool) -> str:
    template = ChatTemplate(llm.metadata["tokenizer.chat_template"])
    text = template.render([Message("user", user)], TOOLS, tool_call_format=fmt, enable_thinking=False)
    return text + ("<tool_call>\n" if opened else "")


@pytest.mark.parametrize("fmt, opened, user", [
    ("xml", True, "What is the weather in Paris?"),
    ("json", True, "Set a loud alarm for 7 on monday."),
    ("json", False, "Set an alarm for 7."),  # forced turn: a call or a final answer from the first token
])
def test_same_tokens_as_the_grammar_first_chain(llama_cpp, demo_llm, fmt, opened, user):
    grammar = tool_call_grammar(TOOLS, fmt) if opened else forced_turn_grammar(TOOLS, fmt, max_calls=1)
    prompt = _prompt(demo_llm, user, fmt, opened)
    slow = demo_llm._init_sampler(temp=0.0, top_k=1, repeat_penalty=1.0,
                                  grammar=llama_cpp.LlamaGrammar.from_string(grammar, verbose=False))
    fast = TryFirstGrammarSampler(demo_llm, demo_llm._init_sampler(temp=0.0, top_k=1, repeat_penalty=1.0), grammar)
    expected = _decode(demo_llm, prompt, slow)
    got = _decode(demo_llm, prompt, fast)
    assert got == expected and got
    text = demo_llm.detokenize(got).decode("utf-8", "replace")
    if opened:
        assert fast.rejected >= 1  # the model's own choice left the grammar at least once: the resample path ran
        turn = parse_turn("<tool_call>\n" + text, TOOLS, fmt=fmt, starts_in_think=False)
        assert not text.endswith("</tool_call>") or (turn.tool_calls and not turn.errors), text
    else:
        assert text.startswith("<tool_call>") or text.startswith(FINAL_ANSWER), text
    fast.close()


def test_a_grammar_that_does_not_parse_is_an_error(llama_cpp, demo_llm):
    with pytest.raises(ValueError, match="does not parse"):
        TryFirstGrammarSampler(demo_llm, demo_llm._init_sampler(temp=0.0), "root ::= (")
