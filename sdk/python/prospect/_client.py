"""HTTP transport of the SDK: key and server, retries, errors, uploads, waiters."""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from email.utils import parsedate_to_datetime
from typing import Any, Callable, Dict, Iterator, List, Mapping, Optional, Tuple

from ._operations import OPERATIONS, WAITERS, AsyncOperations, Operations
from .errors import TaskFailed, TaskTimeout, error_for

DEFAULT_BASE_URL = "http://127.0.0.1:8080/v1"
IDEMPOTENT = frozenset({"GET", "HEAD", "PUT", "DELETE", "OPTIONS"})


def _retry_after(value: Optional[str], fallback: float) -> float:
    """Seconds to wait from a Retry-After header (seconds or an HTTP date)."""
    if not value:
        return fallback
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return fallback
    return max(0.0, when.timestamp() - time.time())


def _flatten(query: Mapping[str, Any]) -> List[Tuple[str, str]]:
    """Query pairs: None dropped, lists repeated, booleans lower-case."""
    pairs: List[Tuple[str, str]] = []
    for k, v in query.items():
        if v is None:
            continue
        for item in v if isinstance(v, (list, tuple)) else [v]:
            if isinstance(item, bool):
                item = "true" if item else "false"
            pairs.append((k, str(item)))
    return pairs


def _file_part(value: Any) -> Tuple[str, bytes]:
    """(filename, content) of an upload given as a path, bytes or a binary file."""
    if isinstance(value, (bytes, bytearray)):
        return "upload.csv", bytes(value)
    if isinstance(value, (str, os.PathLike)):
        with open(value, "rb") as f:
            return os.path.basename(os.fspath(value)), f.read()
    data = value.read()
    if isinstance(data, str):
        data = data.encode("utf-8")
    return os.path.basename(getattr(value, "name", "upload.csv") or "upload.csv"), data


def _multipart(form: Mapping[str, Any], files: Mapping[str, Any]) -> Tuple[bytes, str]:
    boundary = "prospect-" + uuid.uuid4().hex
    out: List[bytes] = []
    for name, value in form.items():
        if value is None:
            continue
        for item in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(item, bool):
                item = "true" if item else "false"
            out.append(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{item}\r\n'.encode("utf-8")
            )
    for name, value in files.items():
        if value is None:
            continue
        filename, data = _file_part(value)
        filename = filename.replace('"', "_")
        out.append(
            (
                f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
                "Content-Type: application/octet-stream\r\n\r\n"
            ).encode("utf-8")
            + data
            + b"\r\n"
        )
    out.append(f"--{boundary}--\r\n".encode("ascii"))
    return b"".join(out), f"multipart/form-data; boundary={boundary}"


class Response:
    """The status, headers and decoded body of the last answer."""

    def __init__(self, status: int, headers: Mapping[str, str], body: Any):
        self.status = status
        self.headers = headers
        self.body = body


class Client(Operations):
    """Client of the prospecting API.

    The key comes from ``api_key`` or ``PROSPECT_API_KEY``; the server from
    ``base_url`` or ``PROSPECT_BASE_URL`` (the REST root including /v1),
    else http://127.0.0.1:8080/v1. Every operation of the API is a method
    named after its operation id in snake_case (``discover``,
    ``get_bizdata``/``bizdata``, ``bulkmatch``...). Errors raise
    :class:`prospect.ProspectError` subclasses carrying ``status`` and
    ``detail``. 429 is retried on every method after ``Retry-After``; other
    5xx only on idempotent methods (a POST may have started a task).
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        base_url: Optional[str] = None,
        *,
        timeout: float = 300.0,
        max_retries: int = 5,
        backoff: float = 0.5,
        poll_interval: float = 1.0,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.api_key = api_key or os.environ.get("PROSPECT_API_KEY", "")
        self.base_url = (base_url or os.environ.get("PROSPECT_BASE_URL") or DEFAULT_BASE_URL).rstrip("/")
        self.timeout = timeout
        self.max_retries = max_retries
        self.backoff = backoff
        self.poll_interval = poll_interval
        self._sleep = sleep
        self.last_response: Optional[Response] = None

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        data: Optional[bytes] = None,
        content_type: Optional[str] = None,
    ) -> Any:
        """Send one request (path starts with /v1) and return the decoded answer."""
        if not self.api_key:
            raise error_for(401, {"detail": "no API key: pass api_key or set PROSPECT_API_KEY"}, method, path)
        url = self.base_url + path[len("/v1"):] if path.startswith("/v1") else self.base_url + path
        pairs = _flatten(query or {})
        if pairs:
            url += "?" + urllib.parse.urlencode(pairs)
        headers = {"X-API-Key": self.api_key, "Accept": "application/json", "User-Agent": "prospect-python"}
        if content_type:
            headers["Content-Type"] = content_type
        attempt = 0
        while True:
            req = urllib.request.Request(url, data=data, method=method, headers=headers)
            try:
                with urllib.request.urlopen(req, timeout=self.timeout) as res:
                    return self._decode(res.status, dict(res.headers.items()), res.read())
            except urllib.error.HTTPError as e:
                raw = e.read()
                status, hdrs = e.code, dict(e.headers.items()) if e.headers else {}
                retryable = status == 429 or (status >= 500 and method.upper() in IDEMPOTENT)
                if retryable and attempt < self.max_retries:
                    wait = _retry_after(hdrs.get("Retry-After"), self.backoff * (2**attempt) * (1 + random.random() / 4))
                    attempt += 1
                    self._sleep(wait)
                    continue
                body: Any
                try:
                    body = json.loads(raw) if raw else {}
                except ValueError:
                    body = {"detail": raw.decode("utf-8", "replace")[:500]}
                self.last_response = Response(status, hdrs, body)
                raise error_for(status, body, method, path) from None
            except urllib.error.URLError as e:
                if method.upper() in IDEMPOTENT and attempt < self.max_retries:
                    attempt += 1
                    self._sleep(self.backoff * (2**attempt))
                    continue
                raise error_for(0, {"detail": f"cannot reach {self.base_url}: {e.reason}"}, method, path) from e

    def _decode(self, status: int, headers: Dict[str, str], raw: bytes) -> Any:
        ctype = headers.get("Content-Type", "")
        body: Any
        if not raw:
            body = None
        elif "json" in ctype:
            body = json.loads(raw)
        else:
            body = raw.decode("utf-8")
        self.last_response = Response(status, headers, body)
        return body

    def _call(
        self,
        method: str,
        path: str,
        *,
        path_params: Dict[str, Any],
        query: Dict[str, Any],
        json_body: Optional[Dict[str, Any]] = None,
        form: Optional[Dict[str, Any]] = None,
        files: Optional[Dict[str, Any]] = None,
    ) -> Any:
        for name, value in path_params.items():
            if value is None or value == "":
                raise ValueError(f"{name} is required")
            path = path.replace("{" + name + "}", urllib.parse.quote(str(value), safe=""))
        data: Optional[bytes] = None
        ctype: Optional[str] = None
        if json_body is not None:
            data, ctype = json.dumps(json_body).encode("utf-8"), "application/json"
        elif form is not None or files is not None:
            data, ctype = _multipart(form or {}, files or {})
        return self.request(method, path, query=query, data=data, content_type=ctype)

    def wait(self, operation_id: str, answer: Any, *, timeout: Optional[float] = None) -> Any:
        """Poll the status of the task ``answer`` (what operation_id returned)
        until it ends; return the final status. Raises TaskFailed when it
        failed or was cancelled (or an email batch has failed jobs) and
        TaskTimeout after ``timeout`` seconds (None waits forever)."""
        if operation_id not in WAITERS:
            raise ValueError(f"{operation_id} starts no task")
        id_field, status_path = WAITERS[operation_id]
        task_id = answer.get(id_field) if isinstance(answer, Mapping) else answer
        if not task_id:
            raise ValueError(f"{operation_id} answer has no {id_field}")
        path = status_path.replace("{id}", urllib.parse.quote(str(task_id), safe=""))
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            status = self.request("GET", path)
            if "total" in status and "completed" in status:  # an email batch
                if status["completed"] + status["failed"] >= status["total"]:
                    if status["failed"]:
                        raise TaskFailed(task_id, f"{status['failed']} of {status['total']} jobs failed", status)
                    return status
            elif status.get("status") == "completed":
                return status
            elif status.get("status") in ("failed", "cancelled"):
                raise TaskFailed(task_id, status.get("error") or status["status"], status)
            if deadline is not None and time.monotonic() + self.poll_interval > deadline:
                raise TaskTimeout(task_id, timeout or 0, status)
            self._sleep(self.poll_interval)

    def paginate(self, operation_id: str, *, page_size: int = 100, limit: Optional[int] = None, **params: Any) -> Iterator[Any]:
        """Yield the rows of an offset-paged list operation (discover,
        contacts_legacy, list_saved_queries...) page by page, until a short
        page or ``limit`` rows."""
        if operation_id not in OPERATIONS:
            raise ValueError(f"unknown operation {operation_id}")
        method = getattr(self, OPERATIONS[operation_id][2])
        offset, seen = int(params.pop("offset", 0) or 0), 0
        while True:
            page = method(max_records=page_size, offset=offset, **params)
            rows = page if isinstance(page, list) else (page or {}).get("results") or (page or {}).get("data") or []
            for row in rows:
                yield row
                seen += 1
                if limit is not None and seen >= limit:
                    return
            if len(rows) < page_size:
                return
            offset += len(rows)


class AsyncClient(AsyncOperations):
    """asyncio client: the same methods as :class:`Client` as coroutines
    (``await client.discover(...)``). Each call runs the blocking standard
    library request in a worker thread (asyncio.to_thread), so many calls
    proceed concurrently without a third-party HTTP library."""

    def __init__(self, api_key: Optional[str] = None, base_url: Optional[str] = None, **kw: Any):
        self._sync: Client = Client(api_key, base_url, **kw)

    @property
    def last_response(self) -> Optional[Response]:
        return self._sync.last_response

    async def _run(self, fn: Any, **kwargs: Any) -> Any:
        return await asyncio.to_thread(fn, **kwargs)

    async def wait(self, operation_id: str, answer: Any, *, timeout: Optional[float] = None) -> Any:
        """Like Client.wait, without blocking the event loop."""
        return await self._run(self._sync.wait, operation_id=operation_id, answer=answer, timeout=timeout)
