"""Exceptions of the SDK: every API error carries ``status`` and ``detail``."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Type


class ProspectError(Exception):
    """An error answer of the API (RFC 9457 problem document) or no answer
    at all (``status`` 0: the server could not be reached)."""

    def __init__(self, status: int, detail: str, *, title: str = "", errors: Optional[List[Dict[str, Any]]] = None,
                 body: Any = None, method: str = "", path: str = ""):
        self.status = status
        self.detail = detail
        self.title = title
        self.errors = errors or []
        self.body = body
        self.method = method
        self.path = path
        super().__init__(f"{method} {path}: {status} {title}: {detail}".strip())


class InvalidInput(ProspectError):
    """400, 413 or 422: a parameter, field or file broke a rule; ``errors``
    lists each with its ``location``."""


class AuthError(ProspectError):
    """401 (no or unknown key) or 403 (role or plan too small)."""


class PaymentRequired(ProspectError):
    """402: the period's credits are spent."""


class NotFound(ProspectError):
    """404: unknown domain, task, query or contact."""


class RateLimited(ProspectError):
    """429 still after the retries."""


class ServerError(ProspectError):
    """5xx, or the server unreachable (status 0)."""


class TaskFailed(Exception):
    """A waited task ended failed or cancelled (or an email batch has failed jobs)."""

    def __init__(self, task_id: str, reason: str, status: Any):
        self.task_id = task_id
        self.reason = reason
        self.status = status
        super().__init__(f"task {task_id}: {reason}")


class TaskTimeout(Exception):
    """A waited task was still running after the timeout; ``status`` is its last state."""

    def __init__(self, task_id: str, timeout: float, status: Any):
        self.task_id = task_id
        self.timeout = timeout
        self.status = status
        super().__init__(f"task {task_id} still running after {timeout}s")


def error_for(status: int, body: Any, method: str = "", path: str = "") -> ProspectError:
    """The exception of an error answer."""
    b = body if isinstance(body, dict) else {}
    detail = str(b.get("detail") or b.get("title") or body or "")
    cls: Type[ProspectError] = ProspectError
    if status in (400, 413, 422):
        cls = InvalidInput
    elif status in (401, 403):
        cls = AuthError
    elif status == 402:
        cls = PaymentRequired
    elif status == 404:
        cls = NotFound
    elif status == 429:
        cls = RateLimited
    elif status >= 500 or status == 0:
        cls = ServerError
    return cls(status, detail, title=str(b.get("title") or ""), errors=b.get("errors"), body=body, method=method, path=path)
