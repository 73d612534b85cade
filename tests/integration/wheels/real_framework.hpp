#pragma once
// What the RealTorch and RealTensorflow tests share: the venv named by an environment variable
// (the frameworks are too large for CI to download), the framework target in it, a bench
// figure by key, and verify's step for that venv.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "gpu/framework_bench.hpp"
#include "run_gpudoctor.hpp"

namespace gpudoctor::testing {

inline constexpr std::chrono::minutes kRealFrameworkDeadline{10};

/// The venv the variable names; empty when unset (the test then skips, saying so).
inline std::string venv_from(const char* variable) {
  const char* v = std::getenv(variable);
  return v == nullptr ? std::string() : std::string(v);
}

inline gpu::FrameworkTarget framework_target(const std::string& venv_dir, const char* framework) {
  std::filesystem::path venv = std::filesystem::canonical(venv_dir);
  return {.framework = framework, .env = venv.string(), .interpreter = (venv / "bin/python").string()};
}

inline bool gpu_machine() {
  return std::filesystem::exists("/proc/driver/nvidia/version");
}

inline const BenchMeasurement* find_figure(const gpu::FrameworkBenchRun& run, const std::string& key) {
  for (const auto& m : run.measurements) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

/// verify --framework's step for `venv` in a verify --json report; null when absent.
inline const nlohmann::json* framework_step(const RunResult& r, const std::string& framework, const std::string& venv) {
  if (!r.json.is_object() || !r.json.contains("steps")) return nullptr;
  for (const auto& s : r.json["steps"]) {
    if (s["name"] == "framework " + framework && s["notes"].dump().find("environment: " + venv) != std::string::npos)
      return &s;
  }
  return nullptr;
}

}  // namespace gpudoctor::testing
