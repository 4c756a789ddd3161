// Which label and annotation keys of the pod being placed a scheduling class
// keeps because a plugin may read them by name
// (plugins/framework/keys_read_by_name.hpp): the rule, and every key troupe's
// Filter and Score plugins (and the PreFilter state they read) look up on
// the pending pod today. A plugin that comes to read another key must add it
// here, and the rule must keep it.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "plugins/coscheduling/gang_spec.hpp"
#include "plugins/deviceshare/device_types.hpp"
#include "plugins/elastic_quota/quota_spec.hpp"
#include "plugins/framework/keys_read_by_name.hpp"
#include "plugins/load_aware/pod_load_estimate.hpp"
#include "plugins/node_numa_resource/pod_annotations.hpp"
#include "plugins/node_numa_resource/qos.hpp"
#include "plugins/reservation/reservation_names.hpp"
#include "plugins/scheduling_hint/scheduling_hint.hpp"

using namespace troupe;
using namespace troupe::plugins;

TEST_CASE("key_read_by_name: Koordinator's and the scheduler-plugins' domains", "[plugins][class-labels]") {
  struct Case {
    const char* key;
    bool read;
  };
  const std::vector<Case> cases = {
      {"koordinator.sh/qosClass", true},
      {"quota.scheduling.koordinator.sh/name", false},  // ElasticQuota reads it at PreFilter only
      {"quota.scheduling.koordinator.sh/preemptible", false},
      {"sub.quota.scheduling.koordinator.sh/x", false},
      {"scheduling.koordinator.sh/quota", true},  // the quota domain is not this one
      {"scheduling.koordinator.sh/reservation-ignored", true},
      {"pod-group.scheduling.sigs.k8s.io", true},  // a whole key in the domain, no prefix
      {"pod-group.scheduling.sigs.k8s.io/name", true},
      {"scheduling.sigs.k8s.io/x", true},
      {"sigs.k8s.io", false},
      {"leaderworkerset.sigs.k8s.io/worker-index", false},  // other sigs projects' keys
      {"jobset.sigs.k8s.io/job-index", false},
      {"app", false},
      {"pod-template-hash", false},
      {"statefulset.kubernetes.io/pod-name", false},
      {"batch.kubernetes.io/job-completion-index", false},
      {"workflows.argoproj.io/node-id", false},
      {"kubectl.kubernetes.io/restartedAt", false},
      {"ALIYUN_COM_GPU_MEM_IDX", false},  // written at Reserve; read only on placed pods
      {"notkoordinator.sh/x", false},     // a domain that only ends with the letters
      {"koordinator.sh.evil.io/x", false},
      {"example.com/koordinator.sh", false},  // the name part does not count
      {"", false},
  };
  for (const auto& c : cases) {
    INFO(c.key);
    CHECK(key_read_by_name(c.key) == c.read);
  }
}

TEST_CASE("every label of the pending pod troupe's Filter and Score plugins read by name is kept, ElasticQuota's are not",
          "[plugins][class-labels]") {
  const std::vector<std::string> read_by_plugins = {
      numa::kLabelQosClass,
      numa::kLabelPriorityClass,
      numa::kLabelPriority,
      coscheduling::kLabelPodGroup,
      coscheduling::kLabelPodGroupName,
      coscheduling::kLabelMinAvailable,
      coscheduling::kLabelMatchPolicy,
      std::string(deviceshare::kLabelGpuIsolationProvider),
      reservation::kLabelReservationIgnored,
      reservation::kLabelDisablePreemptible,
  };
  for (const auto& key : read_by_plugins) {
    INFO(key);
    CHECK(key_read_by_name(key));
  }
  // ElasticQuota reads these only for PreFilter's verdict on the pod, before
  // any node is evaluated, so the class leaves them out.
  for (const std::string key : {elastic_quota::kLabelQuotaName, elastic_quota::kLabelPreemptible}) {
    INFO(key);
    CHECK_FALSE(key_read_by_name(key));
  }
}

TEST_CASE("every annotation of the pending pod troupe's Filter and Score plugins read by name is kept",
          "[plugins][class-labels]") {
  const std::vector<std::string> read_by_plugins = {
      scheduling_hint::kAnnotationSchedulingHint,
      scheduling_hint::kDeprecatedAnnotationSchedulingHint,
      std::string(deviceshare::kAnnotationDeviceAllocated),
      std::string(deviceshare::kAnnotationDeviceAllocateHint),
      std::string(deviceshare::kAnnotationDeviceJointAllocate),
      std::string(deviceshare::kAnnotationGpuPartitionSpec),
      numa::kAnnotationResourceSpec,
      numa::kAnnotationResourceStatus,
      numa::kAnnotationNumaTopologySpec,
      load_aware::kAnnotationEstimatedScalingFactors,
      load_aware::kAnnotationEstimatedSecondsAfterPodScheduled,
      reservation::kAnnotationReservePod,
      reservation::kAnnotationReservationNode,
      reservation::kAnnotationReserveAllocatePolicy,
      reservation::kAnnotationReservationAffinity,
      reservation::kAnnotationExactMatchReservation,
      coscheduling::kAnnotationName,
      coscheduling::kAnnotationMinAvailable,
      coscheduling::kAnnotationTotalNumber,
      coscheduling::kAnnotationMode,
      coscheduling::kAnnotationWaitingTime,
      coscheduling::kAnnotationGroups,
      coscheduling::kAnnotationMatchPolicy,
      coscheduling::kLabelMatchPolicy,  // also read as an annotation
  };
  for (const auto& key : read_by_plugins) {
    INFO(key);
    CHECK(key_read_by_name(key));
  }
}
