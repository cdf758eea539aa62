"""
Emits, with the official openlineage-python client, every event kind and every facet class the
installed client ships, to a running lineage service, and reports what the service did with each.

Run by scripts/conformance.ts inside a throw-away virtualenv (npm run conformance); by hand:
    python emit.py --url http://127.0.0.1:5000 --report report.json

Nothing here names a facet class: the classes are found by walking the client's packages, so a new
client release with new facets is covered without a change. Each class is built with the least its
constructor takes (values made from its type hints), put in the slot its base class says (run, job,
dataset, input or output facets) under its spec key, sent in a RunEvent with the client's own HTTP
transport, and then looked for in the service's read API.
"""

from __future__ import annotations

import argparse
import datetime as dt
import enum
import importlib
import inspect
import json
import pkgutil
import sys
import traceback
import typing
import urllib.parse
import uuid
from importlib.metadata import version as package_version

import attr
import requests

import openlineage.client as ol_client
from openlineage.client import event_v2, facet_v2
from openlineage.client import facet as facet_v1
from openlineage.client import run as run_v1
from openlineage.client.serde import Serde
from openlineage.client.transport.http import HttpConfig, HttpTransport

PRODUCER = "https://github.com/lineage-graph-service/conformance"
NAMESPACE = "conformance"
DATASET_NAMESPACE = "conformance-ds://warehouse"

# Spec facet keys that are not the class name in lowerCamelCase (the key is in each facet's JSON
# schema, under `properties`, not in the generated classes).
KEY_OVERRIDES = {
    "Datasource": "dataSource",
    "DataSource": "dataSource",
    "SQL": "sql",
    "Sql": "sql",
    "ProcessingEngine": "processing_engine",
    "DatasetVersion": "version",
    "InputSubset": "subset",
    "OutputSubset": "subset",
}

# Slot of a facet class by the suffix of its name (checked longest first).
SLOT_SUFFIXES = [
    ("InputDatasetFacet", "input"),
    ("OutputDatasetFacet", "output"),
    ("DatasetFacet", "dataset"),
    ("JobFacet", "job"),
    ("RunFacet", "run"),
]


def now() -> str:
    return dt.datetime.now(dt.timezone.utc).isoformat()


def facet_key(cls: type) -> str:
    name = cls.__name__
    for suffix, _ in SLOT_SUFFIXES:
        if name.endswith(suffix):
            name = name[: -len(suffix)]
            break
    return KEY_OVERRIDES.get(name, name[:1].lower() + name[1:])


def slot_of(cls: type) -> str | None:
    """The slot from the v2 base classes, else (v1 facets all derive from one BaseFacet) the name."""
    bases = [
        (facet_v2.InputDatasetFacet, "input"),
        (facet_v2.OutputDatasetFacet, "output"),
        (facet_v2.DatasetFacet, "dataset"),
        (facet_v2.JobFacet, "job"),
        (facet_v2.RunFacet, "run"),
    ]
    for base, slot in bases:
        if issubclass(cls, base):
            return slot
    for suffix, slot in SLOT_SUFFIXES:
        if cls.__name__.endswith(suffix):
            return slot
    return None


def iter_modules(package):
    yield package
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        try:
            yield importlib.import_module(info.name)
        except Exception:  # noqa: BLE001 - optional transports need extras that are not installed
            continue


def facet_classes() -> list[tuple[str, type]]:
    """Every concrete facet class of the installed client, as (generation, class)."""
    bases = {
        facet_v2.BaseFacet,
        facet_v2.RunFacet,
        facet_v2.JobFacet,
        facet_v2.DatasetFacet,
        facet_v2.InputDatasetFacet,
        facet_v2.OutputDatasetFacet,
        facet_v1.BaseFacet,
    }
    found: dict[type, str] = {}
    for module in iter_modules(ol_client):
        for _, obj in inspect.getmembers(module, inspect.isclass):
            if obj in bases or obj in found or not attr.has(obj):
                continue
            if not obj.__module__.startswith("openlineage.client"):
                continue
            if issubclass(obj, facet_v2.BaseFacet):
                found[obj] = "v2"
            elif issubclass(obj, facet_v1.BaseFacet):
                found[obj] = "v1"
    return sorted(((gen, cls) for cls, gen in found.items()), key=lambda p: (p[0], p[1].__module__, p[1].__name__))


# --- values from type hints -------------------------------------------------------------------


def hints(cls: type) -> dict[str, typing.Any]:
    module = sys.modules[cls.__module__]
    namespace = {**vars(typing), **vars(module)}
    try:
        return typing.get_type_hints(cls, globalns=namespace)
    except Exception:  # noqa: BLE001
        attr.resolve_types(cls, globalns=namespace)
        return {a.name: a.type for a in attr.fields(cls)}


def string_for(name: str) -> str:
    lower = name.lower()
    if "time" in lower or "date" in lower or lower in {"lastupdated"}:
        return now()
    if lower in {"runid"}:
        return str(uuid.uuid4())
    if lower in {"uri", "url", "location"} or lower.endswith("uri") or lower.endswith("url"):
        return "https://example.com/conformance"
    if lower == "namespace":
        return DATASET_NAMESPACE
    return f"conformance-{name}"


def value_for(tp: typing.Any, name: str, depth: int = 0) -> typing.Any:
    if depth > 6:
        return None
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is typing.Union or (origin is not None and getattr(origin, "__name__", "") == "UnionType"):
        concrete = [a for a in args if a is not type(None)]
        return value_for(concrete[0], name, depth) if concrete else None
    if str(type(tp)) == "<class 'types.UnionType'>":
        concrete = [a for a in typing.get_args(tp) if a is not type(None)]
        return value_for(concrete[0], name, depth)
    if origin is typing.Literal:
        return args[0]
    if origin in (list, typing.List, tuple):  # noqa: UP006
        return [value_for(args[0] if args else str, name, depth + 1)]
    if origin in (dict, typing.Dict):  # noqa: UP006
        return {f"conformance_{name}": value_for(args[1] if len(args) > 1 else str, name, depth + 1)}
    if tp is typing.Any or tp is object:
        return string_for(name)
    if inspect.isclass(tp):
        if issubclass(tp, enum.Enum):
            return next(iter(tp))
        if tp is bool:
            return True
        if tp is int:
            return 1
        if tp is float:
            return 1.0
        if tp is str:
            return string_for(name)
        if attr.has(tp):
            return build(tp, depth + 1)
    return string_for(name)


def build(cls: type, depth: int = 0) -> typing.Any:
    """An instance of an attrs class with every argument its constructor requires, and no other."""
    types = hints(cls)
    kwargs = {}
    for a in attr.fields(cls):
        if not a.init or a.default is not attr.NOTHING:
            continue
        key = a.alias if getattr(a, "alias", None) else a.name.lstrip("_")
        kwargs[key] = value_for(types.get(a.name, str), a.name, depth)
    return cls(**kwargs)


# --- events -----------------------------------------------------------------------------------


def run_event_v2(event_type, job_name: str, run_id: str, slot: str | None = None, key: str | None = None, facet=None):
    run_facets, job_facets, ds_facets, in_facets, out_facets = {}, {}, {}, {}, {}
    target = {"run": run_facets, "job": job_facets, "dataset": ds_facets, "input": in_facets, "output": out_facets}
    if slot:
        target[slot][key] = facet
    inputs = [event_v2.InputDataset(namespace=DATASET_NAMESPACE, name=f"{job_name}.in", facets=ds_facets, inputFacets=in_facets)]
    outputs = [event_v2.OutputDataset(namespace=DATASET_NAMESPACE, name=f"{job_name}.out", facets=ds_facets, outputFacets=out_facets)]
    return event_v2.RunEvent(
        eventType=event_type,
        eventTime=now(),
        run=event_v2.Run(runId=run_id, facets=run_facets),
        job=event_v2.Job(namespace=NAMESPACE, name=job_name, facets=job_facets),
        inputs=inputs,
        outputs=outputs,
        producer=PRODUCER,
    )


def run_event_v1(state, job_name: str, run_id: str, slot: str | None = None, key: str | None = None, facet=None):
    run_facets, job_facets, ds_facets, in_facets, out_facets = {}, {}, {}, {}, {}
    target = {"run": run_facets, "job": job_facets, "dataset": ds_facets, "input": in_facets, "output": out_facets}
    if slot:
        target[slot][key] = facet
    return run_v1.RunEvent(
        eventType=state,
        eventTime=now(),
        run=run_v1.Run(runId=run_id, facets=run_facets),
        job=run_v1.Job(namespace=NAMESPACE, name=job_name, facets=job_facets),
        producer=PRODUCER,
        inputs=[run_v1.InputDataset(namespace=DATASET_NAMESPACE, name=f"{job_name}.in", facets=ds_facets, inputFacets=in_facets)],
        outputs=[run_v1.OutputDataset(namespace=DATASET_NAMESPACE, name=f"{job_name}.out", facets=ds_facets, outputFacets=out_facets)],
    )


class Service:
    def __init__(self, url: str, api_key: str | None):
        auth = {"type": "api_key", "apiKey": api_key} if api_key else None
        # No retries, so a refusal shows as sent; a longer timeout than the client's 5 s default,
        # because a cold service on a loaded machine can take longer to commit its first events.
        base = {"type": "http", "url": url, "timeout": 120, "retry": {"total": 0}, **({"auth": auth} if auth else {})}
        self.transport = HttpTransport(HttpConfig.from_dict(base))
        self.gzip_transport = HttpTransport(HttpConfig.from_dict({**base, "compression": "gzip"}))
        self.url = url.rstrip("/")
        self.headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}

    def send(self, event, gzip: bool = False) -> tuple[int, str]:
        transport = self.gzip_transport if gzip else self.transport
        try:
            resp = transport.emit(event)
            return resp.status_code, ""
        except requests.HTTPError as e:
            return e.response.status_code, e.response.text[:500]
        except Exception as e:  # noqa: BLE001
            return 0, f"{type(e).__name__}: {e}"

    def get(self, path: str) -> dict | None:
        resp = requests.get(self.url + path, headers=self.headers, timeout=30)
        return resp.json() if resp.status_code == 200 else None


def q(s: str) -> str:
    return urllib.parse.quote(s, safe="")


def stored_facets(service: Service, slot: str, job_name: str, run_id: str) -> dict:
    """Where the read API shows a facet of this slot (input/output facets: on the dataset version)."""
    if slot == "run":
        run = service.get(f"/api/v1/jobs/runs/{run_id}")
        return (run or {}).get("facets") or {}
    if slot == "job":
        job = service.get(f"/api/v1/namespaces/{NAMESPACE}/jobs/{q(job_name)}")
        return (job or {}).get("facets") or {}
    name = f"{job_name}.in" if slot == "input" else f"{job_name}.out"
    if slot == "dataset":
        ds = service.get(f"/api/v1/namespaces/{q(DATASET_NAMESPACE)}/datasets/{q(name)}")
        return (ds or {}).get("facets") or {}
    versions = service.get(f"/api/v1/namespaces/{q(DATASET_NAMESPACE)}/datasets/{q(name)}/versions") or {}
    merged: dict = {}
    for v in versions.get("versions") or []:
        merged.update(v.get("facets") or {})
    return merged


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--report", required=True)
    parser.add_argument("--api-key", default=None)
    args = parser.parse_args()
    service = Service(args.url, args.api_key)
    results = []

    def record(kind: str, name: str, status: int, detail: str = "", visible: bool | None = None, sent=None):
        accepted = status == 201 and visible is not False
        results.append({"kind": kind, "name": name, "status": status, "accepted": accepted, "visibleOnRead": visible, "detail": detail, **({"event": json.loads(Serde.to_json(sent))} if sent is not None and not accepted else {})})
        mark = "ok  " if accepted else "FAIL"
        print(f"  {mark} {kind:<12} {name:<60} {status}{' not visible on read' if visible is False else ''}{' ' + detail if detail else ''}", flush=True)

    # Every event kind: RunEvent with each eventType (a run's whole lifecycle, v2 and legacy v1
    # classes), a RunEvent without eventType, a JobEvent, a DatasetEvent, and a gzip-compressed one.
    for gen, types, make in (("v2", list(event_v2.RunState), run_event_v2), ("v1", list(run_v1.RunState), run_event_v1)):
        run_id = str(uuid.uuid4())
        for t in types:
            event = make(t, f"lifecycle_{gen}", run_id)
            status, detail = service.send(event)
            record(f"event/{gen}", f"RunEvent {t.value}", status, detail, sent=event)
    event = event_v2.RunEvent(eventTime=now(), run=event_v2.Run(runId=str(uuid.uuid4())), job=event_v2.Job(namespace=NAMESPACE, name="no_event_type"), producer=PRODUCER)
    status, detail = service.send(event)
    record("event/v2", "RunEvent without eventType", status, detail, sent=event)
    event = event_v2.JobEvent(eventTime=now(), job=event_v2.Job(namespace=NAMESPACE, name="job_event"), inputs=[event_v2.InputDataset(DATASET_NAMESPACE, "job_event.in")], outputs=[event_v2.OutputDataset(DATASET_NAMESPACE, "job_event.out")], producer=PRODUCER)
    status, detail = service.send(event)
    record("event/v2", "JobEvent", status, detail, sent=event)
    event = event_v2.DatasetEvent(eventTime=now(), dataset=event_v2.StaticDataset(namespace=DATASET_NAMESPACE, name="dataset_event"), producer=PRODUCER)
    status, detail = service.send(event)
    record("event/v2", "DatasetEvent", status, detail, sent=event)
    event = run_event_v2(event_v2.RunState.COMPLETE, "gzip", str(uuid.uuid4()))
    status, detail = service.send(event, gzip=True)
    record("event/v2", "RunEvent COMPLETE, gzip-compressed", status, detail, sent=event)

    # Every facet class, each alone in its slot of a COMPLETE RunEvent, then looked for on read.
    classes = facet_classes()
    skipped: list[str] = []
    for gen, cls in classes:
        slot = slot_of(cls)
        label = f"{cls.__module__.removeprefix('openlineage.client.')}.{cls.__name__}"
        if slot is None:
            # A v1 helper type that derives from BaseFacet (e.g. facet.ExtractionError, an item of
            # ExtractionErrorRunFacet): no facet of its own, so nothing to send.
            skipped.append(label)
            print(f"  skip {'facet/' + gen:<12} {label} (derives from BaseFacet but is not a facet)", flush=True)
            continue
        key = facet_key(cls)
        try:
            facet = build(cls)
        except Exception as e:  # noqa: BLE001
            record(f"facet/{gen}", label, -1, f"could not build with minimal arguments: {type(e).__name__}: {e}")
            traceback.print_exc()
            continue
        job_name = f"{gen}.{cls.__name__}"
        run_id = str(uuid.uuid4())
        if gen == "v2":
            event = run_event_v2(event_v2.RunState.COMPLETE, job_name, run_id, slot, key, facet)
        else:
            event = run_event_v1(run_v1.RunState.COMPLETE, job_name, run_id, slot, key, facet)
        status, detail = service.send(event)
        visible = key in stored_facets(service, slot, job_name, run_id) if status == 201 else None
        record(f"facet/{gen}", f"{label} as {slot}.{key}", status, detail, visible, sent=event)
        if gen == "v2" and slot == "dataset":
            ds_event = event_v2.DatasetEvent(eventTime=now(), dataset=event_v2.StaticDataset(namespace=DATASET_NAMESPACE, name=f"{job_name}.static", facets={key: facet}), producer=PRODUCER)
            status, detail = service.send(ds_event)
            ds = service.get(f"/api/v1/namespaces/{q(DATASET_NAMESPACE)}/datasets/{q(job_name + '.static')}") if status == 201 else None
            record(f"facet/{gen}", f"{label} in a DatasetEvent", status, detail, None if ds is None else key in (ds.get("facets") or {}), sent=ds_event)

    report = {
        "client": "openlineage-python",
        "clientVersion": package_version("openlineage-python"),
        "python": sys.version.split()[0],
        "url": args.url,
        "facetClasses": [f"{gen}:{cls.__module__}.{cls.__name__}" for gen, cls in classes],
        "skipped": skipped,
        "results": results,
        "accepted": sum(1 for r in results if r["accepted"]),
        "refused": sum(1 for r in results if not r["accepted"]),
    }
    with open(args.report, "w") as out:
        json.dump(report, out, indent=2)
    print(f"openlineage-python {report['clientVersion']}: {len(classes) - len(skipped)} facet classes ({len(skipped)} helper types skipped), {len(results)} checks, {report['accepted']} accepted, {report['refused']} refused")
    return 0 if report["refused"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
