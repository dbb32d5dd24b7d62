"""Python client of the prospecting API (standard library only).

    import prospect
    client = prospect.Client()  # PROSPECT_API_KEY, PROSPECT_BASE_URL
    companies = client.discover(icp_text="dental clinics", max_records=10)
    profile = client.bizdata(domain=companies[0]["domain"])
    status = client.bulkmatch(file="names.csv", name_column="company", wait=True, timeout=600)
"""

from ._client import DEFAULT_BASE_URL, AsyncClient, Client, Response
from ._operations import OPERATIONS, WAITERS
from .errors import (AuthError, InvalidInput, NotFound, PaymentRequired, ProspectError, RateLimited, ServerError,
                     TaskFailed, TaskTimeout)

__all__ = [
    "Client", "AsyncClient", "Response", "DEFAULT_BASE_URL", "OPERATIONS", "WAITERS",
    "ProspectError", "InvalidInput", "AuthError", "PaymentRequired", "NotFound", "RateLimited", "ServerError",
    "TaskFailed", "TaskTimeout",
]
__version__ = "0.1.0"
