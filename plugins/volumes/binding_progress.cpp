#include "plugins/volumes/binding_progress.hpp"

#include <charconv>
#include <optional>

#include "plugins/volumes/pod_claims.hpp"

namespace troupe::plugins::volumes {

namespace {

std::optional<uint64_t> revision(const std::string& text) {
  uint64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

BindingProgress failed(std::string message) { return {Progress::failed, std::move(message)}; }

BindingProgress check_static(const VolumeCatalog& observed, const ClaimToBind& claim, const std::string& written) {
  auto volume = observed.volume(claim.volume);
  if (!volume) return failed("failed to check binding: could not find v1.PersistentVolume " + quoted(claim.volume));
  const PersistentVolumeClaim* pvc = observed.claim(claim.namespace_name, claim.name);
  if (pvc == nullptr)
    return failed("failed to check binding: could not find v1.PersistentVolumeClaim " +
                  quoted(claim.namespace_name + "/" + claim.name));
  if (older_than(volume->meta.resource_version, written)) return {};
  if (!volume->claim_ref || volume->claim_ref->uid.empty())
    return failed("ClaimRef got reset for pv " + quoted(claim.volume));
  return fully_bound(*pvc) ? BindingProgress{Progress::bound, ""} : BindingProgress{};
}

BindingProgress check_provisioned(const VolumeCatalog& observed, const ClaimToBind& claim, const std::string& written,
                                  const std::string& node) {
  const PersistentVolumeClaim* pvc = observed.claim(claim.namespace_name, claim.name);
  if (pvc == nullptr)
    return failed("failed to check provisioning pvc: could not find v1.PersistentVolumeClaim " +
                  quoted(claim.namespace_name + "/" + claim.name));
  if (older_than(pvc->meta.resource_version, written)) return {};
  if (pvc->meta.annotations.empty()) return failed("selectedNode annotation reset for PVC " + quoted(claim.name));
  // A provisioner that fails takes the annotation off, to have the pod scheduled again.
  const std::string* selected = pvc->meta.annotation(kAnnotationSelectedNode);
  if (selected == nullptr || *selected != node) return failed("provisioning failed for PVC " + quoted(claim.name));
  return fully_bound(*pvc) ? BindingProgress{Progress::bound, ""} : BindingProgress{};
}

}  // namespace

bool older_than(const std::string& observed, const std::string& written) {
  auto a = revision(observed);
  auto b = revision(written);
  return a && b && *a < *b;
}

BindingProgress check_claim_bindings(const VolumeCatalog& observed, const std::vector<ClaimToBind>& claims,
                                     const std::vector<std::string>& written, const std::string& node) {
  for (size_t i = 0; i < claims.size(); ++i) {
    const std::string& version = i < written.size() ? written[i] : std::string();
    BindingProgress step = claims[i].provisions() ? check_provisioned(observed, claims[i], version, node)
                                                  : check_static(observed, claims[i], version);
    if (step.progress != Progress::bound) return step;
  }
  return {Progress::bound, ""};
}

}  // namespace troupe::plugins::volumes
