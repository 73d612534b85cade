#pragma once
/// bench's CPU baseline, done fairly: SGEMM through OpenBLAS on every core and a convolution
/// through oneDNN, so that "GPU vs CPU" compares optimised libraries, never a naive loop. Both
/// libraries are loaded at run time (dlopen) in a child, the "cpu-bench" internal task: their
/// constructors start thread pools and their code is vendor code, which never runs in the
/// doctor's own process (docs/child-processes.md).
///
///   gpudoctor --internal-task cpu-bench sgemm N BUDGET [lib=PATH...] [bundled=PATH...] [threads=N]
///   gpudoctor --internal-task cpu-bench conv N C H W K BUDGET [lib=PATH...] [threads=N]
///
/// BUDGET is quick|default|full (the sampling policy); each lib= is a library to try, in order
/// (none: openblas_names() / onednn_names()); bundled= a copy from a Python package, tried in
/// its turn, whose failure to load is a note rather than the figure's failure. The child announces every vendor call
/// ({"call": ...}) and ends with {"measurement": ...} (model/bench_report.hpp).
#include <string>
#include <vector>

#include "gpu/bench_math.hpp"
#include "gpu/child_lines.hpp"
#include "gpu/isolated_child.hpp"
#include "model/facts.hpp"

namespace gpudoctor::gpu {

/// The names tried for OpenBLAS and oneDNN, in order: the loader's (sonames; DLL names on
/// Windows), never a path of someone's environment.
std::vector<std::string> openblas_names();
std::vector<std::string> onednn_names();

struct BundledOpenblas {
  std::vector<std::string> found;    ///< paths, numpy's first
  std::vector<std::string> refused;  ///< "FOLDER: why": copies others could change, not offered
};

/// The OpenBLAS copies bundled by numpy's and scipy's wheels in these site-packages folders
/// (numpy.libs/libscipy_openblas64_-<hash>.so or .dll, ...), numpy's first, at most 16: the
/// CPU baseline's fallback where the system has no OpenBLAS, the one numpy.matmul itself runs.
/// A folder is offered only when no library in it (the copy, and the libgfortran the loader
/// takes from beside it) could be changed by anyone but root and this user, nor any folder
/// above it (host_fs::writable_by_others): the library is loaded and run.
BundledOpenblas bundled_openblas(const std::vector<std::string>& site_packages);

/// The site-packages of the environments the user points at: found through --env, --python,
/// VIRTUAL_ENV, CONDA_PREFIX, an interpreter on PATH, a PEP 514 registration or the Microsoft
/// Store. Not those found by scanning folders anyone may create (C:\\Python3x, a checkout's
/// .venv, ~/.virtualenvs of a shared home), whose bundled library would then run in our child.
std::vector<std::string> user_chosen_site_packages(const std::vector<PythonEnvFacts>& envs);
/// Whether the user points at `env` (the ways above): only such an environment's code runs in bench's children.
bool user_chosen_env(const PythonEnvFacts& env);

/// The sampling policy of a budget: quick keeps the whole CPU run within a few seconds.
SamplingPolicy bench_policy(const std::string& budget);

/// The CPUs this process may run on (sched_getaffinity), else hardware_concurrency.
int usable_cpu_count();

/// The "cpu-bench" task body.
void cpu_bench_body(const std::vector<std::string>& args, ChildChannel& out);

/// A child that died, hung, wrote junk or no answer (m.status still empty): `m` says so, with
/// the vendor call it was in; otherwise `m` is left as the child reported it.
void mark_child_failure(BenchMeasurement& m, const ChildOutcome& outcome, const ChildLines& lines);

/// The parent's side: the measurement the child reported, or the crash, timeout or silence
/// that ended it.
BenchMeasurement measurement_from_child(const std::string& key, const std::string& unit, const ChildOutcome& outcome);

}  // namespace gpudoctor::gpu
