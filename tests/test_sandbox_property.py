"""Property: no generated path string resolves (or writes) outside the root."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sandbox import SandboxError, Workspace

_TMP = Path(tempfile.mkdtemp(prefix="sandbox-prop-"))
atexit.register(shutil.rmtree, _TMP, True)
ROOT = _TMP / "work"
OUTSIDE = _TMP / "outside"
for d in (ROOT / "a" / "b", OUTSIDE, _TMP / "work-evil"):
    d.mkdir(parents=True, exist_ok=True)
(OUTSIDE / "secret").write_bytes(b"secret")
if not (ROOT / "lnk").is_symlink():
    os.symlink(OUTSIDE, ROOT / "lnk")
    os.symlink(OUTSIDE, ROOT / "a" / "lnk")
    os.symlink(OUTSIDE / "secret", ROOT / "a" / "b" / "flink")
WS = Workspace(ROOT)

SEGMENTS = st.one_of(
    st.sampled_from([".", "..", "", "a", "b", "lnk", "flink", "work", "work-evil", "outside", "secret", "~", "...", " ", "\\..", ".assistant", "\udcff", "x\x00", "\u00e9", "lnk/../..", "C:\\"]),
    st.text(min_size=1, max_size=12),
)
PREFIXES = st.sampled_from(["", "/", str(ROOT) + "/", str(ROOT), str(_TMP) + "/", str(ROOT) + "-evil/", "~/", "./"])
PATHS = st.builds(lambda p, segs: p + "/".join(segs), PREFIXES, st.lists(SEGMENTS, max_size=8))


def outside_state() -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in OUTSIDE.rglob("*") if p.is_file()}


def within(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PATHS)
def test_resolved_paths_stay_inside_and_cross_no_symlink(path: str) -> None:
    try:
        resolved = WS.resolve(path, for_write=True)
    except SandboxError as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert within(Path(os.path.realpath(resolved)), ROOT)
    probe = ROOT
    for part in resolved.relative_to(ROOT).parts:
        probe = probe / part
        assert not probe.is_symlink()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(PATHS)
def test_writes_never_land_outside(path: str) -> None:
    before = outside_state()
    try:
        WS.write_bytes(path, b"probe", overwrite=False)
    except SandboxError:
        pass
    assert outside_state() == before
    assert sorted(p.name for p in OUTSIDE.iterdir()) == ["secret"]
    assert sorted(p.name for p in (_TMP / "work-evil").iterdir()) == []
