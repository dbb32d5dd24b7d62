"""The generated methods against the OpenAPI documents (no server needed
except for the served document)."""

import inspect
import json
import os
import re
import sys
import urllib.request

import prospect
from prospect import _operations

HERE = os.path.dirname(__file__)
sys.path.insert(0, os.path.join(HERE, ".."))
import generate  # noqa: E402

REPO = os.path.join(HERE, "..", "..", "..")


def _ops(doc):
    for path, item in doc["paths"].items():
        for m in ("get", "post", "put", "patch", "delete"):
            if m in item:
                yield item[m]["operationId"], m.upper(), path


def _check_every_operation_has_a_method(doc):
    missing = []
    for op_id, method, path in _ops(doc):
        name = generate.method_name(op_id)
        if not callable(getattr(prospect.Client, name, None)):
            missing.append(f"{op_id} ({method} {path}) has no method {name}")
        elif not inspect.iscoroutinefunction(getattr(prospect.AsyncClient, name, None)):
            missing.append(f"{op_id} ({method} {path}) has no coroutine AsyncClient.{name}")
        elif _operations.OPERATIONS.get(op_id) != (method, path, name):
            missing.append(f"{op_id}: OPERATIONS has {_operations.OPERATIONS.get(op_id)}, the document {method} {path}")
    assert not missing, "\n".join(missing)


def test_generated_file_is_current():
    with open(os.path.join(HERE, "..", "prospect", "_operations.py"), encoding="utf-8") as f:
        committed = f.read()
    assert committed == generate.generate(), "run: python3 sdk/python/generate.py > sdk/python/prospect/_operations.py"


def test_every_operation_of_the_committed_document_has_a_method():
    with open(generate.DEFAULT_DOC, encoding="utf-8") as f:
        _check_every_operation_has_a_method(json.load(f))


def test_every_operation_of_the_served_document_has_a_method(base_url):
    with urllib.request.urlopen(base_url + "/openapi.json") as res:
        doc = json.load(res)
    _check_every_operation_has_a_method(doc)
    assert len(list(_ops(doc))) == len(_operations.OPERATIONS)


def test_waiters_match_the_cli():
    """The SDK's task table is the CLI's (cmd/prospect/wait.go)."""
    with open(os.path.join(REPO, "cmd", "prospect", "wait.go"), encoding="utf-8") as f:
        go = f.read()
    cli = {m[0]: (m[1], m[2]) for m in re.findall(r'"([a-z-]+)":\s*\{"(\w+)", "([^"]+)"\}', go)}
    assert cli and cli == generate.WAITERS


def test_method_names_and_signatures():
    assert prospect.Client.bizdata is prospect.Client.get_bizdata
    assert prospect.Client.usage is prospect.Client.get_usage
    import inspect
    sig = inspect.signature(prospect.Client.discover)
    assert sig.parameters["icp_text"].kind is inspect.Parameter.KEYWORD_ONLY
    assert "max_records" in sig.parameters
    sig = inspect.signature(prospect.Client.bulkmatch)
    assert {"file", "name_column", "wait", "timeout"} <= set(sig.parameters)
    sig = inspect.signature(prospect.Client.bulkmatch_status)
    assert sig.parameters["task_id"].default is inspect.Parameter.empty
