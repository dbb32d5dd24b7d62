"""The SDK against a live prospectd with a demo corpus: at least one method
per tag group, uploads, waiters, errors."""

import io
import os

import pytest

import prospect


# Service
def test_health(client):
    h = client.health()
    assert h["status"] == "ok"


# Account
def test_usage(client):
    u = client.usage()
    assert u["plan"] == "team" and u["credits_left"] > 0


def test_key_and_server_from_the_environment(base_url, api_key, monkeypatch):
    monkeypatch.setenv("PROSPECT_API_KEY", api_key)
    monkeypatch.setenv("PROSPECT_BASE_URL", base_url)
    c = prospect.Client()
    assert c.base_url == base_url.rstrip("/") and c.get_usage()["plan"] == "team"


# Discovery
def test_discover_and_count(client, companies):
    assert all(r["domain"] for r in companies)
    n = client.count(icp_text="software development tools", country=["US", "CA"])
    assert isinstance(n["count"], int)


def test_paginate(client, companies):
    rows = list(client.paginate("discover", page_size=5, limit=10, icp_text="software development tools"))
    assert [r["domain"] for r in rows] == [r["domain"] for r in companies]


# Companies
def test_bizdata(client, companies):
    d = companies[0]["domain"]
    p = client.bizdata(domain=d)
    assert p["domain"] == d and p["name"] == companies[0]["name"]
    assert client.last_response.status == 200


@pytest.mark.parametrize("kind", ["path", "bytes", "file"])
def test_bulkmatch_upload_and_wait(client, companies, tmp_path, kind):
    csv = f"company\n\"{companies[1]['name']}\"\nNo Such Company Zzyzx\n".encode()
    upload = {"bytes": csv, "file": io.BytesIO(csv)}.get(kind)
    if kind == "path":
        upload = tmp_path / "names.csv"
        upload.write_bytes(csv)
    status = client.bulkmatch(file=upload, name_column="company", wait=True, timeout=120)
    assert status["status"] == "completed"
    assert [r.get("domain") for r in status["results"]] == [companies[1]["domain"], None]


def test_bulkmatch_without_wait_then_status(client, companies):
    acc = client.bulkmatch(file=f"company\n{companies[2]['name']}\n".encode(), name_column="company")
    assert acc["task_id"]
    done = client.wait("bulkmatch", acc, timeout=120)
    assert done["task_id"] == acc["task_id"]
    assert client.bulkmatch_status(task_id=acc["task_id"])["status"] == "completed"


def test_append(client, companies):
    upload = f"domain\n{companies[0]['domain']}\n".encode()
    rows = client.append(file=upload, dataset=["domain_status"])
    assert rows[0]["domain"] == companies[0]["domain"] and "status_code" in rows[0]
    out = client.append(file=upload, dataset=["domain_status"], csv=True)
    assert isinstance(out, str) and companies[0]["domain"] in out


# Contacts
def test_contacts(client):
    found = client.contacts_discover(icp_text="engineering manager", max_records=20)
    groups = found["results"]
    assert groups and all(g["contacts"] for g in groups.values())
    n = client.contacts_count(icp_text="engineering manager")
    assert isinstance(n["count"], int) and n["count"] > 0


def test_contacts_body_mapping(client):
    a = client.contacts_discover(body={"icp_text": "engineering manager", "max_records": 20})
    b = client.contacts_discover(icp_text="engineering manager", max_records=20)
    assert a == b


# Email
def test_email_unknown_job(client):
    with pytest.raises(prospect.NotFound) as e:
        client.email_job(job_id="no-such-job")
    assert e.value.status == 404 and e.value.detail


# Saved queries
def test_saved_queries(client):
    listed = client.list_saved_queries()
    assert isinstance(listed, (list, dict))


# Research
def test_gen_models(client):
    assert client.gen_models() is not None


# Integrations
def test_search_providers_list(client):
    assert client.search_providers_list() is not None


# asyncio
def test_async_client(base_url, api_key, companies):
    import asyncio

    async def main():
        c = prospect.AsyncClient(api_key, base_url, poll_interval=0.1)
        profiles = await asyncio.gather(*(c.bizdata(domain=r["domain"]) for r in companies[:4]))
        status = await c.bulkmatch(file=f"company\n{companies[3]['name']}\n".encode(), name_column="company",
                                   wait=True, timeout=120)
        with pytest.raises(prospect.InvalidInput):
            await c.get_bizdata(domain="not a domain")
        return profiles, status

    profiles, status = asyncio.run(main())
    assert [p["domain"] for p in profiles] == [r["domain"] for r in companies[:4]]
    assert status["status"] == "completed" and status["results"][0]["domain"] == companies[3]["domain"]


# Errors
def test_422_carries_status_and_detail(client):
    with pytest.raises(prospect.InvalidInput) as e:
        client.bizdata(domain="not a domain")
    assert e.value.status == 422 and "domain" in e.value.detail


def test_401(base_url):
    with pytest.raises(prospect.AuthError) as e:
        prospect.Client("pk_live_nope", base_url).usage()
    assert e.value.status == 401


def test_402_when_credits_are_spent(base_url, small_key, companies):
    c = prospect.Client(small_key, base_url)
    with pytest.raises(prospect.PaymentRequired) as e:
        for row in companies:
            c.bizdata(domain=row["domain"])
    assert e.value.status == 402 and e.value.detail


def test_unreachable_server():
    c = prospect.Client("k", "http://127.0.0.1:1/v1", max_retries=1, backoff=0.01)
    with pytest.raises(prospect.ServerError) as e:
        c.usage()
    assert e.value.status == 0
