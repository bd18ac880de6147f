"""Download a GGUF from a Hugging Face-style hub and verify its sha256.

``pull_model("nanbeige4.2-3b", models_dir)`` tries the spec's candidate repos in
order. For each it asks the hub for the repo's file list with LFS metadata
(``GET {endpoint}/api/models/{repo}?blobs=true``), picks the file (an exact name,
or the single-file GGUF whose name carries the quantization), downloads it with
``huggingface_hub.hf_hub_download`` (``HEAD``/``GET {endpoint}/{repo}/resolve/{commit}/{file}``,
following the hub's redirect to its blob store) into a hidden staging folder,
checks the sha256 the hub reports for the file, and only then moves it to
``models_dir/<owner>__<repo>/<file>``. A file that fails the check is deleted.

The endpoint is the ``endpoint`` argument, else ``HF_ENDPOINT`` (read at call
time), else huggingface_hub's default. Unreachable endpoints fail after one
short connection attempt (``timeout`` seconds at most), never after retries.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Callable

from .registry import KNOWN_MODELS, ModelSpec, resolve_spec

__all__ = ["PullError", "PullResult", "ProgressCallback", "pull_model", "list_local_models", "select_gguf", "format_pull_result"]

_SPLIT_RE = re.compile(r"-\d{5}-of-\d{5}\.gguf$", re.IGNORECASE)
_SHA256_RE = re.compile(r"^[0-9a-f]{64}$")
_STAGING = ".partial"
_RECORD = ".verified.json"
_CHUNK = 8 * 1024 * 1024

ProgressCallback = Callable[[int, int | None], None]
"""``on_progress(done, total)``: bytes downloaded so far, and the file size in bytes (None if unknown)."""


class PullError(Exception):
    """A model could not be pulled; the message is one line for the user."""


@dataclass(frozen=True)
class PullResult:
    """Outcome of :func:`pull_model`.

    Attributes:
        path: the verified GGUF on disk.
        repo: the hub repo it came from ("owner/name").
        filename: the file's name in that repo.
        sha256: its sha256 (lower-case hex), as reported by the hub and verified locally.
        size: its size in bytes.
        already_present: True when a verified copy was already there (nothing downloaded).
    """

    path: Path
    repo: str
    filename: str
    sha256: str
    size: int
    already_present: bool


def list_local_models(models_dir: Path) -> list[Path]:
    """All GGUF files under ``models_dir`` (sorted), skipping hidden staging/cache folders.

    Returns an empty list when the folder does not exist.
    """
    root = Path(models_dir)
    if not root.is_dir():
        return []
    found = []
    for p in root.rglob("*.gguf"):
        rel = p.relative_to(root).parts
        if p.is_file() and not any(part.startswith(".") for part in rel):
            found.append(p)
    return sorted(found)


def _quant_re(quant: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![A-Za-z0-9]){re.escape(quant)}(?![A-Za-z0-9_])", re.IGNORECASE)


def _names(files: list[str], limit: int = 12) -> str:
    shown = ", ".join(files[:limit])
    return shown + (f", ... ({len(files)} in all)" if len(files) > limit else "")


def select_gguf(files: list[str], quant: str | None = None, filename: str | None = None) -> str:
    """Pick the file to download from a repo's file list.

    Args:
        files: repo-relative paths ("a/b.gguf").
        quant: quantization to find in a GGUF's base name (case-insensitive,
            delimited, e.g. "Q4_K_M" matches "X-Q4_K_M.gguf" but not "X-IQ4_K_M.gguf").
        filename: an exact file wanted instead (matched case-insensitively).

    Returns:
        The repo path of the chosen file: a single-file GGUF (not a split
        ``-00001-of-0000N`` part, not an ``mmproj`` projector), the shallowest
        and shortest when several match.

    Raises:
        PullError: nothing matches; the message lists the repo's GGUF files.
    """
    ggufs = sorted(f for f in files if f.lower().endswith(".gguf"))
    available = f"available: {_names(ggufs)}" if ggufs else "the repo has no .gguf files"
    if filename is not None:
        exact = [f for f in files if f == filename] or [f for f in files if f.lower() == filename.lower()]
        if not exact:
            raise PullError(f"no file {filename} ({available})")
        return exact[0]
    pattern = _quant_re(quant or "")
    matches = [f for f in ggufs if pattern.search(PurePosixPath(f).name) and "mmproj" not in f.lower()]
    single = [f for f in matches if not _SPLIT_RE.search(f)]
    if single:
        return min(single, key=lambda f: (f.count("/"), len(f), f))
    if matches:
        raise PullError(f"only split GGUF files match {quant} ({_names(matches)}); "
                        "split files are not supported yet")
    raise PullError(f"no GGUF matching {quant} ({available})")


def _sha256_file(path: Path, progress: bool) -> str:
    from tqdm.auto import tqdm

    h = hashlib.sha256()
    with open(path, "rb") as f, tqdm(
        total=path.stat().st_size, unit="B", unit_scale=True, desc="verify sha256", disable=None if progress else True, leave=False
    ) as bar:
        while chunk := f.read(_CHUNK):
            h.update(chunk)
            bar.update(len(chunk))
    return h.hexdigest()


def _read_records(folder: Path) -> dict[str, Any]:
    try:
        data = json.loads((folder / _RECORD).read_text(encoding="utf-8"))
        return data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        return {}


def _write_record(path: Path, sha256: str) -> None:
    records = _read_records(path.parent)
    st = path.stat()
    records[path.name] = {"sha256": sha256, "size": st.st_size, "mtime_ns": st.st_mtime_ns}
    tmp = path.parent / (_RECORD + ".tmp")
    tmp.write_text(json.dumps(records, indent=1, sort_keys=True), encoding="utf-8")
    os.replace(tmp, path.parent / _RECORD)


def _is_verified(path: Path, sha256: str, progress: bool) -> bool:
    """True when ``path`` holds content with ``sha256`` (trusting our record if size and mtime match)."""
    if not path.is_file():
        return False
    st = path.stat()
    rec = _read_records(path.parent).get(path.name)
    if isinstance(rec, dict) and rec.get("size") == st.st_size and rec.get("mtime_ns") == st.st_mtime_ns:
        return rec.get("sha256") == sha256
    if _sha256_file(path, progress) != sha256:
        return False
    _write_record(path, sha256)
    return True


def _is_network_error(exc: BaseException) -> bool:
    if isinstance(exc, OSError):
        return True
    mod = type(exc).__module__.split(".")[0]
    return mod in {"httpx", "httpx2", "httpcore", "requests", "urllib3", "ssl", "socket"}


def _reason(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _hub_error(exc: Exception, repo: str) -> str | None:
    """A short reason for a per-repo hub error (try the next repo), or None if ``exc`` is not one."""
    from huggingface_hub.utils import GatedRepoError, HfHubHTTPError, RepositoryNotFoundError

    if isinstance(exc, GatedRepoError):
        return f"{repo}: gated (accept its terms on the hub and pass a token)"
    if isinstance(exc, RepositoryNotFoundError):
        return f"{repo}: not found"
    if isinstance(exc, HfHubHTTPError):
        status = getattr(getattr(exc, "response", None), "status_code", "?")
        return f"{repo}: HTTP {status}"
    return None


def _unreachable(endpoint: str, exc: BaseException, spec: ModelSpec, models_dir: Path) -> PullError:
    local = [p for p in list_local_models(models_dir) if any(_folder(r) in p.parts for r in spec.repos)]
    hint = f"; a pulled copy is already at {local[0]}" if local else ""
    return PullError(f"cannot reach {endpoint} ({_reason(exc)}): check the network or HF_ENDPOINT{hint}")


def _folder(repo: str) -> str:
    return repo.replace("/", "__")


class _QuietBar:  # resolved lazily to a tqdm subclass so importing this module stays cheap
    cls: type | None = None

    @classmethod
    def get(cls) -> type:
        if cls.cls is None:
            from tqdm.auto import tqdm

            class Quiet(tqdm):  # type: ignore[misc,valid-type]
                def __init__(self, *args: Any, **kwargs: Any) -> None:
                    kwargs["disable"] = True
                    super().__init__(*args, **kwargs)

            cls.cls = Quiet
        return cls.cls


def _callback_bar(on_progress: ProgressCallback) -> type:
    """A silent tqdm subclass that reports ``(bytes done, total or None)`` to ``on_progress``
    on creation and after every ``update()`` (huggingface_hub builds it with ``total=``/``initial=``)."""
    base = _QuietBar.get()

    class Forwarding(base):  # type: ignore[misc,valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._done = int(kwargs.get("initial") or 0)
            total = kwargs.get("total")
            self._total = int(total) if total else None
            on_progress(self._done, self._total)

        def update(self, n: float | None = 1) -> bool | None:
            self._done += int(n or 0)
            on_progress(self._done, self._total)
            return super().update(n)

    return Forwarding


def _expected_sha256(sibling: Any, repo: str, filename: str, revision: str, endpoint: str, token: str | None,
                     timeout: float) -> str:
    lfs = getattr(sibling, "lfs", None)
    sha = (lfs.get("sha256") if isinstance(lfs, dict) else getattr(lfs, "sha256", None)) if lfs else None
    if not sha:  # fall back to the ETag of the resolve endpoint (the sha256 for LFS files)
        from huggingface_hub import get_hf_file_metadata, hf_hub_url

        meta = get_hf_file_metadata(hf_hub_url(repo, filename, revision=revision, endpoint=endpoint),
                                    token=token, timeout=timeout, endpoint=endpoint)
        sha = meta.etag
    sha = (sha or "").strip('"').lower()
    if not _SHA256_RE.match(sha):
        raise PullError(f"the hub reports no sha256 for {repo}/{filename}; refusing an unverifiable download")
    return sha


def _download(spec: ModelSpec, repo: str, info: Any, filename: str, models_dir: Path, endpoint: str,
              token: str | None, progress: bool, timeout: float,
              on_progress: ProgressCallback | None = None) -> PullResult:
    from huggingface_hub import hf_hub_download

    revision = getattr(info, "sha", None) or "main"
    sibling = next(s for s in info.siblings if s.rfilename == filename)
    try:
        sha = _expected_sha256(sibling, repo, filename, revision, endpoint, token, timeout)
    except PullError:
        raise
    except Exception as exc:  # metadata HEAD failed
        if _is_network_error(exc):
            raise _unreachable(endpoint, exc, spec, models_dir) from None
        raise PullError(f"cannot read metadata of {repo}/{filename}: {_reason(exc)}") from None
    lfs = getattr(sibling, "lfs", None)
    size = int((lfs.get("size") if isinstance(lfs, dict) else getattr(lfs, "size", None)) or sibling.size or 0)

    target_dir = Path(models_dir) / _folder(repo)
    final = target_dir / PurePosixPath(filename).name
    if _is_verified(final, sha, progress):
        return PullResult(final, repo, filename, sha, final.stat().st_size, already_present=True)

    try:
        target_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise PullError(f"cannot create {target_dir}: {exc.strerror or exc}") from None
    free = shutil.disk_usage(target_dir).free
    if size and free < size:
        raise PullError(f"not enough disk space for {filename}: need {size / 1e9:.2f} GB, "
                        f"{free / 1e9:.2f} GB free in {target_dir}")

    staging = target_dir / _STAGING
    bar = _callback_bar(on_progress) if on_progress is not None else None if progress else _QuietBar.get()
    try:
        try:
            staged = Path(hf_hub_download(
                repo, filename, revision=revision, local_dir=staging, endpoint=endpoint, token=token,
                etag_timeout=timeout, force_download=True, tqdm_class=bar,
            ))
        except Exception as exc:
            why = _hub_error(exc, repo)
            if why is not None:
                raise PullError(f"download failed: {why}") from None
            if isinstance(exc, PermissionError):
                raise PullError(f"cannot write to {staging}: {exc.strerror or exc}") from None
            if _is_network_error(exc) or type(exc).__name__ == "LocalEntryNotFoundError":
                raise PullError(f"download of {repo}/{filename} from {endpoint} failed ({_reason(exc)}); "
                                "check the network and try again") from None
            raise PullError(f"download of {repo}/{filename} failed: {_reason(exc)}") from None
        actual = _sha256_file(staged, progress)
        if actual != sha:
            staged.unlink(missing_ok=True)
            raise PullError(f"checksum mismatch for {repo}/{filename}: the hub reports sha256 {sha[:16]}..., "
                            f"the download has {actual[:16]}...; the file was deleted, try again")
        os.replace(staged, final)
        _write_record(final, sha)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return PullResult(final, repo, filename, sha, final.stat().st_size, already_present=False)


def pull_model(name: str, models_dir: Path, *, endpoint: str | None = None, token: str | None = None,
               progress: bool = True, timeout: float = 10.0,
               on_progress: ProgressCallback | None = None) -> PullResult:
    """Download (or find already downloaded) a verified GGUF for ``name``.

    Args:
        name: a known key ("nanbeige4.2-3b"), or "owner/repo", optionally with
            ":QUANT" or ":FILE.gguf" (see :func:`model.registry.resolve_spec`).
        models_dir: root of pulled models; the file lands in ``models_dir/<owner>__<repo>/``.
        endpoint: hub base URL; default ``HF_ENDPOINT``, else huggingface_hub's default.
        token: hub token for gated/private repos (default: huggingface_hub's own lookup).
        progress: show tqdm progress bars on stderr (download and verification).
        timeout: seconds for each metadata request (connect and read).
        on_progress: called as ``on_progress(done, total)`` (bytes so far, file size or None)
            from the downloading thread while the file downloads; the download's terminal bar
            is then not shown. Not called when a verified copy is already present.

    Returns:
        :class:`PullResult`; ``already_present`` is True when nothing was downloaded.

    Raises:
        PullError: unknown name, endpoint unreachable, no candidate repo holds a
            matching file (the message lists each repo's reason and its GGUFs),
            download failure, or sha256 mismatch (the bad file is deleted).
    """
    spec = resolve_spec(name)
    if spec is None:
        known = ", ".join(sorted(KNOWN_MODELS))
        raise PullError(f"unknown model {name!r}: use one of {known}, or owner/repo[:QUANT|:FILE.gguf]")
    from huggingface_hub import HfApi, constants

    endpoint = (endpoint or os.environ.get("HF_ENDPOINT") or constants.ENDPOINT).rstrip("/")
    api = HfApi(endpoint=endpoint, token=token)
    problems: list[str] = []
    for repo in spec.repos:
        try:
            info = api.model_info(repo, files_metadata=True, timeout=timeout)
        except Exception as exc:
            why = _hub_error(exc, repo)
            if why is not None:
                problems.append(why)
                continue
            if type(exc).__name__ == "OfflineModeIsEnabled":
                raise PullError("HF_HUB_OFFLINE is set: unset it to pull models") from None
            if _is_network_error(exc):
                raise _unreachable(endpoint, exc, spec, models_dir) from None
            raise PullError(f"unexpected reply from {endpoint} for {repo}: {_reason(exc)}") from None
        files = [s.rfilename for s in (info.siblings or [])]
        try:
            filename = select_gguf(files, spec.quant, spec.filename)
        except PullError as exc:
            problems.append(f"{repo}: {exc}")
            continue
        return _download(spec, repo, info, filename, models_dir, endpoint, token, progress, timeout, on_progress)
    raise PullError(f"cannot pull {spec.display_name}: " + "; ".join(problems))


def format_pull_result(r: PullResult) -> str:
    """One line for the CLI, e.g. ``pulled owner/repo/F.gguf -> PATH (2.68 GB, sha256 verified)``."""
    size = f"{r.size / 1e9:.2f} GB" if r.size >= 10**8 else f"{r.size / 1e6:.1f} MB"
    if r.already_present:
        return f"already present: {r.path} ({size}, sha256 {r.sha256[:12]}... verified)"
    return f"pulled {r.repo}/{r.filename} -> {r.path} ({size}, sha256 {r.sha256[:12]}... verified)"
