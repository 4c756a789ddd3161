"""Builders for reservation tests: Koordinator Reservations
(scheduling.koordinator.sh/v1alpha1, cluster scoped) and the pod-side
annotations that use them.

troupe's reservation controller schedules a Reservation like a pod from its
template and writes what it allocated on the object (status.nodeName,
allocatable, phase Available; the device-allocated and resource-status
annotations). A test against a scheduler without the controller plays it:
play_controller() writes the same.
"""
import json

RESERVATIONS_PATH = "/apis/scheduling.koordinator.sh/v1alpha1/reservations"
MERGE = "application/merge-patch+json"
RESERVATION_ALLOCATED = "scheduling.koordinator.sh/reservation-allocated"
RESERVATION_AFFINITY = "scheduling.koordinator.sh/reservation-affinity"
EXACT_MATCH = "scheduling.koordinator.sh/exact-match-reservation"
RESERVATION_IGNORED = "scheduling.koordinator.sh/reservation-ignored"
DEBUG = "/apis/v1/plugins/Reservation/nodes/"


def make_reservation(name, requests, owner_labels, policy=None, annotations=None, allocate_once=False,
                     template_labels=None, node_name=None):
    """A Reservation whose template asks for `requests` (also its allocatable
    once Available) for pods labelled `owner_labels`, on `node_name` if given."""
    container = {"name": "main", "image": "busybox",
                 "resources": {"requests": dict(requests), "limits": dict(requests)}}
    spec = {
        "template": {"metadata": {"labels": dict(template_labels or {})},
                     "spec": {"containers": [container], "schedulerName": "troupe-scheduler"}},
        "owners": [{"labelSelector": {"matchLabels": dict(owner_labels)}}],
        "ttl": "1h",
        "allocateOnce": allocate_once,
    }
    if policy:
        spec["allocatePolicy"] = policy
    if node_name:
        spec["template"]["spec"]["nodeName"] = node_name
    meta = {"name": name}
    if annotations:
        meta["annotations"] = {k: v if isinstance(v, str) else json.dumps(v, separators=(",", ":"))
                               for k, v in annotations.items()}
    return {"apiVersion": "scheduling.koordinator.sh/v1alpha1", "kind": "Reservation", "metadata": meta,
            "spec": spec}


def available_status(node_name, requests):
    """What the controller writes once the reservation is bound to a node."""
    return {"status": {"phase": "Available", "nodeName": node_name, "allocatable": dict(requests),
                       "conditions": [{"type": "Scheduled", "status": "True", "reason": "Scheduled"},
                                      {"type": "Ready", "status": "True", "reason": "Available"}]}}


def play_controller(client, name, node_name, requests, annotations):
    """What the controller writes once it placed the reservation: the
    allocation annotations on the object, then the Available status."""
    encoded = {k: v if isinstance(v, str) else json.dumps(v, separators=(",", ":")) for k, v in annotations.items()}
    client.ok("PATCH", RESERVATIONS_PATH + "/" + name, {"metadata": {"annotations": encoded}}, MERGE)
    client.ok("PATCH", RESERVATIONS_PATH + "/" + name + "/status", available_status(node_name, requests), MERGE)


def allocated_reservation(pod):
    """The pod's reservation-allocated annotation, decoded (None without one)."""
    text = (pod["metadata"].get("annotations") or {}).get(RESERVATION_ALLOCATED)
    return json.loads(text) if text else None
