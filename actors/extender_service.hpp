#pragma once
// ExtenderService: troupe's device decisions for a stock kube-scheduler,
// over kube-scheduler's extender protocol (`troupe scheduler
// --extender-bind-address`). Two verb sets share the node actors' state:
//
//   /gpushare-scheduler/{filter,bind}, GET /version,
//   GET /gpushare-scheduler/inspect[/<node>]
//       Alibaba's gpushare-scheduler-extender (aliyun.com/gpu-mem), drop-in
//       for its scheduler policy (urlPrefix .../gpushare-scheduler) and its
//       inspect view of the GPU memory per node, GPU and pod;
//   /deviceshare/{filter,prioritize,bind}
//       Koordinator's DeviceShare (GPU share, whole GPUs, RDMA, topology),
//       writing the same device-allocated annotation as troupe's own binds;
//       its Fragmentation scoring learns the task sizes of the pods asked
//       about (extender_learning.hpp).
//
// filter/prioritize fan out to the node actors owning the named nodes; bind
// reads the pod, reserves on the owning node actor (so no share or VF is
// handed out twice, whoever asks), runs PreBind and posts the Binding with
// its annotations through the API writer. It runs on the HTTP endpoint's
// thread and waits for the actors with a timeout; it is not an actor.

#include <memory>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "actors/api_writer.hpp"
#include "actors/extender_learning.hpp"
#include "actors/http_endpoint.hpp"
#include "actors/node_actor.hpp"
#include "config/scheduler_config.hpp"
#include "watch/api_client.hpp"

namespace troupe::actors {

struct ExtenderServiceDeps {
  caf::actor_system* system = nullptr;
  std::vector<node_actor> nodes;
  api_writer_actor writer;
  std::shared_ptr<watch::ApiClient> api;
};

class ExtenderService {
 public:
  /// Builds the DeviceShare and AliyunGPUShare frameworks, DeviceShare with
  /// the args of the first profile of `config` that configures it.
  static Result<std::unique_ptr<ExtenderService>> create(ExtenderServiceDeps deps,
                                                         const config::SchedulerConfiguration& config);

  HttpReply serve(const HttpRequest& request);

 private:
  ExtenderService(ExtenderServiceDeps deps, std::shared_ptr<const plugins::Framework> deviceshare,
                  std::shared_ptr<const plugins::Framework> gpushare);

  HttpReply filter(const std::shared_ptr<const plugins::Framework>& framework, const std::string& body);
  HttpReply prioritize(const std::shared_ptr<const plugins::Framework>& framework, const std::string& body);
  HttpReply bind(const std::shared_ptr<const plugins::Framework>& framework, const std::string& body);
  /// The gpushare inspect answer for one node, or every GPU-share node when
  /// `node_name` is empty; 404 (with the error in the answer) for a node
  /// the scheduler does not know.
  HttpReply inspect(const std::string& node_name);
  /// Asks the partitions owning `names`; false (and `error` set) when one does not answer.
  bool evaluate(const std::shared_ptr<const plugins::Framework>& framework,
                const std::shared_ptr<const plugins::PodInfo>& pod,
                const std::shared_ptr<plugins::CycleState>& state, const std::vector<std::string>& names,
                bool score, std::vector<Evaluation>& out, std::string& error);

  /// Hands the pod's cycle the task classes learned from the pods asked
  /// about (/deviceshare only), counting the pod when `count`.
  void share_learned(const std::shared_ptr<const plugins::Framework>& framework, const PodInfoPtr& pod,
                     bool count, plugins::CycleState& state);

  ExtenderServiceDeps deps_;
  std::shared_ptr<const plugins::Framework> deviceshare_;
  std::shared_ptr<const plugins::Framework> gpushare_;
  ExtenderLearning deviceshare_learning_;
};

}  // namespace troupe::actors
