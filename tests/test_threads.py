"""Thread count and wait policy: llama.cpp gets the cores other processes leave free."""

from __future__ import annotations

import importlib.util
import os

import pytest

import model.threads as threads
from model.threads import ThreadPolicy, threads_for

needs_llama = pytest.mark.skipif(importlib.util.find_spec("llama_cpp") is None, reason="llama-cpp-python missing")


@pytest.mark.parametrize("cpus, others, cap, want", [
    (2, 0.0, 2, 2),    # quiet machine: every core
    (2, 0.1, 2, 2),    # background noise does not cost a thread
    (2, 1.0, 2, 1),    # one busy process on two cores: one thread, no barrier waits on a descheduled thread
    (2, 2.0, 2, 1),    # never fewer than one
    (8, 3.0, 8, 5),
    (16, 0.0, 8, 8),   # never more than the physical cores
])
def test_threads_for_leaves_the_busy_cores_alone(cpus, others, cap, want):
    assert threads_for(cpus, others, cap) == want


def _fake_samples(monkeypatch, samples):
    it = iter(samples)
    monkeypatch.setattr(threads, "cpu_busy_sample", lambda: next(it))


def test_policy_measures_other_processes_not_its_own_cpu_time(monkeypatch):
    # (wall s, machine busy CPU s, own CPU s): over 1 s the machine was busy 2 cores' worth, 1 of them ours
    _fake_samples(monkeypatch, [(0.0, 0.0, 0.0), (1.0, 2.0, 1.0), (2.0, 2.1, 1.05)])
    p = ThreadPolicy(physical=2, cpus=2)
    assert p.current == 2
    assert p.choose() == 1                 # another process kept one core busy
    assert p.choose() == 2                 # it stopped: both cores again


def test_policy_keeps_the_count_when_too_little_time_passed(monkeypatch):
    _fake_samples(monkeypatch, [(0.0, 0.0, 0.0), (0.05, 0.1, 0.0)])
    p = ThreadPolicy(physical=2, cpus=2)
    assert p.choose() == 2


def test_a_user_thread_count_is_used_as_is(monkeypatch):
    monkeypatch.setattr(threads, "cpu_busy_sample", lambda: pytest.fail("a fixed count measures nothing"))
    assert ThreadPolicy(physical=8, fixed=3).choose() == 3


def test_idle_openmp_threads_wait_passively_unless_the_user_chose(monkeypatch):
    monkeypatch.delenv("OMP_WAIT_POLICY", raising=False)
    threads.configure_environment()
    assert os.environ["OMP_WAIT_POLICY"] == "PASSIVE"
    monkeypatch.setenv("OMP_WAIT_POLICY", "ACTIVE")
    threads.configure_environment()
    assert os.environ["OMP_WAIT_POLICY"] == "ACTIVE"


@needs_llama
def test_changing_threads_mid_generation_keeps_the_output(monkeypatch):
    from model.runtime import Runtime
    from model.select import demo_model_path
    from model.types import SamplingParams

    greedy = SamplingParams(temperature=0.0)
    fixed = Runtime(demo_model_path(), n_ctx=512, n_threads=2)
    prompt = fixed.tokenize("<|im_start|>user\nCount from one to twenty in words.<|im_end|>\n<|im_start|>assistant\n")
    want = fixed.generate(prompt, max_tokens=48, sampling=greedy).token_ids
    fixed.close()

    import model.runtime as runtime

    monkeypatch.setattr(runtime, "THREAD_CHECK_TOKENS", 2)
    auto = Runtime(demo_model_path(), n_ctx=512)
    counts = iter([1, 2, 1, 2, 1, 2, 1, 2, 1, 2])
    monkeypatch.setattr(auto.threads, "choose", lambda: next(counts, 1))
    got = auto.generate(prompt, max_tokens=48, sampling=greedy).token_ids
    assert set(auto.thread_history) == {1, 2} and len(auto.thread_history) >= 3  # it changed while it ran
    assert len(got) > 6 and got == want  # the same text, whatever the thread count
    auto.close()
