"""troupe scheduler end to end: Koordinator's ElasticQuota.

A profile that runs ElasticQuota places a pod only while its quota group has
room: what the quota's placed pods use plus the pod's request must stay within
the quota's runtime, which Koordinator works out from the quotas' min, max,
shared weight and what their pods ask for (a quota may borrow what another
does not use, never beyond its max). The pod names its quota by the label
quota.scheduling.koordinator.sh/name; pods naming none go to the default
quota. A rejected pod gets Koordinator's message, and is tried again when a
pod is deleted or a quota changes. The debug service
/apis/v1/plugins/ElasticQuota/quota[s] shows the figures.
"""
import json
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import (QUOTAS_PATH, SchedulingTest, make_node, make_pod, profile,  # noqa: E402
                               scheduler_config)

QUOTA_LABEL = "quota.scheduling.koordinator.sh/name"


def quota_config(args=None):
    entry = {"name": "ElasticQuota"}
    if args is not None:
        entry["args"] = args
    return scheduler_config(profiles=[profile(plugins={"multiPoint": {"enabled": [{"name": "ElasticQuota"}]}},
                                              plugin_config=[entry])])


def elastic_quota(name, min_cpu, max_cpu, namespace="default"):
    return {"apiVersion": "scheduling.sigs.k8s.io/v1alpha1", "kind": "ElasticQuota",
            "metadata": {"name": name, "namespace": namespace},
            "spec": {"min": {"cpu": min_cpu}, "max": {"cpu": max_cpu}}}


def quota_pod(name, quota, cpu="1"):
    pod = make_pod(name, cpu=cpu, memory="256Mi")
    if quota:
        pod["metadata"]["labels"] = {QUOTA_LABEL: quota}
    return pod


class ElasticQuotaTest(SchedulingTest):
    def quota_summary(self, name):
        status, body = self.scheduler.get("/apis/v1/plugins/ElasticQuota/quota/" + name)
        self.assertEqual(status, 200, body)
        return json.loads(body)

    def test_a_quota_caps_its_pods_until_it_grows_or_a_pod_goes(self):
        self.start([make_node("n1", cpu="8", memory="16Gi"), make_node("n2", cpu="8", memory="16Gi"),
                    elastic_quota("team-a", "2", "3")], quota_config())
        self.place([quota_pod("a-%d" % i, "team-a") for i in range(3)])
        message = self.create_unschedulable(quota_pod("a-3", "team-a"))
        # As Koordinator prints it: used and the request name every resource, the runtime those of the max.
        self.assertIn("Insufficient quotas, quotaName: team-a, runtime: cpu:3, used: cpu:3,memory:768Mi, "
                      "pod's request: cpu:1,memory:256Mi, exceedDimensions: [cpu]", message)
        # A pod of no quota goes to the default one, which has room.
        self.place_one(quota_pod("free", None))
        # The quota grows: the rejected pod is tried again and placed.
        self.client.ok("PATCH", QUOTAS_PATH % "default" + "/team-a", {"spec": {"max": {"cpu": "4"}}},
                       content_type="application/merge-patch+json")
        self.cluster.wait(lambda: self.client.pod("a-3")["spec"].get("nodeName"), 30, "a-3 bound after the quota grew")
        message = self.create_unschedulable(quota_pod("a-4", "team-a"))
        self.assertIn("Insufficient quotas, quotaName: team-a, runtime: cpu:4, used: cpu:4", message)
        # A pod of the quota goes: its room is free again.
        self.client.ok("DELETE", "/api/v1/namespaces/default/pods/a-0")
        self.cluster.wait(lambda: self.client.pod("a-4")["spec"].get("nodeName"), 30, "a-4 bound after a-0 left")

    def test_a_quota_borrows_what_another_does_not_use(self):
        # 4 cores for two quotas with min 2 and max 4 each.
        self.start([make_node("n1", cpu="4", memory="16Gi"), elastic_quota("a", "2", "4"),
                    elastic_quota("b", "2", "4")], quota_config())
        # b asks for nothing: a may borrow beyond its min.
        self.place([quota_pod("a-%d" % i, "a") for i in range(3)])
        # b asks for one core, within its min: it gets it.
        self.place_one(quota_pod("b-0", "b"))
        # a asks for a fourth: 2 of its own, 1 borrowed, b keeps what it uses.
        message = self.create_unschedulable(quota_pod("a-3", "a"))
        self.assertIn("Insufficient quotas, quotaName: a, runtime: cpu:3, used: cpu:3", message)
        summary = self.quota_summary("a")
        self.assertEqual((summary["runtime"], summary["used"], summary["request"]),
                         ({"cpu": "3"}, {"cpu": "3", "memory": "768Mi"}, {"cpu": "4", "memory": "1Gi"}))
        self.assertEqual((summary["min"], summary["max"], summary["parentName"]),
                         ({"cpu": "2"}, {"cpu": "4"}, "koordinator-root-quota"))
        status, body = self.scheduler.get("/apis/v1/plugins/ElasticQuota/quotas")
        self.assertEqual(status, 200)
        self.assertEqual(sorted(json.loads(body)), ["a", "b", "koordinator-default-quota", "koordinator-system-quota"])
        status, _ = self.scheduler.get("/apis/v1/plugins/ElasticQuota/quota/nope")
        self.assertEqual(status, 404)

    def test_the_quotas_status_follows_the_book(self):
        self.start([make_node("n1", cpu="4", memory="16Gi"), elastic_quota("a", "2", "4"),
                    elastic_quota("b", "2", "4")], quota_config())
        self.place([quota_pod("a-%d" % i, "a") for i in range(2)])

        def written():
            quota = self.client.ok("GET", QUOTAS_PATH % "default" + "/a")
            annotations = quota["metadata"].get("annotations", {})
            return (json.loads(annotations.get("quota.scheduling.koordinator.sh/runtime", "{}")),
                    json.loads(annotations.get("quota.scheduling.koordinator.sh/request", "{}")),
                    quota.get("status", {}).get("used"))
        expected = ({"cpu": "2"}, {"cpu": "2", "memory": "512Mi"}, {"cpu": "2", "memory": "512Mi"})
        self.cluster.wait(lambda: written() == expected, 30, lambda: "quota a's status %s" % (written(),))
        # A pod goes: the status follows.
        self.client.ok("DELETE", "/api/v1/namespaces/default/pods/a-1")
        expected = ({"cpu": "1"}, {"cpu": "1", "memory": "256Mi"}, {"cpu": "1", "memory": "256Mi"})
        self.cluster.wait(lambda: written() == expected, 30, lambda: "quota a's status %s" % (written(),))
        # Koordinator's gauges; their "name" label is the quota's (cpu in millicores).
        metrics = self.scheduler.metrics()

        def gauge(metric, quota, field):
            return [value for (n, labels), value in metrics.items()
                    if n == metric and dict(labels).get("name") == quota and dict(labels).get("resource") == "cpu"
                    and dict(labels).get("field") == field]
        self.assertEqual(gauge("scheduler_elastic_quota_status", "a", "used"), [1000])
        self.assertEqual(gauge("scheduler_elastic_quota_spec", "b", "max"), [4000])

    def test_a_quota_gets_back_what_it_lent(self):
        # monitorAllQuotas: a quota over its runtime for longer than delayEvictTime loses pods.
        self.start([make_node("n1", cpu="4", memory="16Gi"), elastic_quota("a", "1", "4"),
                    elastic_quota("b", "3", "4")],
                   quota_config({"monitorAllQuotas": True, "delayEvictTime": "1s", "revokePodInterval": "1s"}))
        # b asks for nothing yet: a borrows all 4 cores.
        self.place([quota_pod("a-%d" % i, "a") for i in range(4)])
        # b wants its min back: a's runtime drops to 1 core, and after a second
        # three of a's pods are evicted; b's pod takes their room.
        self.client.create(quota_pod("b-0", "b", cpu="3"))
        self.cluster.wait(lambda: self.client.pod("b-0")["spec"].get("nodeName"), 60, "b-0 bound after the revoke")
        left = [p["metadata"]["name"] for p in self.client.pods() if p["metadata"]["name"].startswith("a-")]
        self.assertEqual(len(left), 1, left)
        self.assertTrue(self.scheduler.wait_logged("ElasticQuota: evicting pod default/a-"))

    def test_the_system_default_and_root_quotas_are_created(self):
        self.client.ok("POST", "/api/v1/namespaces",
                       {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "koordinator-system"}})
        self.start([make_node("n1", cpu="4", memory="16Gi")],
                   quota_config({"defaultQuotaGroupMax": {"cpu": "100", "memory": "1Ti"}}))
        path = QUOTAS_PATH % "koordinator-system"
        self.cluster.wait(lambda: len(self.client.ok("GET", path)["items"]) == 3, 30, "the three quotas created")
        default = self.client.ok("GET", path + "/koordinator-default-quota")
        self.assertEqual(default["spec"]["max"], {"cpu": "100", "memory": "1Ti"})
        root = self.client.ok("GET", path + "/koordinator-root-quota")
        self.assertEqual(root["metadata"]["labels"]["quota.scheduling.koordinator.sh/is-parent"], "true")
        # A pod of no quota is the default quota's: its status follows.
        self.place_one(quota_pod("free", None))
        self.cluster.wait(lambda: self.client.ok("GET", path + "/koordinator-default-quota").get("status", {})
                          .get("used") == {"cpu": "1", "memory": "256Mi"}, 30, "the default quota's used")

    def test_a_non_preemptible_pod_must_fit_in_the_min(self):
        self.start([make_node("n1", cpu="8", memory="16Gi"), elastic_quota("a", "1", "4")], quota_config())
        pod = quota_pod("steady", "a", cpu="2")
        pod["metadata"]["labels"]["quota.scheduling.koordinator.sh/preemptible"] = "false"
        message = self.create_unschedulable(pod)
        self.assertIn("Insufficient non-preemptible quotas, quotaName: a, min: cpu:1, nonPreemptibleUsed: <empty>, "
                      "pod's request: cpu:2,memory:256Mi, exceedDimensions: [cpu]", message)
        self.place_one(quota_pod("elastic", "a", cpu="2"))

    def test_with_runtime_quota_off_the_max_is_the_limit(self):
        # a's runtime would be 1 core (b asks for 3 of the 4, within its min); its max is 4.
        self.start([make_node("n1", cpu="4", memory="16Gi"), make_node("n2", cpu="4", memory="16Gi"),
                    elastic_quota("a", "1", "4"), elastic_quota("b", "7", "8")],
                   quota_config({"enableRuntimeQuota": False}))
        self.place([quota_pod("b-%d" % i, "b") for i in range(3)])
        self.place([quota_pod("a-%d" % i, "a") for i in range(3)])


if __name__ == "__main__":
    unittest.main()
