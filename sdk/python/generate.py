"""Generate prospect/_operations.py from the server's OpenAPI document.

Usage: python3 generate.py [OPENAPI_JSON] > prospect/_operations.py

The default input is cmd/prospect/openapi.json, the copy of the document a
fully wired server serves (the CLI's test keeps it current). The SDK's test
suite regenerates in memory and fails when the committed file differs.
"""

from __future__ import annotations

import json
import keyword
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_DOC = os.path.join(HERE, "..", "..", "cmd", "prospect", "openapi.json")

METHODS = ("get", "post", "put", "patch", "delete")

# Operations starting a task: the answer's id field and the status route
# (the same table as the CLI's --wait, cmd/prospect/wait.go).
WAITERS = {
    "bulkmatch": ("task_id", "/v1/bulkmatch/status/{id}"),
    "segment": ("task_id", "/v1/segment/status/{id}"),
    "contacts-bulk-match": ("task_id", "/v1/bulkcontactmatch/status/{id}"),
    "gen-process": ("task_id", "/v1/gen/status/{id}"),
    "gen-process-personas": ("task_id", "/v1/gen/status/{id}"),
    "validate-icp": ("task_id", "/v1/gen/status/{id}"),
    "contacts-discover-generate": ("task_id", "/v1/gen/status/{id}"),
    "email-find": ("job_id", "/v1/email/jobs/{id}"),
    "email-verify": ("job_id", "/v1/email/jobs/{id}"),
    "email-find-batch": ("batch_id", "/v1/email/batch/{id}/results"),
    "admin-refreshes-run": ("task_id", "/v1/admin/refresh-runs/{id}"),
    "crm-suppress": ("task_id", "/v1/crm/suppress/status/{id}"),
    "export-discover": ("task_id", "/v1/exports/{id}"),
    "export-contacts": ("task_id", "/v1/exports/{id}"),
}


def method_name(op_id: str) -> str:
    name = re.sub(r"[^0-9a-zA-Z]+", "_", op_id).strip("_").lower()
    return name + "_" if keyword.iskeyword(name) else name


def arg_name(name: str) -> str:
    n = re.sub(r"[^0-9a-zA-Z_]", "_", name)
    if keyword.iskeyword(n) or n in ("self", "body", "wait", "timeout"):
        n += "_"
    return n


class Gen:
    def __init__(self, doc: dict):
        self.doc = doc
        self.schemas = doc.get("components", {}).get("schemas", {})

    def resolve(self, s):
        for _ in range(10):
            if not isinstance(s, dict):
                return s
            if "$ref" in s:
                s = self.schemas.get(s["$ref"].rsplit("/", 1)[-1])
            elif len(s.get("allOf", [])) == 1 and "type" not in s:
                s = s["allOf"][0]
            else:
                return s
        return s

    def pytype(self, s, depth: int = 0) -> str:
        """The Python annotation of a schema; component objects by name."""
        if not isinstance(s, dict) or depth > 6:
            return "Any"
        if "$ref" in s:
            name = s["$ref"].rsplit("/", 1)[-1]
            target = self.schemas.get(name, {})
            if target.get("type") == "object" and "properties" in target:
                return name
            return self.pytype(target, depth + 1)
        if len(s.get("allOf", [])) == 1:
            return self.pytype(s["allOf"][0], depth + 1)
        if "oneOf" in s or "anyOf" in s:
            parts = []
            for o in s.get("oneOf", s.get("anyOf", [])):
                t = self.pytype(o, depth + 1)
                if t not in parts:
                    parts.append(t)
            return "Union[" + ", ".join(parts) + "]" if len(parts) > 1 else parts[0]
        t = s.get("type")
        nullable = False
        if isinstance(t, list):
            nullable = "null" in t
            rest = [x for x in t if x != "null"]
            t = rest[0] if rest else None
        base = {
            "string": "str",
            "integer": "int",
            "number": "float",
            "boolean": "bool",
        }.get(t)
        if base is None:
            if t == "array":
                base = "List[" + self.pytype(s.get("items", {}), depth + 1) + "]"
            elif t == "object" or "properties" in s:
                ap = s.get("additionalProperties")
                if isinstance(ap, dict) and ap:
                    base = "Dict[str, " + self.pytype(ap, depth + 1) + "]"
                else:
                    base = "Dict[str, Any]"
            else:
                base = "Any"
        return "Optional[" + base + "]" if nullable else base

    def arg_type(self, s) -> str:
        """An argument's annotation: an item-or-array oneOf takes either."""
        return self.pytype(s)

    def typeddicts(self) -> list[str]:
        out = []
        for name in sorted(self.schemas):
            s = self.schemas[name]
            if s.get("type") != "object" or "properties" not in s:
                continue
            fields = ", ".join(
                f"{json.dumps(k)}: {json.dumps(self.pytype(v))}" for k, v in sorted(s["properties"].items())
            )
            doc = (s.get("description") or "").strip()
            if doc:
                out.append(f"# {doc.splitlines()[0][:200]}")
            out.append(f"{name} = TypedDict({name!r}, {{{fields}}}, total=False)")
            out.append("")
        return out

    def operations(self) -> list[dict]:
        ops = []
        for path, item in self.doc["paths"].items():
            for m in METHODS:
                if m in item:
                    op = dict(item[m])
                    op["_method"], op["_path"] = m.upper(), path
                    ops.append(op)
        return sorted(ops, key=lambda o: o["operationId"])

    def return_type(self, op) -> str:
        for code, r in sorted(op.get("responses", {}).items()):
            if code.startswith("2"):
                content = r.get("content", {})
                if "application/json" in content:
                    return self.pytype(content["application/json"].get("schema", {}))
                if content:
                    return "str"
                return "None"
        return "Any"

    def method(self, op) -> list[str]:
        op_id = op["operationId"]
        name = method_name(op_id)
        params = []  # (argname, apiname, where, annotation, required)
        for p in op.get("parameters", []):
            if p.get("in") == "header":
                continue
            params.append((arg_name(p["name"]), p["name"], p["in"], self.arg_type(p.get("schema", {})), bool(p.get("required"))))
        body_type = None
        rb = op.get("requestBody")
        if rb:
            content = rb.get("content", {})
            for ct in ("application/json", "multipart/form-data"):
                if ct in content:
                    body_type = ct
                    s = self.resolve(content[ct].get("schema", {})) or {}
                    for k, v in sorted(s.get("properties", {}).items()):
                        v2 = self.resolve(v) or {}
                        where = "body"
                        ann = self.arg_type(v)
                        if ct == "multipart/form-data":
                            where = "form"
                            if v2.get("format") in ("binary", "base64"):
                                where, ann = "file", "FileInput"
                        an = arg_name(k)
                        if any(an == x[0] for x in params):
                            an = "body_" + an
                        params.append((an, k, where, ann, False))
                    break
        ret = self.return_type(op)
        sig = ["self"]
        for an, _, where, ann, req in params:
            if req:
                sig.append(f"{an}: {ann}")
        for an, _, where, ann, req in params:
            if not req:
                sig.append(f"{an}: Optional[{ann}] = None")
        if body_type == "application/json":
            sig.append("body: Optional[Mapping[str, Any]] = None")
        waits = op_id in WAITERS
        if waits:
            sig.append("wait: bool = False")
            sig.append("timeout: Optional[float] = None")
        if waits:
            ret = "Any"
        if len(sig) > 1:
            sig.insert(1, "*")
        lines = [f"    def {name}(" + ", ".join(sig) + f") -> {ret}:"]
        summary = (op.get("summary") or op_id).strip()
        desc = (op.get("description") or "").strip()
        doc = f"{summary}.\n\n        {op['_method']} {op['_path']} (operation {op_id})."
        if desc:
            doc += "\n\n        " + desc.replace("\\", "\\\\").replace('"""', "'''").replace("\n", "\n        ")
        if waits:
            doc += "\n\n        wait=True polls the task's status until it ends (timeout in seconds) and returns the final status."
        lines.append(f'        """{doc}\n        """')
        def mapping(where):
            items = [f"{json.dumps(api)}: {an}" for an, api, w, _, _ in params if w == where]
            return "{" + ", ".join(items) + "}"
        call = (
            f"        answer = self._call({op['_method']!r}, {op['_path']!r}, path_params={mapping('path')}, "
            f"query={mapping('query')}"
        )
        if body_type == "application/json":
            call += f", json_body=self._merge(body, {mapping('body')})"
        elif body_type == "multipart/form-data":
            call += f", form={mapping('form')}, files={mapping('file')}"
        call += ")"
        lines.append(call)
        if waits:
            lines.append(f"        if wait:")
            lines.append(f"            return self.wait({op_id!r}, answer, timeout=timeout)")
        lines.append("        return answer" + ("" if ret == "Any" else "  # type: ignore[no-any-return]"))
        lines.append("")
        names = [an for an, _, _, _, _ in params]
        if body_type == "application/json":
            names.append("body")
        if waits:
            names += ["wait", "timeout"]
        kwargs = ", ".join(f"{n}={n}" for n in names)
        alines = [f"    async def {name}(" + ", ".join(sig) + f") -> {ret}:",
                  f'        """{summary} (async; see Client.{name})."""',
                  f"        return await self._run(self._sync.{name}" + (", " + kwargs if kwargs else "") + ")" +
                  ("" if ret == "Any" else "  # type: ignore[no-any-return]"),
                  ""]
        alias = op_id[4:] if op_id.startswith("get-") else None
        if alias:
            lines.append(f"    {method_name(alias)} = {name}")
            lines.append("")
            alines.append(f"    {method_name(alias)} = {name}")
            alines.append("")
        self.async_lines.extend(alines)
        return lines

    def render(self) -> str:
        out = [
            '"""Operations of the prospecting API, generated by generate.py from the',
            'OpenAPI document. Do not edit: run `python3 sdk/python/generate.py >',
            'sdk/python/prospect/_operations.py`."""',
            "",
            "from __future__ import annotations",
            "",
            "import abc",
            "import os",
            "from typing import IO, Any, Dict, List, Mapping, Optional, Tuple, TypedDict, Union",
            "",
            "# A file to upload: a path, its bytes, or an open binary file.",
            "FileInput = Union[str, bytes, \"os.PathLike[str]\", IO[bytes]]",
            "",
            f"WAITERS: Dict[str, Tuple[str, str]] = {WAITERS!r}",
            "",
            "OPERATIONS: Dict[str, Tuple[str, str, str]] = {",
        ]
        ops = self.operations()
        for op in ops:
            out.append(f"    {op['operationId']!r}: ({op['_method']!r}, {op['_path']!r}, {method_name(op['operationId'])!r}),")
        out.append("}")
        out.append("")
        out.extend(self.typeddicts())
        out.append("")
        out.append("class Operations(abc.ABC):")
        out.append('    """One method per API operation, named after its operation id."""')
        out.append("")
        out.append("    @abc.abstractmethod")
        out.append("    def _call(self, method: str, path: str, *, path_params: Dict[str, Any], query: Dict[str, Any],")
        out.append("              json_body: Optional[Dict[str, Any]] = None, form: Optional[Dict[str, Any]] = None,")
        out.append("              files: Optional[Dict[str, Any]] = None) -> Any: ...")
        out.append("")
        out.append("    def _merge(self, body: Optional[Mapping[str, Any]], fields: Dict[str, Any]) -> Dict[str, Any]:")
        out.append("        merged = dict(body or {})")
        out.append("        merged.update({k: v for k, v in fields.items() if v is not None})")
        out.append("        return merged")
        out.append("")
        out.append("    @abc.abstractmethod")
        out.append("    def wait(self, operation_id: str, answer: Any, *, timeout: Optional[float] = None) -> Any: ...")
        out.append("")
        self.async_lines = []
        for op in ops:
            out.extend(self.method(op))
        out.append("")
        out.append("class AsyncOperations(abc.ABC):")
        out.append('    """The operations as coroutines, each running the blocking call in a thread."""')
        out.append("")
        out.append("    _sync: Operations")
        out.append("")
        out.append("    @abc.abstractmethod")
        out.append("    async def _run(self, fn: Any, **kwargs: Any) -> Any: ...")
        out.append("")
        out.extend(self.async_lines)
        return "\n".join(out).rstrip() + "\n"


def generate(doc_path: str = DEFAULT_DOC) -> str:
    with open(doc_path, encoding="utf-8") as f:
        return Gen(json.load(f)).render()


if __name__ == "__main__":
    sys.stdout.write(generate(sys.argv[1] if len(sys.argv) > 1 else DEFAULT_DOC))
