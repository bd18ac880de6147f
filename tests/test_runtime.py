"""The runtime on the real demo model: prefix reuse, persistence, stops, grammar, cancel."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from model.runtime import GrammarPhase, Runtime, common_prefix_len
from model.select import demo_model_path
from model.types import ModelError, SamplingParams

GREEDY = SamplingParams(temperature=0.0)
SYSTEM = "<|im_start|>system\nYou are a helpful assistant who answers briefly." + " Be kind." * 40 + "<|im_end|>\n"


def chat(user: str) -> str:
    return SYSTEM + f"<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n"


@pytest.fixture(scope="module")
def rt():
    r = Runtime(demo_model_path(), n_ctx=1024, n_threads=2)
    yield r
    r.close()


def test_common_prefix_len():
    assert common_prefix_len([1, 2, 3], [1, 2, 4, 5]) == 2
    assert common_prefix_len([], [1]) == 0
    assert common_prefix_len([1, 2], [1, 2]) == 2


def test_prefix_reuse_evaluates_only_the_suffix(rt):
    p1 = rt.tokenize(chat("Name a colour."))
    first = rt.generate(p1, max_tokens=8, sampling=GREEDY)
    assert first.metrics.evaluated == len(p1) - common_prefix_len([], p1) or first.metrics.reused >= 0
    p2 = p1 + first.token_ids + rt.tokenize("<|im_end|>\n<|im_start|>user\nAnd a fruit?<|im_end|>\n<|im_start|>assistant\n")
    second = rt.generate(p2, max_tokens=8, sampling=GREEDY)
    # every kept token is in the cache, except the last one when the cap stopped decoding
    in_cache = len(p1) + len(first.token_ids) - (first.stop_reason == "length")
    assert second.metrics.reused == in_cache
    assert second.metrics.evaluated == len(p2) - in_cache
    # the same prompt again: one token re-evaluated for fresh logits
    again = rt.generate(p2, max_tokens=8, sampling=GREEDY)
    assert again.metrics.evaluated == 1
    assert again.token_ids == second.token_ids


def test_reuse_gives_the_same_tokens_as_a_fresh_context(rt):
    p1 = rt.tokenize(chat("Count to five."))
    p2 = rt.tokenize(chat("Count to three."))
    rt.generate(p1, max_tokens=6, sampling=GREEDY)
    reused = rt.generate(p2, max_tokens=12, sampling=GREEDY)
    assert reused.metrics.reused > 0
    fresh_rt = Runtime(demo_model_path(), n_ctx=1024, n_threads=2)
    try:
        fresh = fresh_rt.generate(p2, max_tokens=12, sampling=GREEDY)
    finally:
        fresh_rt.close()
    assert fresh.metrics.reused == 0
    assert reused.token_ids == fresh.token_ids


def test_stop_string_and_streaming(rt):
    p = rt.tokenize(chat("List three animals, one per line."))
    pieces: list[str] = []
    full = rt.generate(p, max_tokens=40, sampling=GREEDY)
    assert "\n" in full.text
    stop = full.text.split("\n")[1][:3]  # something the model will write
    r = rt.generate(p, max_tokens=40, sampling=GREEDY, stop=[stop], on_text=pieces.append)
    assert r.stop_reason == "stop"
    assert stop not in r.text
    assert full.text.startswith(r.text)
    assert "".join(pieces) == r.text


def test_max_tokens(rt):
    r = rt.generate(rt.tokenize(chat("Write a long story.")), max_tokens=5, sampling=GREEDY)
    assert r.stop_reason == "length" and r.metrics.generated == 5 == len(r.token_ids)


def test_cancel_stops_and_runtime_stays_usable(rt):
    cancel = threading.Event()
    got: list[str] = []

    def on_text(t: str) -> None:
        got.append(t)
        cancel.set()

    r = rt.generate(rt.tokenize(chat("Write a long story.")), max_tokens=200, sampling=GREEDY,
                    on_text=on_text, cancel=cancel)
    assert r.stop_reason == "cancelled" and r.metrics.generated < 20
    ok = rt.generate(rt.tokenize(chat("Say hi.")), max_tokens=3, sampling=GREEDY)
    assert ok.metrics.generated == 3


def test_cancel_before_prefill(rt):
    cancel = threading.Event()
    cancel.set()
    r = rt.generate(rt.tokenize(chat("Anything " * 30)), max_tokens=5, cancel=cancel)
    assert r.stop_reason == "cancelled" and r.token_ids == []


def test_a_forced_turn_ends_where_its_grammar_ends(rt):
    # a forced call turn is the call alone: free text after it was junk the parser had to show as content
    g = GrammarPhase('root ::= "ZEBRA-42" "</x>"', end="</x>", from_start=True)
    r = rt.generate(rt.tokenize(chat("Say hello.")), max_tokens=12, sampling=GREEDY, grammar=g)
    assert r.text == "ZEBRA-42</x>" and r.stop_reason == "stop"


def test_grammar_switches_on_trigger(rt):
    # trigger on the text of the first two tokens the model writes; then the grammar takes over
    prompt = rt.tokenize(chat("Describe the sea in one sentence."))
    free = rt.generate(prompt, max_tokens=30, sampling=GREEDY)
    trigger = rt.detokenize(free.token_ids[:2])
    g = GrammarPhase('root ::= "<call>QQQ</call>"', trigger=trigger, end="</call>")
    r = rt.generate(prompt, max_tokens=30, sampling=GREEDY, grammar=g)
    assert r.text.startswith(trigger + "<call>QQQ</call>")
    assert len(r.text) > len(trigger + "<call>QQQ</call>")


def test_reasoning_budget_forces_end(rt):
    r = rt.generate(rt.tokenize(chat("Think about the weather.")), max_tokens=20, sampling=GREEDY,
                    reasoning=True, reasoning_budget=4)
    assert "</think>" in r.text
    before = r.text.split("</think>")[0]
    assert len(rt.tokenize(before.strip())) <= 6
    assert r.metrics.reasoning_tokens == 4


def test_prompt_too_long(rt):
    with pytest.raises(ModelError, match="does not fit"):
        rt.generate([1] * 2000, max_tokens=1)
    with pytest.raises(ModelError, match="empty"):
        rt.generate([], max_tokens=1)


RESTORE_SCRIPT = r"""
import json, sys
from model.runtime import Runtime
from model.select import demo_model_path
from model.types import SamplingParams
rt = Runtime(demo_model_path(), n_ctx=1024, n_threads=2, cache_dir=sys.argv[1])
prompt = json.loads(sys.argv[2]); n = int(sys.argv[3])
r = rt.generate(prompt, max_tokens=8, sampling=SamplingParams(temperature=0.0), persist_prefix=n)
print(json.dumps({"restored": r.metrics.restored, "evaluated": r.metrics.evaluated, "tokens": r.token_ids}))
"""


def _run(cache, prompt, n):
    import json

    out = subprocess.run([sys.executable, "-c", RESTORE_SCRIPT, str(cache), json.dumps(prompt), str(n)],
                         capture_output=True, text=True, check=True, timeout=120)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_prefix_persists_across_processes(tmp_path, rt):
    cache = tmp_path / "prefix"
    prefix = rt.tokenize(SYSTEM)
    p1 = rt.tokenize(chat("Name a bird."))
    p2 = rt.tokenize(chat("Name a tree."))
    assert p1[: len(prefix)] == prefix == p2[: len(prefix)]
    a = _run(cache, p1, len(prefix))
    assert a["restored"] == 0 and a["evaluated"] == len(p1)
    assert len(list(cache.glob("prefix-*.state"))) == 1
    b = _run(cache, p2, len(prefix))  # a fresh process restores the prefix from disk
    assert b["restored"] == len(prefix)
    assert b["evaluated"] == len(p2) - len(prefix)
    plain = Runtime(demo_model_path(), n_ctx=1024, n_threads=2)
    try:
        assert plain.generate(p2, max_tokens=8, sampling=GREEDY).token_ids == b["tokens"]
    finally:
        plain.close()


def test_damaged_prefix_file_is_recomputed(tmp_path, rt):
    cache = tmp_path / "prefix"
    prefix = rt.tokenize(SYSTEM)
    p1 = rt.tokenize(chat("Name a bird."))
    _run(cache, p1, len(prefix))
    (state,) = cache.glob("prefix-*.state")
    state.write_bytes(state.read_bytes()[:100])
    c = _run(cache, p1, len(prefix))
    assert c["restored"] == 0 and c["evaluated"] == len(p1)


def test_repeating_tail():
    from model.runtime import repeating_tail

    assert repeating_tail([7] * 48) == 1
    assert repeating_tail([1, 2, 3] * 16) == 3
    assert repeating_tail(list(range(30)) * 3) == 30
    assert repeating_tail([1, 2, 3] * 15) == 0  # 45 tokens: under the span
    assert repeating_tail(list(range(100))) == 0
    assert repeating_tail([5, 6] * 30 + [9]) == 0  # the loop must reach the end


def test_recurring_tail_sees_a_loop_whose_cycle_varies():
    """handoff_not_found at 4826ac4: the same sentence with the file name cycling through three names."""
    from model.runtime import recurring_tail, repeating_tail

    sentence = list(range(10, 21))  # " folder. I could not find the phone number in the"
    loop = [t for k in range(30) for t in (*sentence, 100 + k % 5)]  # a cycle of 60 tokens
    cut = next(n for n in range(1, len(loop)) if recurring_tail(loop[:n]))
    assert cut <= 6 * 12 and repeating_tail(loop[:cut]) == 0  # six sentences, before the period check
    assert not recurring_tail(list(range(500, 540)) + sentence * 5)  # five times is not yet a loop
    rows = [t for k in range(60) for t in (1, 2, 3, 200 + k, 4, 300 + 2 * k)]  # table rows: values change
    assert not any(recurring_tail(rows[:n]) for n in range(1, len(rows)))


def test_recurring_tail_sees_a_ramble_whose_sentences_share_only_an_opening():
    """files_organise at db466c8: "The user can use the move function to ...", "The user can use the rename_many
    function to ...", one tool after another, until the time budget ran out."""
    from model.runtime import OPENING_TIMES, OPENING_WINDOW, recurring_tail

    opening = list(range(10, 15))  # "The user can use the"
    ramble = [t for k in range(20) for t in (*opening, 100 + k, 200 + k, 300 + k, 400 + k, 500 + k, 16)]
    cut = next(n for n in range(1, len(ramble)) if recurring_tail(ramble[:n], window=OPENING_WINDOW,
                                                                  times=OPENING_TIMES))
    assert cut <= 8 * 11 and not any(recurring_tail(ramble[:n]) for n in range(1, cut))  # the old guard: not yet
    seven = [t for k in range(7) for t in (*opening, 100 + k, 200 + k, 300 + k, 400 + k, 500 + k, 16)]
    assert not any(recurring_tail(seven[:n], window=OPENING_WINDOW, times=OPENING_TIMES) for n in range(len(seven)))


def test_a_looping_output_stops_early(rt):
    # make the model repeat: a prompt full of one repeated line, greedy
    line = "all work and no play makes jack a dull boy\n"
    p = rt.tokenize(chat("Repeat after me forever:\n" + line * 6) + line * 3)
    r = rt.generate(p, max_tokens=400, sampling=GREEDY)
    assert r.stop_reason == "repetition"
    assert r.metrics.generated < 200


def test_a_looping_output_stops_early_under_a_grammar_too(rt):
    """A grammar that allows the loop (a long string) does not keep it going to the token cap."""
    from model.runtime import GrammarPhase

    line = "all work and no play makes jack a dull boy\n"
    p = rt.tokenize(chat("Repeat after me forever:\n" + line * 6) + line * 3)
    phase = GrammarPhase('root ::= [a-z \\n]+ "END"', end="END", from_start=True)
    r = rt.generate(p, max_tokens=400, sampling=GREEDY, grammar=phase)
    assert r.stop_reason == "repetition"
    assert r.metrics.generated < 200


def test_loading_reports_real_progress_and_leaves_llama_cpp_as_it_was():
    import llama_cpp.llama_cpp as binding

    before = binding.llama_model_default_params
    seen: list[float] = []
    rt = Runtime(demo_model_path(), n_ctx=256, n_threads=1, on_load_progress=seen.append)
    try:
        assert len(seen) > 2 and seen == sorted(seen) and seen[-1] == 1.0 and 0.0 <= seen[0] < 1.0
        assert binding.llama_model_default_params is before
    finally:
        rt.close()
