#pragma once
// DefaultPreBind (Koordinator): how PreBind's changes to a pod reach the API
// server. Koordinator's PreBind plugins change a copy of the pod, and this
// plugin patches the difference onto the pod before the Binding; a failed
// patch, or a pod found being deleted, fails PreBind
// (`running PreBindExtension plugin "DefaultPreBind": ...`).
//
// troupe's default is cheaper: the annotations ride on the Binding, which the
// API server copies onto the pod with spec.nodeName in one write. A profile
// that enables DefaultPreBind gets Koordinator's order instead (annotations
// first, then the Binding without them), for watchers that want to see a
// pod's allocation before it is bound. The write itself is the API writer's
// (actors/api_writer.cpp); this plugin only asks for it. A reserve pod's
// annotations are patched onto its Reservation before its status in either case.

#include "plugins/framework/plugin.hpp"
#include "plugins/names.hpp"

namespace troupe::plugins {

class DefaultPreBind final : public PreBindPlugin {
 public:
  static constexpr const char* kName = names::kDefaultPreBind;
  std::string_view name() const override { return kName; }
  PluginStatus pre_bind(CycleState&, const PodInfo&, const std::string&, BindingChanges& changes) const override {
    changes.patch_before_binding = true;
    return {};
  }
};

}  // namespace troupe::plugins
