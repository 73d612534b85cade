#include "check/env_checks.hpp"

#include <algorithm>
#include <optional>

#include "core/text.hpp"

namespace gpudoctor {
namespace {

/// How many entries of a CUDA_VISIBLE_DEVICES list name a GPU of this machine, counted as CUDA
/// does: in order, up to the first entry that names none (CUDA C Programming Guide,
/// CUDA_VISIBLE_DEVICES: "only the devices whose index precedes the invalid index are visible").
/// nullopt when the machine's GPUs are not all known (none read, or declared with --gpu) or an
/// entry cannot be judged here (a MIG device).
struct VisibleCount {
  std::size_t usable = 0;
  std::size_t listed = 0;
  std::string first_invalid;
};
std::optional<VisibleCount> visible_gpus(std::string_view value, const std::vector<GpuFacts>& gpus) {
  if (gpus.empty() || std::any_of(gpus.begin(), gpus.end(), [](const GpuFacts& g) { return g.source == "declared"; })) {
    return std::nullopt;
  }
  VisibleCount c;
  const std::vector<std::string_view> entries = split(value, ',');
  c.listed = entries.size();
  auto starts_with_ci = [](std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && iequals(s.substr(0, prefix.size()), prefix);
  };
  for (const std::string_view raw : entries) {
    const std::string e(trim(raw));
    bool valid = false;
    if (starts_with_ci(e, "MIG-")) return std::nullopt;
    if (starts_with_ci(e, "GPU-")) {
      // A unique prefix of a UUID names that GPU; a UUID not read from this machine cannot be judged.
      std::size_t matches = 0;
      for (const GpuFacts& g : gpus) {
        if (g.uuid.empty()) return std::nullopt;
        if (starts_with_ci(g.uuid, e)) ++matches;
      }
      valid = matches == 1;
    } else if (!e.empty() && std::all_of(e.begin(), e.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
      valid = e.size() <= 3 && std::stoul(e) < gpus.size();  // three digits: no overflow
    }
    if (!valid) {
      c.first_invalid = e;
      break;
    }
    ++c.usable;
  }
  return c;
}

}  // namespace

std::vector<Finding> env_findings(const Facts& facts) {
  std::vector<Finding> out;
  for (const auto& ev : facts.env) {
    std::string v(trim(ev.value));
    if (ev.name == "CUDA_VISIBLE_DEVICES") {
      if (v.empty() || v == "-1" || to_lower(v) == "nodevfiles" || to_lower(v) == "none") {
        out.push_back(Finding{
            .id = "cuda-visible-devices-hides-all",
            .severity = Severity::error,
            .area = FindingArea::env,
            .title = "CUDA_VISIBLE_DEVICES=\"" + v + "\" hides every GPU",
            .detail = "CUDA programs started from this environment see no GPU, whatever the hardware and driver.",
            .fix = "Unset it (`unset CUDA_VISIBLE_DEVICES`) or list the GPUs to use (`export CUDA_VISIBLE_DEVICES=0`).",
            .evidence = {"CUDA_VISIBLE_DEVICES"}});
      } else if (const auto c = visible_gpus(v, facts.gpus); c && c->usable < c->listed) {
        const std::string have =
            std::to_string(facts.gpus.size()) + " GPU" + (facts.gpus.size() == 1 ? "" : "s") +
            (facts.gpus.size() == 1 ? " (index 0)" : " (indices 0 to " + std::to_string(facts.gpus.size() - 1) + ")");
        const std::string why = "\"" + c->first_invalid + "\" names no GPU of this machine, which has " + have +
                                ", and CUDA makes visible only the entries before the first one that names none.";
        if (c->usable == 0) {
          out.push_back(Finding{.id = "cuda-visible-devices-hides-all",
                                .severity = Severity::error,
                                .area = FindingArea::env,
                                .title = "CUDA_VISIBLE_DEVICES=\"" + v + "\" hides every GPU",
                                .detail = why + " CUDA programs started from this environment see no GPU.",
                                .fix = "List GPUs this machine has (`export CUDA_VISIBLE_DEVICES=0`; `nvidia-smi -L` "
                                       "lists their indices and UUIDs), or unset it.",
                                .evidence = {"CUDA_VISIBLE_DEVICES"}});
        } else {
          out.push_back(Finding{.id = "cuda-visible-devices-partly-invalid",
                                .severity = Severity::warning,
                                .area = FindingArea::env,
                                .title = "CUDA_VISIBLE_DEVICES=" + v + " makes only " + std::to_string(c->usable) +
                                         " of its " + std::to_string(c->listed) + " entries visible",
                                .detail = why,
                                .fix = "List only GPUs this machine has (`nvidia-smi -L`).",
                                .evidence = {"CUDA_VISIBLE_DEVICES"}});
        }
      } else {
        out.push_back(Finding{.id = "cuda-visible-devices",
                              .severity = Severity::info,
                              .area = FindingArea::env,
                              .title = "CUDA_VISIBLE_DEVICES=" + v + " limits which GPUs programs see",
                              .evidence = {"CUDA_VISIBLE_DEVICES"}});
      }
    } else if (ev.name == "NVIDIA_VISIBLE_DEVICES" && (v == "void" || v == "none" || v.empty())) {
      out.push_back(Finding{.id = "nvidia-visible-devices-none",
                            .severity = Severity::warning,
                            .area = FindingArea::env,
                            .title = "NVIDIA_VISIBLE_DEVICES=\"" + v + "\": the container runtime passes in no GPU",
                            .fix = "Start the container with `--gpus all` or `-e NVIDIA_VISIBLE_DEVICES=all`.",
                            .evidence = {"NVIDIA_VISIBLE_DEVICES"}});
    } else if (ev.name == "CUDA_LAUNCH_BLOCKING" && v == "1") {
      out.push_back(Finding{.id = "cuda-launch-blocking",
                            .severity = Severity::warning,
                            .area = FindingArea::env,
                            .title = "CUDA_LAUNCH_BLOCKING=1 makes every kernel launch synchronous",
                            .detail = "Useful to locate a CUDA error; it slows training considerably.",
                            .fix = "Unset it once debugging is done.",
                            .evidence = {"CUDA_LAUNCH_BLOCKING"}});
    } else if (ev.name == "TF_CPP_MIN_LOG_LEVEL" && (v == "2" || v == "3")) {
      out.push_back(
          Finding{.id = "tf-logs-hidden",
                  .severity = Severity::info,
                  .area = FindingArea::env,
                  .title = "TF_CPP_MIN_LOG_LEVEL=" + v + " hides TensorFlow's " + (v == "3" ? "errors" : "warnings"),
                  .detail = "TensorFlow's messages about libraries it could not load (why it uses the CPU) are hidden.",
                  .fix = "Unset it while diagnosing (`unset TF_CPP_MIN_LOG_LEVEL`).",
                  .evidence = {"TF_CPP_MIN_LOG_LEVEL"}});
    } else if (ev.name == "CUDA_HOME" || ev.name == "CUDA_PATH") {
      bool exists = false;
      for (const auto& tk : facts.toolkits) {
        for (const auto& via : tk.found_via) exists = exists || via == ev.name;
      }
      if (!exists) {
        out.push_back(
            Finding{.id = "cuda-home-invalid",
                    .severity = Severity::warning,
                    .area = FindingArea::env,
                    .title = ev.name + "=" + v + " does not point at a CUDA toolkit",
                    .detail = "Builds of CUDA extensions (and some frameworks' library searches) use this variable.",
                    .fix = "Point it at an installed toolkit or unset it.",
                    .evidence = {ev.name}});
      }
    }
  }
  return out;
}

}  // namespace gpudoctor
