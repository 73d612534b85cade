#pragma once
/// Facts for the check tests: a machine and a Python environment holding one framework; and the
/// finding lookups (finding_lookup.hpp) every check test needs.
#include <string>
#include <vector>

#include "finding_lookup.hpp"
#include "kb_test_support.hpp"
#include "model/facts.hpp"

namespace gpudoctor::testing {

/// A machine with one GPU (as NVML reports it: the name, and the compute capability where the
/// knowledge base knows the name) and a driver; either may be null.
inline Facts machine(Platform p, const char* gpu, const char* driver) {
  Facts f;
  f.platform = p;
  if (gpu) {
    GpuFacts g;
    g.name = gpu;
    g.source = "nvml";
    if (auto cc = builtin_kb().compute_capability(gpu)) {
      g.cc_major = cc->major();
      g.cc_minor = cc->minor();
    }
    f.gpus.push_back(g);
  }
  if (driver) f.driver.version = v(driver);
  return f;
}

inline Facts machine(Platform p, const char* gpu, const Version& driver) {
  Facts f = machine(p, gpu, nullptr);
  f.driver.version = driver;
  return f;
}

inline PythonEnvFacts env_with(const char* python, FrameworkFacts fw) {
  PythonEnvFacts e;
  e.path = "/home/u/.venvs/x";
  e.python_version = v(python);
  e.python_version_source = "pyvenv.cfg";
  fw.location = e.path + "/lib/site-packages";
  e.frameworks.push_back(std::move(fw));
  return e;
}

inline FrameworkFacts cuda_framework(const char* name, const char* version, const char* variant = "") {
  FrameworkFacts fw;
  fw.name = name;
  fw.package = name;
  fw.version = v(version);
  fw.cuda_build = true;
  fw.variant = variant;
  return fw;
}

inline FrameworkFacts torch(const char* version, const char* variant = "") {
  return cuda_framework("torch", version, variant);
}

}  // namespace gpudoctor::testing
