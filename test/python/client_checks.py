"""The official Python Kubernetes client (Debian's python3-kubernetes) against katalog/testing.

Run by test/testing/python-client.test.ts with the server URL as the only argument and the unpacked client on
PYTHONPATH. Prints one `ok <check>` line per check that passed; the first failure raises (non-zero exit).
"""
import json
import sys
import time

from kubernetes import client, watch
from kubernetes.client.rest import ApiException
from kubernetes.dynamic import DynamicClient

NS = "default"


def ok(name):
    print("ok " + name, flush=True)


def expect_status(call, code, reason):
    try:
        call()
    except ApiException as error:
        body = json.loads(error.body)
        assert error.status == code, (error.status, error.body)
        assert body["kind"] == "Status" and body["status"] == "Failure", body
        assert body["code"] == code and body["reason"] == reason, body
        return body
    raise AssertionError("expected HTTP %d %s" % (code, reason))


def main(url):
    configuration = client.Configuration()
    configuration.host = url
    api_client = client.ApiClient(configuration)
    core = client.CoreV1Api(api_client)
    apps = client.AppsV1Api(api_client)
    custom = client.CustomObjectsApi(api_client)
    dynamic = DynamicClient(api_client)

    # CRUD
    body = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py", labels={"app": "py", "tier": "a"}), data={"k": "1"})
    created = core.create_namespaced_config_map(NS, body)
    assert created.metadata.uid and created.metadata.resource_version, created.metadata
    read = core.read_namespaced_config_map("py", NS)
    assert read.data == {"k": "1"}, read.data
    read.data["k"] = "2"
    replaced = core.replace_namespaced_config_map("py", NS, read)
    assert replaced.data == {"k": "2"} and replaced.metadata.resource_version != created.metadata.resource_version
    ok("create, read, replace")

    # 409: AlreadyExists, and a stale resourceVersion
    expect_status(lambda: core.create_namespaced_config_map(NS, body), 409, "AlreadyExists")
    stale = core.read_namespaced_config_map("py", NS)
    stale.metadata.resource_version = created.metadata.resource_version
    conflict = expect_status(lambda: core.replace_namespaced_config_map("py", NS, stale), 409, "Conflict")
    assert "the object has been modified" in conflict["message"], conflict
    ok("409 AlreadyExists and Conflict Status")

    # patches: strategic merge (a dict through the typed API), JSON patch (a list), merge and apply (dynamic client)
    strategic = core.patch_namespaced_config_map("py", NS, {"data": {"s": "strategic"}})
    assert strategic.data == {"k": "2", "s": "strategic"}, strategic.data
    jsonpatch = core.patch_namespaced_config_map("py", NS, [{"op": "add", "path": "/data/j", "value": "json"}])
    assert jsonpatch.data["j"] == "json", jsonpatch.data
    configmaps = dynamic.resources.get(api_version="v1", kind="ConfigMap")
    merged = dynamic.patch(configmaps, name="py", namespace=NS, body={"data": {"s": None, "m": "merge"}}, content_type="application/merge-patch+json")
    assert dict(merged.data) == {"k": "2", "j": "json", "m": "merge"}, merged.data
    # an apply body must be text for this client (it refuses a dict for application/apply-patch+yaml, and its
    # server_side_apply() wants a dict), so the request goes out through the dynamic client's request()
    applied = dynamic.request(
        "patch",
        configmaps.path(name="applied", namespace=NS),
        body="apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  a: '1'\n",
        content_type="application/apply-patch+yaml",
        field_manager="python-apply",
    )
    assert applied.metadata.name == "applied"
    managers = [m.manager for m in core.read_namespaced_config_map("applied", NS).metadata.managed_fields]
    assert managers == ["python-apply"], managers
    ok("patch: strategic, json, merge, apply")

    # custom objects: this client sends their patches as merge patches
    custom.create_namespaced_custom_object("example.com", "v1", NS, "widgets", {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "pw"}, "spec": {"size": 1, "color": "red"}})
    patched = custom.patch_namespaced_custom_object("example.com", "v1", NS, "widgets", "pw", {"spec": {"size": 2, "color": None}})
    assert patched["spec"] == {"size": 2}, patched
    expect_status(lambda: custom.get_namespaced_custom_object("example.com", "v1", NS, "widgets", "nope"), 404, "NotFound")
    # kube-apiserver refuses a strategic merge patch of a custom resource: 415 with its message
    refused = expect_status(
        lambda: dynamic.patch(dynamic.resources.get(api_version="example.com/v1", kind="Widget"), name="pw", namespace=NS, body={"spec": {"size": 3}}),
        415,
        "UnsupportedMediaType",
    )
    assert refused["message"].startswith("the body of the request was in an unknown format"), refused
    ok("custom objects: create, merge patch, 404, 415 for strategic merge")

    # list with label and field selectors
    core.create_namespaced_config_map(NS, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-b", labels={"app": "py", "tier": "b"})))
    names = lambda items: sorted(i.metadata.name for i in items)
    assert names(core.list_namespaced_config_map(NS, label_selector="app=py").items) == ["py", "py-b"]
    assert names(core.list_namespaced_config_map(NS, label_selector="app=py,tier in (b)").items) == ["py-b"]
    assert names(core.list_namespaced_config_map(NS, label_selector="app=py", field_selector="metadata.name!=py").items) == ["py-b"]
    page = core.list_namespaced_config_map(NS, label_selector="app=py", limit=1)
    assert len(page.items) == 1 and page.metadata._continue, page.metadata
    rest = core.list_namespaced_config_map(NS, label_selector="app=py", limit=1, _continue=page.metadata._continue)
    assert names(page.items + rest.items) == ["py", "py-b"]
    ok("list with label and field selectors, limit and continue")

    # watch from a list's resourceVersion: only what changed after the list arrives, in order
    listed = core.list_namespaced_config_map(NS, label_selector="app=py")
    core.create_namespaced_config_map(NS, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-c", labels={"app": "py"})))
    core.delete_namespaced_config_map("py-b", NS)
    seen = []
    w = watch.Watch()
    for event in w.stream(core.list_namespaced_config_map, NS, label_selector="app=py", resource_version=listed.metadata.resource_version, timeout_seconds=10):
        seen.append((event["type"], event["object"].metadata.name))
        if len(seen) == 2:
            w.stop()
    assert seen == [("ADDED", "py-c"), ("DELETED", "py-b")], seen
    ok("watch from a list's resourceVersion")

    # delete, then 404 NotFound
    status = core.delete_namespaced_config_map("py", NS)
    assert status.status == "Success", status
    missing = expect_status(lambda: core.read_namespaced_config_map("py", NS), 404, "NotFound")
    assert missing["message"] == 'configmaps "py" not found', missing
    assert missing["details"] == {"name": "py", "kind": "configmaps"}, missing
    ok("delete and 404 NotFound Status")

    # dryRun: the answer of a write, nothing stored; an unknown value is 422 on CreateOptions
    dry_body = client.V1ConfigMap(metadata=client.V1ObjectMeta(name="py-dry"), data={"k": "1"})
    dry = core.create_namespaced_config_map(NS, dry_body, dry_run="All")
    assert dry.metadata.name == "py-dry" and dry.data == {"k": "1"}, dry
    expect_status(lambda: core.read_namespaced_config_map("py-dry", NS), 404, "NotFound")
    bad_dry = expect_status(lambda: core.create_namespaced_config_map(NS, dry_body, dry_run="Bogus"), 422, "Invalid")
    assert bad_dry["message"] == 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Bogus"]: supported values: "All"', bad_dry
    ok("dryRun: nothing stored, 422 for another value")

    # fieldValidation: this client (22.x) has no field_validation argument, so it goes through call_api's query
    # parameters, as a Python user would send it. Warn: Warning headers, the unknown field dropped; Strict: 400.
    unknown = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "py-fv"}, "foo": 1, "data": {"k": "1"}}
    path = "/api/v1/namespaces/{namespace}/configmaps"

    def post(mode, body):
        return api_client.call_api(
            path, "POST", path_params={"namespace": NS}, query_params=[("fieldValidation", mode)], body=body,
            header_params={"Content-Type": "application/json", "Accept": "application/json"},
            response_type="object", _return_http_data_only=False)

    stored, code, headers = post("Warn", unknown)
    assert code == 201 and "foo" not in stored and stored["data"] == {"k": "1"}, (code, stored)
    assert headers.get("Warning") == '299 - "unknown field \\"foo\\""', headers.get("Warning")
    strict = expect_status(lambda: post("Strict", dict(unknown, metadata={"name": "py-fv2"})), 400, "BadRequest")
    assert strict["message"] == 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "foo"', strict
    expect_status(lambda: core.read_namespaced_config_map("py-fv2", NS), 404, "NotFound")
    ok("fieldValidation: Warn's Warning header, Strict's 400")

    # the simulated workload controllers: a Deployment reports its replicas ready
    deployment = {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": {"name": "py-web"},
        "spec": {
            "replicas": 2,
            "selector": {"matchLabels": {"app": "py-web"}},
            "template": {"metadata": {"labels": {"app": "py-web"}}, "spec": {"containers": [{"name": "web", "image": "nginx"}]}},
        },
    }
    apps.create_namespaced_deployment(NS, deployment)
    deadline = time.time() + 20
    while (apps.read_namespaced_deployment_status("py-web", NS).status.ready_replicas or 0) < 2:
        assert time.time() < deadline, "the Deployment never became ready"
        time.sleep(0.05)
    pods = core.list_namespaced_pod(NS, label_selector="app=py-web", field_selector="status.phase=Running")
    assert len(pods.items) == 2, [p.metadata.name for p in pods.items]
    ok("a Deployment becomes ready and its Pods run")


if __name__ == "__main__":
    main(sys.argv[1])
