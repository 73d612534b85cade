#include "check/env_checks.hpp"

#include "core/text.hpp"

namespace gpudoctor {

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
