"""troupe scheduler end to end: gang scheduling (Coscheduling, Koordinator's
annotation gangs, ../shared/reference/koordinator-api.md §6).

- A gang pod is not tried until min-available members of its gang exist; it
  is reported (PodScheduled=False) meanwhile, and the whole gang is bound
  soon after the last member arrives.
- Members that fit wait at Permit, holding their node, until the gang is
  complete. In Strict mode, a member that fits nowhere (or that a PreFilter
  rejects) sends the waiting ones back: nothing of the gang is bound and what
  they held is free again; the gang's schedule cycle then turns the others
  away until each has had its turn. A preemption rejects the members waiting
  at Permit that it picks as victims; it does not delete them.
- Match policies: only-waiting counts the members waiting at Permit, so a
  member bound earlier does not count and the waiting one times out after its
  waiting-time; waiting-and-running counts it and binds at once.
- A gang annotation troupe cannot read is reported on that pod alone.
- Gang rounds: once a gang's member is tried, its other pending members are
  tried next, before pods that were queued earlier; two gangs whose members
  were queued interleaved are tried one after the other, so the first is
  placed whole rather than each holding half the room.
- Coscheduling's debug service (/apis/v1/plugins/Coscheduling/gang/<ns>/<name>,
  .../gangs) shows a gang's rules and members by state.
- PodGroup objects (scheduling.sigs.k8s.io/v1alpha1): pods labelled with a
  PodGroup's name go by its minMember and scheduleTimeoutSeconds; pods whose
  PodGroup does not exist yet are reported, and tried once it is created.
- A PodGroup's status follows its pods as Koordinator's PodGroup controller
  keeps it: Pending, Scheduled once minMember are bound (with the start time
  and the owners holding it), Running, then Finished or Failed for good.
"""
import json
import os
import sys
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scheduler_helpers import (PodHistory, SchedulingTest, all_bound, condition, describe_pending,  # noqa: E402
                               fast_config, make_node, make_pod, metric_sum, profile, scheduler_config)

NAME = "gang.scheduling.koordinator.sh/name"
MIN = "gang.scheduling.koordinator.sh/min-available"
WAIT = "gang.scheduling.koordinator.sh/waiting-time"
POLICY = "gang.scheduling.koordinator.sh/match-policy"
POD_GROUP_LABEL = "pod-group.scheduling.sigs.k8s.io"
POD_GROUPS = "/apis/scheduling.sigs.k8s.io/v1alpha1/namespaces/default/podgroups"


def pod_group(name, min_member, timeout_seconds=None):
    spec = {"minMember": min_member}
    if timeout_seconds is not None:
        spec["scheduleTimeoutSeconds"] = timeout_seconds
    return {"apiVersion": "scheduling.sigs.k8s.io/v1alpha1", "kind": "PodGroup",
            "metadata": {"name": name, "namespace": "default"}, "spec": spec}


def pod_group_member(name, group, cpu="1"):
    return make_pod(name, cpu=cpu, memory="128Mi", labels={POD_GROUP_LABEL: group})


def gang_pod(name, gang, min_available, cpu="1", **annotations):
    pod = make_pod(name, cpu=cpu, memory="128Mi")
    pod["metadata"]["annotations"] = dict({NAME: gang, MIN: str(min_available)}, **annotations)
    return pod


def message_log(client):
    """Every PodScheduled message each pod had: a requeued pod's next attempt
    may replace a message before a poll sees it."""
    return PodHistory(client, lambda pod: (condition(pod) or {}).get("message") or None)


class GangTest(SchedulingTest):
    def bound_nodes(self, names):
        return {n: (self.client.pod(n) or {}).get("spec", {}).get("nodeName") for n in names}

    def wait_until_members_wait_at_permit(self, count):
        """The gang's waiting-group gauge turns 1 with its first waiting member; a test that
        needs `count` members holding the node waits for that many Permit waits."""
        def waits():
            return metric_sum(self.scheduler.metrics(), "scheduler_framework_extension_point_duration_seconds_count",
                              extension_point="Permit", status="Wait")
        self.cluster.wait(lambda: waits() == count and
                          self.scheduler.metric("scheduler_waiting_gang_group_number") == 1, 30,
                          lambda: "%d members wait at Permit (%d so far); %s" % (count, waits(),
                                                                                describe_pending(self.client)))

    def test_gang_waits_for_its_members_then_binds_together(self):
        self.start([make_node("n-0", cpu="4"), make_node("n-1", cpu="4")])
        names = ["train-0", "train-1", "train-2"]
        self.client.create_all([gang_pod(n, "train", 3) for n in names[:2]])
        for name in names[:2]:
            # The first attempt of the scheduler already counts the nodes (no Filter round ran yet).
            expected = ("0/2 nodes are available: gang child pod not collect enough, gangName: default/train, "
                        "podName: default/" + name)
            self.assertTrue(self.unschedulable_message(name).startswith(expected))
            # The second member's arrival gives the first another try, which counts it.
            self.cluster.wait(lambda: "(2 of 3 members exist)" in condition(self.client.pod(name))["message"], 20,
                              lambda: name + " sees 2 members: " + condition(self.client.pod(name))["message"])
        self.assertEqual(self.bound_nodes(names[:2]), {n: None for n in names[:2]})
        # The last member arrives: the two waiting ones get another try at once.
        self.client.create(gang_pod(names[2], "train", 3))
        self.cluster.wait(lambda: all_bound(self.client, names), 20,
                          lambda: "the whole gang bound; " + describe_pending(self.client))
        self.assertEqual(self.scheduler.metric("scheduler_schedule_attempts_total", profile="troupe-scheduler",
                                               result="scheduled"), 3)
        # Two members waited at Permit; none waits now.
        self.assertEqual(self.scheduler.metric("scheduler_waiting_gang_group_number"), 0)
        self.assertEqual(self.scheduler.metric("scheduler_permit_wait_duration_seconds_count", result="Success"), 2)

    def test_members_without_min_available_go_by_their_gangs_rules(self):
        self.start([make_node("n-0", cpu="4")])
        # Only the last member says how many the gang needs (as a job whose pods carry the
        # annotation unevenly); the others name the gang alone. Koordinator reads a gang's
        # rules once: they are all members of a gang of 3.
        loose = []
        for name in ("loose-0", "loose-1"):
            pod = make_pod(name, cpu="1", memory="128Mi")
            pod["metadata"]["annotations"] = {NAME: "loose"}
            loose.append(pod)
        self.client.create_all(loose)
        # With no member saying the rules yet, each is reported (not silently kept).
        self.assertIn("min-available", self.unschedulable_message("loose-0"))
        self.client.create(gang_pod("loose-2", "loose", 3))
        names = ["loose-0", "loose-1", "loose-2"]
        self.cluster.wait(lambda: all_bound(self.client, names), 30,
                          lambda: "the whole gang bound; " + describe_pending(self.client))

    def test_strict_gang_that_cannot_fit_binds_nothing_and_holds_nothing(self):
        self.start([make_node("n-0", cpu="4", memory="8Gi")])
        # Two members of 2 cpu fit on the 4-cpu node; the third does not.
        names = ["big-0", "big-1", "big-2"]
        self.client.create_all([gang_pod(n, "big", 3, cpu="2") for n in names], threads=1)
        # Before the third member exists the first ones are told so; once it does, two members
        # wait at Permit and the one that fits nowhere sends them back.
        prefix = 'Gang "default/big" gets rejected due to member Pod "big-'

        def rejected():
            messages = [(condition(self.client.pod(n) or {}) or {}).get("message", "") for n in names]
            return [m for m in messages if m.startswith(prefix)]
        messages = self.cluster.wait(rejected, 30, lambda: "a gang rejection; " + describe_pending(self.client))
        # The reason is the FitError of the node statuses alone, as Koordinator's (no PostFilter message in it).
        self.assertTrue(messages[0].endswith('is unschedulable with reason "0/1 nodes are available: 1 Insufficient '
                                             'cpu."'), messages[0])
        self.assertEqual(self.bound_nodes(names), {n: None for n in names})
        # What the waiting members had reserved is free: a 4-cpu pod fits.
        self.assertEqual(self.place_one(make_pod("whole-node", cpu="4", memory="1Gi"))["spec"]["nodeName"], "n-0")
        self.assertEqual(self.bound_nodes(names), {n: None for n in names})

    def test_member_rejected_at_pre_filter_sends_the_strict_gang_back(self):
        self.start([make_node("n-0", cpu="4", memory="8Gi")])
        names = ["vol-0", "vol-1", "vol-2"]
        pods = [gang_pod(n, "vol", 3) for n in names]
        # The last member's claim does not exist: VolumeBinding's PreFilter rejects it, and
        # PostFilter runs all the same (Koordinator's Coscheduling rejects the gang there).
        pods[2]["spec"]["volumes"] = [{"name": "data", "persistentVolumeClaim": {"claimName": "missing"}}]
        log = message_log(self.client)
        self.addCleanup(log.close)
        self.client.create_all(pods, threads=1)
        # Which comes first decides what the others hear. vol-0 and vol-1 tried first wait at Permit, and
        # vol-2's rejection sends them back with its reason. vol-2 tried first ends the gang's schedule
        # cycle (Koordinator's ScheduleCycle): the others are turned away at PreFilter, rejecting nobody
        # more, until every member has had its turn in the cycle.
        rejected = ('Gang "default/vol" gets rejected due to member Pod "vol-2" is unschedulable with reason '
                    '"0/1 nodes are available: 1 persistentvolumeclaim \\"missing\\" not found."')

        def told(name):
            return rejected in log.of(name) or any(
                "gang scheduleCycle not valid, gangName: default/vol, podName: default/" + name in m
                for m in log.of(name))
        self.cluster.wait(lambda: all(told(n) for n in names[:2]), 30,
                          lambda: "vol-0 and vol-1 rejected or turned away: %s" % log.messages)
        # PostFilter in the default profile's order: DefaultPreemption, Reservation (nothing to say), Coscheduling.
        self.assertEqual(self.unschedulable_message("vol-2"),
                         '0/1 nodes are available: persistentvolumeclaim "missing" not found. preemption: '
                         '0/1 nodes are available: 1 Preemption is not helpful for scheduling., '
                         'Gang "default/vol" gets rejected due to pod is unschedulable.')
        self.assertEqual(self.bound_nodes(names), {n: None for n in names})
        # The claim comes: a new cycle begins, and the whole gang binds.
        self.client.create({"apiVersion": "v1", "kind": "PersistentVolume", "metadata": {"name": "pv-vol"},
                            "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
                                     "storageClassName": "", "csi": {"driver": "csi.example.com",
                                                                     "volumeHandle": "pv-vol"}}})
        self.client.create({"apiVersion": "v1", "kind": "PersistentVolumeClaim",
                            "metadata": {"name": "missing", "namespace": "default",
                                         "annotations": {"pv.kubernetes.io/bind-completed": "yes"}},
                            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}},
                                     "volumeName": "pv-vol"}})
        self.cluster.wait(lambda: all_bound(self.client, names), 60,
                          lambda: "the gang bound once its claim exists; " + describe_pending(self.client))

    def test_non_strict_gang_keeps_waiting_when_a_member_fits_nowhere(self):
        self.start([make_node("n-0", cpu="4", memory="8Gi")])
        names = ["ns-0", "ns-1", "ns-2"]
        mode = "gang.scheduling.koordinator.sh/mode"
        self.client.create_all([gang_pod(n, "loose", 3, cpu="2", **{mode: "NonStrict", WAIT: "3s"}) for n in names],
                               threads=1)
        # Two members wait at Permit; the third fits nowhere, which in NonStrict mode rejects
        # nobody else: the two go back only when their own waiting time is over.
        def messages():
            return [(condition(self.client.pod(n) or {}) or {}).get("message", "") for n in names]
        timed_out = "rejected due to timeout after waiting 3s at plugin Coscheduling"
        self.cluster.wait(lambda: messages().count(timed_out) == 2, 30,
                          lambda: "two members time out; %s" % messages())
        self.assertFalse([m for m in messages() if m.startswith("Gang ")], messages())
        self.assertEqual(self.bound_nodes(names), {n: None for n in names})

    def test_preemption_rejects_waiting_members_rather_than_deleting_them(self):
        self.start([make_node("n-0", cpu="4", memory="8Gi")])
        names = ["held-0", "held-1", "held-2"]
        mode = "gang.scheduling.koordinator.sh/mode"
        # NonStrict: two members wait at Permit holding the whole node; the third fits nowhere.
        self.client.create_all([gang_pod(n, "held", 3, cpu="2", **{mode: "NonStrict", WAIT: "120s"})
                                for n in names], threads=1)
        self.wait_until_members_wait_at_permit(2)
        high = make_pod("high", cpu="4", memory="1Gi", priority=10)
        self.client.create(high)
        # The waiting members are the victims: rejected at Permit (upstream's waitingPod.Reject),
        # not deleted; the preemptor takes the node they held.
        self.cluster.wait(lambda: all_bound(self.client, ["high"]), 30,
                          lambda: "high bound; " + describe_pending(self.client))
        self.assertEqual([n for n in names if self.client.pod(n) is None], [], "no member was deleted")
        self.assertEqual(self.bound_nodes(names), {n: None for n in names})

        def preempted():  # the two that waited (which two depends on the order they were tried)
            return [n for n in names if any(e["reason"] == "Preempted" for e in self.client.events_about(n))]
        self.cluster.wait(lambda: len(preempted()) == 2, 20,
                          lambda: "Preempted events on two members: %s" % {n: self.client.events_about(n)
                                                                           for n in names})
        # Both waits ended Unschedulable (rejected; requeued and tried again since, the node being full).
        self.assertEqual(self.scheduler.metric("scheduler_permit_wait_duration_seconds_count",
                                               result="Unschedulable"), 2)

    def test_preemption_rejects_every_waiting_member_of_a_strict_gang(self):
        self.start([make_node("n-0", cpu="4", memory="8Gi")])
        names = ["strict-0", "strict-1", "strict-2"]
        pods = [gang_pod(n, "strict", 3, cpu="2", **{WAIT: "120s"}) for n in names]
        # The third member is gated: it counts as a member but is not tried, so the two others
        # wait at Permit, holding the node.
        pods[2]["spec"]["schedulingGates"] = [{"name": "example.com/hold"}]
        self.client.create_all(pods, threads=1)
        self.wait_until_members_wait_at_permit(2)
        self.client.create(make_pod("high", cpu="4", memory="1Gi", priority=10))
        self.cluster.wait(lambda: all_bound(self.client, ["high"]), 30,
                          lambda: "high bound; " + describe_pending(self.client))
        # Both are rejected before the first one's Unreserve sends the other back: neither is deleted.
        self.assertEqual([n for n in names if self.client.pod(n) is None], [], "no member was deleted")
        self.cluster.wait(lambda: all(any(e["reason"] == "Preempted" for e in self.client.events_about(n))
                                      for n in names[:2]), 20, "Preempted events on both")
        self.assertEqual(self.bound_nodes(names), {n: None for n in names})

    def test_a_member_that_leaves_its_gang_while_waiting_is_scheduled_on_its_own(self):
        self.start([make_node("n-0", cpu="4", memory="8Gi")])
        names = ["solo-0", "solo-1", "solo-2"]
        pods = [gang_pod(n, "solo", 3, cpu="1", **{WAIT: "120s"}) for n in names]
        pods[2]["spec"]["schedulingGates"] = [{"name": "example.com/hold"}]  # a member, never tried
        self.client.create_all(pods, threads=1)
        self.wait_until_members_wait_at_permit(2)
        # Its gang annotations taken off, solo-0 is an ordinary pod: it stops waiting and binds.
        self.client.ok("PATCH", "/api/v1/namespaces/default/pods/solo-0",
                       {"metadata": {"annotations": {NAME: None, MIN: None, WAIT: None}}},
                       "application/merge-patch+json")
        self.cluster.wait(lambda: all_bound(self.client, ["solo-0"]), 30,
                          lambda: "solo-0 bound on its own; " + describe_pending(self.client))
        # The gang, one member short now, stops waiting (Strict) and binds nothing.
        self.assertEqual(self.bound_nodes(names[1:]), {n: None for n in names[1:]})

    def test_a_member_its_quota_turns_away_sends_the_strict_gang_back(self):
        # The quota has room for two of the three members: the third is refused at ElasticQuota's
        # PreFilter (plain Unschedulable), and, as Koordinator's Coscheduling PostFilter, the two
        # waiting at Permit are sent back at once rather than holding node and quota for 120 s.
        quota = {"apiVersion": "scheduling.sigs.k8s.io/v1alpha1", "kind": "ElasticQuota",
                 "metadata": {"name": "team-g", "namespace": "default"},
                 "spec": {"min": {"cpu": "2"}, "max": {"cpu": "2"}}}
        config = scheduler_config(profiles=[profile(plugins={"multiPoint": {"enabled": [{"name": "ElasticQuota"}]}})])
        self.start([make_node("n-0", cpu="8", memory="16Gi"), quota], config)
        names = ["g-0", "g-1", "g-2"]
        pods = [gang_pod(n, "g", 3, cpu="1", **{WAIT: "120s"}) for n in names]
        for pod in pods:
            pod["metadata"]["labels"] = {"quota.scheduling.koordinator.sh/name": "team-g"}
        self.client.create_all(pods, threads=1)

        def rejected_waits():
            return self.scheduler.metric("scheduler_permit_wait_duration_seconds_count", result="Unschedulable")
        self.cluster.wait(lambda: rejected_waits() >= 2, 30,
                          lambda: "the waiting members were sent back (%d so far); %s" % (
                              rejected_waits(), describe_pending(self.client)))
        self.assertEqual(self.bound_nodes(names), {n: None for n in names})

    def test_only_waiting_times_out_while_waiting_and_running_counts_the_bound_member(self):
        self.start([make_node("n-0", cpu="8")])
        # One member of each gang is bound already (spec.nodeName): 2 members exist. Every
        # member carries the gang's rules (the first member seen sets them, as in Koordinator).
        rules = {"ow": {POLICY: "only-waiting", WAIT: "1s"}, "wr": {POLICY: "waiting-and-running", WAIT: "1s"}}
        for gang in ("ow", "wr"):
            bound = gang_pod(gang + "-bound", gang, 2, **rules[gang])
            bound["spec"]["nodeName"] = "n-0"
            self.client.create(bound)
        self.client.create(gang_pod("ow-1", "ow", 2, **rules["ow"]))
        self.client.create(gang_pod("wr-1", "wr", 2, **rules["wr"]))
        self.cluster.wait(lambda: all_bound(self.client, ["wr-1"]), 20,
                          lambda: "wr-1 bound; " + describe_pending(self.client))
        message = self.unschedulable_message("ow-1", timeout=20)
        self.assertEqual(message, "rejected due to timeout after waiting 1s at plugin Coscheduling")
        self.assertIsNone(self.client.pod("ow-1")["spec"].get("nodeName"))
        # ow-1 waited about its 1 s at Permit and was rejected.
        self.assertGreaterEqual(
            self.scheduler.metric("scheduler_permit_wait_duration_seconds_count", result="Unschedulable"), 1)
        self.assertGreaterEqual(
            self.scheduler.metric("scheduler_permit_wait_duration_seconds_sum", result="Unschedulable"), 0.9)

    def test_deleting_a_waiting_member_sends_the_strict_gang_back(self):
        self.client.create(make_node("n-0", cpu="4", memory="8Gi"))
        self.scheduler = self.cluster.start_scheduler(fast_config(), log_level="debug")
        self.scheduler.wait_ready()
        # min 3, only-waiting: with one member bound already, the two pending ones wait at Permit.
        rules = {POLICY: "only-waiting", WAIT: "60s"}
        bound = gang_pod("dw-bound", "dw", 3, **rules)
        bound["spec"]["nodeName"] = "n-0"
        self.client.create(bound)
        self.client.create_all([gang_pod(n, "dw", 3, **rules) for n in ("dw-1", "dw-2")], threads=1)
        for name in ("dw-1", "dw-2"):
            self.scheduler.wait_logged("default/%s waits at Permit" % name, timeout=20)
        self.assertEqual(self.scheduler.metric("scheduler_waiting_gang_group_number"), 1)
        # Coscheduling's debug service shows who waits, as Koordinator's GangSummary.
        status, body = self.scheduler.get("/apis/v1/plugins/Coscheduling/gang/default/dw")
        self.assertEqual(status, 200, body)
        summary = json.loads(body)
        self.assertEqual(summary["name"], "default/dw")
        self.assertEqual((summary["mode"], summary["gangMatchPolicy"], summary["minRequiredNumber"]),
                         ("Strict", "only-waiting", 3))
        self.assertEqual(summary["waitTime"], 60 * 10**9)
        # Members as Go's sets: objects keyed by pod.
        self.assertEqual(summary["children"], {"default/dw-1": {}, "default/dw-2": {}, "default/dw-bound": {}})
        self.assertEqual(summary["waitingForBindChildren"], {"default/dw-1": {}, "default/dw-2": {}})
        self.assertEqual(summary["boundChildren"], {"default/dw-bound": {}})
        self.assertEqual(summary["pendingChildren"], {})
        self.assertEqual((summary["gangFrom"], summary["hasGangInit"]), ("GangFromPodAnnotation", True))
        status, body = self.scheduler.get("/apis/v1/plugins/Coscheduling/gangs")
        self.assertEqual(status, 200, body)
        self.assertEqual(list(json.loads(body)), ["default/dw"])
        self.assertEqual(self.scheduler.get("/apis/v1/plugins/Coscheduling/gang/default/nope")[0], 404)
        self.client.delete_pod("dw-1")
        self.assertEqual(self.unschedulable_message("dw-2"),
                         'Gang "default/dw" gets rejected due to Pod "dw-1" in Unreserve')
        self.cluster.wait(lambda: self.scheduler.metric("scheduler_waiting_gang_group_number") == 0, 10,
                          "no gang waits")
        # Neither reservation is held any more: 3 of the node's 4 cpus are free.
        self.assertEqual(self.place_one(make_pod("rest", cpu="3", memory="1Gi"))["spec"]["nodeName"], "n-0")

    def test_interleaved_gangs_are_tried_one_after_the_other(self):
        # No node yet: the four members (gangs A and B, created interleaved) are tried and
        # wait in the queue, their backoffs (1 s at most) over before the node comes.
        config = scheduler_config(profiles=[profile()], initial_backoff=1, max_backoff=1)
        self.start([], config)
        names = ["p0", "p1", "p2", "p3"]
        gangs = {"p0": "gang-a", "p1": "gang-b", "p2": "gang-a", "p3": "gang-b"}
        self.client.create_all([gang_pod(n, gangs[n], 2, cpu="2", **{WAIT: "60s"}) for n in names], threads=1)
        for name in names:
            self.unschedulable_message(name)
        time.sleep(2.5)
        # Room for two of the four: one gang. The node's arrival sends all four to activeQ at
        # once, p0 first. Its round tries p2 next (not p1, queued before p2), so gang A waits
        # whole at Permit and binds; gang B then finds no room. In queue order alone p0 and
        # p1 would each hold half the node, p2 would fit nowhere and send p0 back, and gang B
        # would be placed instead.
        self.client.create(make_node("n-0", cpu="4", memory="8Gi"))
        self.cluster.wait(lambda: all_bound(self.client, ["p0", "p2"]), 30,
                          lambda: "gang A bound; " + describe_pending(self.client))
        self.assertEqual(self.bound_nodes(names), {"p0": "n-0", "p1": None, "p2": "n-0", "p3": None})

    def test_unreadable_gang_is_reported_on_that_pod_alone(self):
        self.start([make_node("n-0", cpu="4")])
        bad = gang_pod("bad", "g", "three")
        self.client.create(bad)
        message = self.unschedulable_message("bad")
        self.assertIn('gang.scheduling.koordinator.sh/min-available: must be a positive integer, got "three"', message)
        self.assertEqual(condition(self.client.pod("bad"))["reason"], "Unschedulable")
        self.assertEqual(self.place_one(make_pod("plain", cpu="1"))["spec"]["nodeName"], "n-0")
        # A one-member gang is a gang that is always complete.
        self.assertEqual(self.place_one(gang_pod("solo", "solo", 1))["spec"]["nodeName"], "n-0")

    def test_pod_group_objects_set_the_gang_rules(self):
        self.start([make_node("n-0", cpu="4"), make_node("n-1", cpu="4")])
        self.client.ok("POST", POD_GROUPS, pod_group("job", 3, timeout_seconds=30))
        self.client.create_all([pod_group_member("job-%d" % i, "job") for i in range(2)])
        for name in ("job-0", "job-1"):
            self.cluster.wait(lambda: "gangName: default/job" in (condition(self.client.pod(name)) or {}).get(
                "message", ""), 20, lambda: name + " reported; " + describe_pending(self.client))
        self.client.create(pod_group_member("job-2", "job"))
        self.cluster.wait(lambda: all_bound(self.client, ["job-0", "job-1", "job-2"]), 20,
                          lambda: "the PodGroup's pods bound; " + describe_pending(self.client))
        # The PodGroup's status follows, as Koordinator's PostBind writes it.
        def status():
            return (self.client.ok("GET", POD_GROUPS + "/job").get("status") or {})
        self.cluster.wait(lambda: status().get("scheduled") == 3, 20, lambda: "PodGroup status: %s" % status())
        self.assertEqual(status()["phase"], "Scheduled")
        self.assertRegex(status()["scheduleStartTime"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

        # Pods of a PodGroup that does not exist yet wait for it, and are told why.
        self.client.create_all([pod_group_member("late-%d" % i, "late") for i in range(2)])
        message = self.unschedulable_message("late-0")
        self.assertIn("can't find gang, gangName: default/late, podName: default/late-0 (no PodGroup default/late)",
                      message)
        self.client.ok("POST", POD_GROUPS, pod_group("late", 2))
        self.cluster.wait(lambda: all_bound(self.client, ["late-0", "late-1"]), 20,
                          lambda: "late-* bound once their PodGroup exists; " + describe_pending(self.client))

    def set_phase(self, name, phase):
        """What the kubelet writes: the pod's status.phase."""
        path = "/api/v1/namespaces/default/pods/%s" % name
        pod = self.client.ok("GET", path)
        pod["status"]["phase"] = phase
        self.client.ok("PUT", path + "/status", pod)

    def pod_group_status(self, name):
        return self.client.ok("GET", POD_GROUPS + "/" + name).get("status") or {}

    def wait_pod_group(self, name, **expected):
        def matches():
            status = self.pod_group_status(name)
            return all(status.get(k, 0) == v for k, v in expected.items())
        self.cluster.wait(matches, 20, lambda: "PodGroup %s %s, expected %s" % (name, self.pod_group_status(name),
                                                                              expected))
        return self.pod_group_status(name)

    def test_pod_group_status_follows_its_pods_to_finished_or_failed(self):
        self.start([make_node("n-0", cpu="4"), make_node("n-1", cpu="4")])
        for group in ("train", "eval"):
            self.client.ok("POST", POD_GROUPS, pod_group(group, 2))
        self.wait_pod_group("train", phase="Pending")
        members = {group: ["%s-%d" % (group, i) for i in range(2)] for group in ("train", "eval")}
        for group, names in members.items():
            pods = [pod_group_member(n, group) for n in names]
            for pod in pods:
                pod["metadata"]["ownerReferences"] = [{"apiVersion": "batch/v1", "kind": "Job", "name": group + "-job",
                                                       "uid": "uid-" + group, "controller": True}]
            self.client.create_all(pods)
        self.cluster.wait(lambda: all_bound(self.client, members["train"] + members["eval"]), 20,
                          lambda: "the PodGroups' pods bound; " + describe_pending(self.client))
        status = self.wait_pod_group("train", phase="Scheduled", scheduled=2)
        self.assertEqual(status["occupiedBy"], "default/train-job")
        self.assertRegex(status["scheduleStartTime"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
        started = status["scheduleStartTime"]

        # Running once minMember run; still Running while running + succeeded reach it; Finished when
        # minMember succeeded. A finished pod leaves the scheduler's view but not its PodGroup's counts.
        for name in members["train"]:
            self.set_phase(name, "Running")
        self.wait_pod_group("train", phase="Running", scheduled=2, running=2)
        self.set_phase("train-0", "Succeeded")
        self.wait_pod_group("train", phase="Running", running=1, succeeded=1)
        self.set_phase("train-1", "Succeeded")
        status = self.wait_pod_group("train", phase="Finished", running=0, succeeded=2)
        self.assertEqual(status["scheduleStartTime"], started)

        # A failure once minMember ran makes the group Failed, for good.
        for name in members["eval"]:
            self.set_phase(name, "Running")
        self.wait_pod_group("eval", phase="Running", running=2)
        self.set_phase("eval-1", "Failed")
        self.wait_pod_group("eval", phase="Failed", running=1, failed=1)
        self.set_phase("eval-0", "Succeeded")
        # The controller sees pod changes in order: once a later pod's group shows it bound, eval-0's
        # success has been seen too, and nothing was written over the final phase.
        self.client.ok("POST", POD_GROUPS, pod_group("marker", 1))
        self.wait_pod_group("marker", phase="Pending")
        self.client.create(pod_group_member("marker-0", "marker"))
        self.wait_pod_group("marker", phase="Scheduled", scheduled=1)
        self.assertEqual(self.pod_group_status("eval")["phase"], "Failed")
        self.assertEqual(self.pod_group_status("eval").get("succeeded", 0), 0)

    def test_pod_group_without_min_member_binds_at_once_and_a_negative_one_is_reported(self):
        self.start([make_node("n-0", cpu="4")])
        self.client.ok("POST", POD_GROUPS, pod_group("any", 0))
        self.client.create(pod_group_member("any-0", "any"))
        self.cluster.wait(lambda: all_bound(self.client, ["any-0"]), 20,
                          lambda: "any-0 bound; " + describe_pending(self.client))
        self.client.ok("POST", POD_GROUPS, pod_group("negative", -1))
        self.client.create(pod_group_member("n-0", "negative"))
        # The pod may be tried before the PodGroup's watch event arrives ("no PodGroup"); the
        # PodGroup's arrival gives it another try.
        expected = "PodGroup default/negative: spec.minMember: Invalid value: must be greater than or equal to 0"
        self.cluster.wait(lambda: expected in (condition(self.client.pod("n-0") or {}) or {}).get("message", ""), 20,
                          lambda: "n-0 reported: %s" % condition(self.client.pod("n-0") or {}))
        self.assertIsNone(self.client.pod("n-0")["spec"].get("nodeName"))

if __name__ == "__main__":
    unittest.main()
