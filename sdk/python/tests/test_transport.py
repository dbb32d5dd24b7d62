"""Retries and waiters against a scripted loopback server."""

import pytest

import prospect

PROBLEM = {"title": "Too Many Requests", "status": 429, "detail": "rate limit"}


def _client(url, sleeps, **kw):
    return prospect.Client("k", url, sleep=sleeps.append, **kw)


def test_429_retried_after_retry_after(scripted):
    scripted.script = [(429, {"Retry-After": "2"}, PROBLEM), (200, {}, {"plan": "team"})]
    sleeps = []
    assert _client(scripted.url, sleeps).usage() == {"plan": "team"}
    assert sleeps == [2.0] and len(scripted.seen) == 2 and scripted.seen[0][2] == "k"


def test_429_gives_up(scripted):
    scripted.script = [(429, {"Retry-After": "1"}, PROBLEM)]
    sleeps = []
    with pytest.raises(prospect.RateLimited) as e:
        _client(scripted.url, sleeps, max_retries=2).usage()
    assert e.value.status == 429 and e.value.detail == "rate limit" and sleeps == [1.0, 1.0]


def test_5xx_retried_on_get_not_on_post(scripted):
    err = {"title": "Internal Server Error", "status": 500, "detail": "boom"}
    scripted.script = [(503, {}, err), (200, {}, {"status": "ok"})]
    sleeps = []
    assert _client(scripted.url, sleeps, backoff=0.01).health() == {"status": "ok"}
    assert len(sleeps) == 1
    scripted.script = [(500, {}, err), (200, {}, {"task_id": "t"})]
    scripted.seen.clear()
    with pytest.raises(prospect.ServerError) as e:
        _client(scripted.url, []).bulkmatch(file=b"name\nx\n", name_column="name")
    assert e.value.status == 500 and len(scripted.seen) == 1


def test_wait_timeout_and_failure(scripted):
    scripted.script = [(202, {}, {"task_id": "t1", "status": "in_progress"}),
                       (200, {}, {"task_id": "t1", "status": "in_progress", "progress": 10})]
    c = prospect.Client("k", scripted.url, poll_interval=0.01)
    with pytest.raises(prospect.TaskTimeout) as e:
        c.segment(file=b"domain\na.com\n", wait=True, timeout=0.2)
    assert e.value.task_id == "t1" and e.value.status["progress"] == 10
    scripted.script = [(200, {}, {"task_id": "t2", "status": "failed", "progress": 40, "error": "engine down"})]
    with pytest.raises(prospect.TaskFailed) as f:
        c.wait("segment", {"task_id": "t2"}, timeout=5)
    assert f.value.reason == "engine down"


def test_email_batch_wait(scripted):
    scripted.script = [(200, {}, {"batch_id": "b", "total": 2, "completed": 1, "failed": 0, "results": []}),
                       (200, {}, {"batch_id": "b", "total": 2, "completed": 2, "failed": 0, "results": []})]
    c = prospect.Client("k", scripted.url, poll_interval=0.01)
    assert c.wait("email-find-batch", {"batch_id": "b"}, timeout=5)["completed"] == 2
