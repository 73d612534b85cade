#include "kb/resolver.hpp"

#include <algorithm>
#include <set>

#include "core/text.hpp"
#include "kb/data_files.hpp"
#include "kb/driver_branch_advice.hpp"
#include "kb/framework_request.hpp"
#include "kb/knowledge_base.hpp"
#include "model/facts.hpp"

namespace gpudoctor {

namespace {

constexpr const char* kSmiQuery = "nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv";
/// TensorFlow's Linux recipe before tensorflow[and-cuda] (2.10-2.13): conda's CUDA, and the
/// environment's lib/ on LD_LIBRARY_PATH, set on every activation; the PyPI wheel dlopens
/// libcudart.so.11.0 and libcudnn.so.8 by name and finds nothing in $CONDA_PREFIX/lib without
/// it. For cuDNN 8.6 (2.12, 2.13) the recipe takes the pip wheel nvidia-cudnn-cu11==8.6.0.163.
constexpr const char* kTfCondaRecipe =
    "[official] tensorflow/docs site/en/install/pip.md, Linux conda recipe of TF 2.10-2.13 (conda-forge cudatoolkit, "
    "LD_LIBRARY_PATH=$CONDA_PREFIX/lib in etc/conda/activate.d/env_vars.sh; 2.12-2.13: pip "
    "nvidia-cudnn-cu11==8.6.0.163 and its lib/); [artefact] nvidia_cudnn_cu11-8.6.0.163-py3-none-manylinux1_x86_64.whl "
    "on "
    "PyPI (read 2026-12-06)";
constexpr const char* kWslGuide =
    "[official] docs.nvidia.com/cuda/wsl-user-guide (the driver lives on Windows; do not install a Linux driver inside "
    "WSL2)";

constexpr const char* kWslGuide11 =
    "[official] docs.nvidia.com/cuda/archive/11.2.2/wsl-user-guide (\"CUDA on WSL 2 is enabled on GPUs starting with "
    "the Kepler architecture; however, we recommend running CUDA on WSL 2 on Turing or newer architectures\")";

/// Driver floors: WSL2 uses the Windows driver.
Platform driver_platform(Platform route) {
  return route == Platform::linux ? Platform::linux : Platform::windows;
}

/// The Python for a new environment. Near the one the user has (the closest inside the range);
/// without one, the newest but one inside the range, because the newest Python a framework
/// lists is its most recent (and least tried) addition.
std::optional<Version> pick_python(const KnowledgeBase& kb, const VersionSpec& range,
                                   const std::optional<Version>& have) {
  std::vector<Version> in;
  for (const Version& v : kb.python_versions) {
    if (range.contains(v)) in.push_back(v);
  }
  if (in.empty()) return std::nullopt;
  std::sort(in.begin(), in.end());
  if (have) {
    Version h = have->truncated(2);
    if (h > in.back()) return in.back();
    if (h < in.front()) return in.front();
  }
  return in.size() >= 3 ? in[in.size() - 2] : in.back();
}

void add_unique(std::vector<std::string>& list, const std::string& s) {
  if (!s.empty() && std::find(list.begin(), list.end(), s) == list.end()) list.push_back(s);
}

/// Applies the Python range: keeps the user's interpreter when it fits, else picks one.
void apply_python(PlanOption& o, const PlanRequest& req, const KnowledgeBase& kb, const VersionSpec& range,
                  const std::string& source) {
  o.python_range = range.text();
  if (req.python) {
    if (range.contains(*req.python)) {
      o.python = req.python->truncated(2);
      o.reasons.push_back("Python " + req.python->truncated(2).str() + " is inside " + display_name(o.framework) + " " +
                          series_text(o.version) + "'s range " + range.text());
    } else {
      o.python_change = true;
      o.python = pick_python(kb, range, req.python);
      o.issues.push_back(PlanIssue{.id = "python-outside-range",
                                   .fatal = false,
                                   .message = "Python " + req.python->truncated(2).str() + " is outside " +
                                              display_name(o.framework) + " " + series_text(o.version) + "'s range " +
                                              range.text() + ": use a new environment with Python " +
                                              (o.python ? o.python->str() : range.text()),
                                   .source = source});
    }
  } else {
    o.python = pick_python(kb, range, std::nullopt);
  }
}

/// The last driver branch of the planned GPU (Tesla K80: 470.xx), on every route: Windows and
/// WSL2 drivers are compared with it through KnowledgeBase::driver_past_branch.
std::optional<LegacyDriverBranch> last_branch(const PlanRequest& req, const KnowledgeBase& kb) {
  return kb.last_driver_branch(req.gpu_pci_device_id, req.gpu_name, req.cc);
}

/// A branch as a route's driver names it: "470.xx branch" on Linux; on Windows and WSL2 NVIDIA's
/// "R470 branch" with where its Windows numbers end ("(Windows drivers below 495)").
std::string branch_words(const LegacyDriverBranch& b, Platform route, const KnowledgeBase& kb) {
  if (route == Platform::linux) return b.branch + " branch";
  const std::optional<int> next = kb.next_driver_branch(b.major);
  return "R" + std::to_string(b.major) + " branch" +
         (next ? " (Windows drivers below " + std::to_string(*next) + ")" : std::string());
}

/// The planned GPU's last driver branch cannot run the newest CUDA major (Tesla K80 and K40:
/// 470.xx, CUDA 11); not Pascal on 580.xx, which runs CUDA 13.
bool gpu_outlived_by_cuda(const PlanRequest& req, const KnowledgeBase& kb) {
  const std::optional<LegacyDriverBranch> b = last_branch(req, kb);
  if (!b) return false;
  int newest = 0;
  for (const CudaFamily& f : kb.cuda_families) newest = std::max(newest, f.major);
  const std::optional<int> runs = kb.newest_cuda_major_for_branch(b->major);
  return !runs || *runs < newest;
}

/// One lower bound on the driver, and why it applies.
struct DriverFloor {
  Version driver;
  std::string why;  ///< completes "the minimum ... driver ..."
  std::string source;
};

/// Driver floor for a CUDA build on a route; adds an issue when the given driver is older.
/// The floor is the highest of: the CUDA family's (minor-version compatibility), a framework's
/// own (JAX), the GPU architecture's first driver (Blackwell: 570.26), the build's own toolkit
/// driver when only PTX can run (minor-version compatibility gives no PTX JIT), and the WSL2
/// floor. Call after apply_coverage.
void apply_driver(PlanOption& o, const PlanRequest& req, const KnowledgeBase& kb, const Version& cuda,
                  std::optional<Version> extra_floor = std::nullopt, const std::string& extra_source = "") {
  Platform dp = driver_platform(o.route);
  std::string where = dp == Platform::linux ? "Linux" : "Windows";
  std::vector<DriverFloor> floors;
  if (std::optional<Version> fam = kb.family_min_driver(cuda, dp)) {
    std::string src;
    if (const CudaFamily* f = kb.family_for_cuda(cuda))
      src = f->source;
    else if (const CudaDriverRow* r = kb.driver_row_for_cuda(cuda))
      src = r->source;
    floors.push_back({*fam, "the minimum " + where + " driver for CUDA " + cuda.str() + " builds", src});
  }
  if (extra_floor) floors.push_back({*extra_floor, "the minimum " + where + " driver of this build", extra_source});
  bool jetson = kb.is_jetson(req.gpu_name, req.cc);
  if (req.cc && !jetson) {
    if (auto a = kb.arch_driver_floor(*req.cc, dp)) {
      floors.push_back({a->driver,
                        "the first " + where + " driver for " + a->generation + " GPUs (CUDA " + a->first_cuda.str() +
                            ", their first toolkit)",
                        a->source});
    }
  }
  if (o.coverage == to_string(ArchCoverage::ptx_jit) || o.coverage == to_string(ArchCoverage::unknown_ptx)) {
    if (auto full = kb.min_driver_for_cuda(cuda, dp)) {
      const CudaDriverRow* r = kb.driver_row_for_cuda(cuda);
      floors.push_back({*full,
                        "the CUDA " + cuda.str() +
                            " toolkit's own driver, which PTX JIT needs (minor-version compatibility gives no PTX JIT)",
                        r != nullptr ? r->source : ""});
    }
  }
  const TensorflowTable& tf = kb.tensorflow;
  const bool unsourced_wsl2 =
      o.route == Platform::wsl2 && tf.wsl2_min_driver_cuda && cuda.major() < tf.wsl2_min_driver_cuda->major();
  const std::optional<LegacyDriverBranch> ends = last_branch(req, kb);
  if (o.route == Platform::wsl2 && tf.wsl2_min_driver && unsourced_wsl2 && ends &&
      kb.driver_past_branch(*tf.wsl2_min_driver, ends->major, dp)) {
    // The only WSL2 floor (for CUDA 12 builds) lies past the GPU's last branch; for this CUDA
    // none is sourced, and NVIDIA's WSL guide for CUDA 11.2 enables CUDA on WSL 2 from Kepler on.
    o.issues.push_back(PlanIssue{.id = "wsl2-driver-floor-past-branch",
                                 .fatal = false,
                                 .message = "no source gives a WSL2 driver floor for CUDA " +
                                            std::to_string(cuda.major()) + ".x builds, and the one given for CUDA " +
                                            tf.wsl2_min_driver_cuda->str() + " (" + tf.wsl2_min_driver->str() +
                                            ") is past the " + ends->branch +
                                            " branch; NVIDIA's WSL guide for CUDA 11.2 enables CUDA on WSL 2 from "
                                            "Kepler on, so a " +
                                            ends->branch + " Windows driver may serve it (not verified)",
                                 .source = std::string(kWslGuide11) + "; " + tf.wsl2_driver_source,
                                 .unverified = true});
  } else if (o.route == Platform::wsl2 && tf.wsl2_min_driver) {
    floors.push_back({*tf.wsl2_min_driver, "the minimum Windows driver for GPU use in WSL2", tf.wsl2_driver_source});
    // Older CUDA majors (10.x/11.x) in WSL2 have no sourced floor; newer ones need more anyway.
    if (unsourced_wsl2) {
      o.issues.push_back(PlanIssue{.id = "wsl2-driver-floor-unsourced",
                                   .fatal = false,
                                   .message = "no source gives a WSL2 driver floor for CUDA " +
                                              std::to_string(cuda.major()) + ".x builds; the plan uses " +
                                              tf.wsl2_min_driver->str() + ", the WSL2 floor given for CUDA " +
                                              tf.wsl2_min_driver_cuda->str() + " (not verified for this build)",
                                   .source = tf.wsl2_driver_source,
                                   .unverified = true});
    }
  }
  if (floors.empty()) {
    o.issues.push_back(PlanIssue{.id = "driver-floor-unknown",
                                 .fatal = false,
                                 .message = "no minimum driver for CUDA " + cuda.str() + " in the knowledge base"});
    return;
  }
  // The first of the highest: the family floor keeps its wording when nothing raises it.
  const DriverFloor* top = &floors.front();
  for (const DriverFloor& f : floors) {
    if (f.driver > top->driver) top = &f;
  }
  o.driver_min = top->driver;
  add_unique(o.sources, top->source);
  if (const std::optional<LegacyDriverBranch> b = last_branch(req, kb)) {
    if (dp == Platform::linux)
      o.driver_major_below = b->major + 1;
    else
      o.driver_major_below = kb.next_driver_branch(b->major);
    // A floor past the GPU's last branch: no driver both runs the build and drives the GPU.
    if (kb.driver_past_branch(top->driver, b->major, dp)) {
      o.issues.push_back(PlanIssue{.id = "gpu-dropped-by-driver",
                                   .fatal = true,
                                   .message = "needs driver >= " + top->driver.str() + " (" + top->why +
                                              "), and no driver after the " + b->branch + " branch drives the '" +
                                              printable(req.gpu_name, 80) + "'",
                                   .source = b->source});
      add_unique(o.sources, b->source);
      return;
    }
    if (req.driver && kb.driver_past_branch(*req.driver, b->major, dp)) {
      o.issues.push_back(PlanIssue{
          .id = "driver-drops-gpu",
          .fatal = false,
          .message = "driver " + req.driver->str() + " does not drive the '" + printable(req.gpu_name, 80) +
                     "', whose last branch is " + b->branch +
                     (o.route == Platform::linux ? ": install a " + b->branch + " driver"
                                                 : ": install an R" + std::to_string(b->major) + " Windows driver") +
                     // Every driver of a branch that starts past the floor meets it: the branch says it all.
                     (top->driver.major() < b->major ? std::string() : " >= " + top->driver.str()) + " first",
          .source = b->source});
      add_unique(o.sources, b->source);
      return;
    }
  }
  if (jetson) {
    o.issues.push_back(PlanIssue{.id = "jetson-driver-from-jetpack",
                                 .fatal = false,
                                 .message =
                                     "Jetson boards get their driver with JetPack (L4T), not from nvidia.com; the "
                                     "knowledge base has no JetPack versions, so the driver cannot be checked",
                                 .unverified = true});
  }
  if (req.driver) {
    if (*req.driver < top->driver) {
      o.issues.push_back(PlanIssue{.id = "driver-too-old",
                                   .fatal = false,
                                   .message = "driver " + req.driver->str() + " is older than " + top->driver.str() +
                                              ", " + top->why + ": update the driver first",
                                   .source = top->source});
    } else {
      o.reasons.push_back("driver " + req.driver->str() + " >= " + top->driver.str() + " (" + top->why + ")");
    }
  }
}

/// Without a compute capability nothing about kernels can be said: never a plain ✓.
void coverage_unknown(PlanOption& o, const PlanRequest& req, const std::string& what) {
  o.coverage = "unknown";
  std::string gpu = req.gpu_name.empty() ? "the GPU" : "'" + printable(req.gpu_name, 80) + "'";
  o.issues.push_back(PlanIssue{.id = "gpu-coverage-unknown",
                               .fatal = false,
                               .message = "the compute capability of " + gpu + " is unknown, so whether " + what +
                                          " has kernels for it could not be checked",
                               .unverified = true});
}

void apply_coverage(PlanOption& o, const PlanRequest& req, const KnowledgeBase& kb, ArchCoverage c,
                    const std::string& what, const std::string& source, bool assumed) {
  if (!req.cc) {
    coverage_unknown(o, req, what);
    return;
  }
  o.coverage = to_string(c);
  std::string cc = req.cc->str();
  std::string sm = "sm_" + std::to_string(req.cc->major()) + std::to_string(req.cc->minor());
  const ArchGeneration* gen = kb.generation_of(*req.cc);
  std::string gen_name = gen != nullptr ? " (" + gen->name + ")" : "";
  switch (c) {
    case ArchCoverage::native:
    case ArchCoverage::derived:
      if (assumed || c == ArchCoverage::derived) {
        // Kernels assumed from the toolkit's list are not read from the build: never a plain ✓
        // (docs/knowledge-base.md "Verdicts"), and `derived`, not `native`, in the JSON.
        o.coverage = to_string(ArchCoverage::derived);
        o.issues.push_back(PlanIssue{.id = "gpu-arch-list-assumed",
                                     .fatal = false,
                                     .message = what + " has kernels for compute capability " + cc + gen_name +
                                                " (assumed from its CUDA toolkit's architecture list; its own list "
                                                "is not recorded, so this is not verified)",
                                     .source = source,
                                     .unverified = true});
      } else {
        o.reasons.push_back(what + " has kernels for compute capability " + cc + gen_name);
      }
      break;
    case ArchCoverage::unknown:
      o.issues.push_back(PlanIssue{.id = "gpu-arch-unknown-platform",
                                   .fatal = false,
                                   .message = what + ": no architecture list is recorded for this GPU's platform (" +
                                              sm + gen_name + ", aarch64/Jetson), so its coverage could not be checked",
                                   .source = source,
                                   .unverified = true});
      break;
    case ArchCoverage::ptx_jit:
      o.issues.push_back(PlanIssue{.id = "gpu-arch-ptx-only",
                                   .fatal = false,
                                   .message = what + " has no " + sm +
                                              " kernels; it runs only through PTX JIT compilation "
                                              "(slow first start; not verified on this architecture)",
                                   .source = source,
                                   .unverified = true});
      break;
    case ArchCoverage::unknown_ptx:
      o.issues.push_back(PlanIssue{.id = "gpu-arch-unverified",
                                   .fatal = false,
                                   .message = what + " was built with a CUDA that cannot target " + sm + gen_name +
                                              "; it can only run if the wheel carries PTX, which the knowledge base "
                                              "does not record",
                                   .source = source,
                                   .unverified = true});
      break;
    case ArchCoverage::none:
      o.issues.push_back(PlanIssue{.id = "gpu-arch-unsupported",
                                   .fatal = true,
                                   .message = what + " has no kernels for compute capability " + cc + gen_name,
                                   .source = source});
      break;
  }
}

// ---- Steps --------------------------------------------------------------------------------

std::string env_name(const PlanOption& o) {
  std::string base =
      o.framework == Framework::pytorch ? "torch" : (o.framework == Framework::tensorflow ? "tf" : "jax");
  std::string v = std::to_string(o.version.major()) + std::to_string(o.version.minor());
  return o.framework == Framework::jax ? base : base + v;
}

void add_driver_step(PlanOption& o, const PlanRequest& req, const KnowledgeBase& kb) {
  if (!o.driver_min || !o.gpu) return;
  const std::optional<LegacyDriverBranch> branch = last_branch(req, kb);
  bool ok = req.driver && *req.driver >= *o.driver_min &&
            (!branch || !kb.driver_past_branch(*req.driver, branch->major, driver_platform(o.route)));
  PlanStep s;
  s.id = "driver";
  if (kb.is_jetson(req.gpu_name, req.cc)) {
    s.title = "Keep the driver of the board's JetPack (L4T) image";
    s.detail =
        "Jetson drivers come with JetPack, not from nvidia.com/Download; which JetPack is new enough is "
        "not in the knowledge base.";
    s.commands.push_back(PlanCommand{Shell::bash, "cat /etc/nv_tegra_release", false});
    o.steps.push_back(std::move(s));
    return;
  }
  std::string where = o.route == Platform::linux ? "Linux" : "Windows";
  // Every driver of a branch that starts past the floor meets it: the branch says it all.
  const std::string floor =
      branch && o.driver_min->major() < branch->major ? std::string() : " >= " + o.driver_min->str();
  s.title = ok ? "NVIDIA driver " + req.driver->str() + " is new enough (>= " + o.driver_min->str() + ")"
               : "Install NVIDIA " + where + " driver" + floor;
  if (o.route == Platform::wsl2) {
    s.detail = "The driver lives on Windows, not inside WSL2: WSL2 reaches the GPU through the Windows driver.";
  } else if (!ok && o.route == Platform::linux) {
    s.detail = "Or use your distribution's driver packages.";  // the address is in the command below, once
  }
  // A generation's branch (Pascal: 580.xx) is said only when the driver must change.
  const bool by_generation = branch && branch->source.starts_with("compat/cuda_arch.toml");
  const std::string named = branch ? branch_words(*branch, o.route, kb) : "";
  if (branch && (!ok || !by_generation)) {
    s.title += " of the " + named;
    s.detail = std::string("Later branches do not drive this GPU (") +
               (by_generation ? "NVIDIA's architecture matrix" : "the drivers' own supported-gpus.json") + ")." +
               (s.detail.empty() ? "" : " " + s.detail);
  }
  Shell check_shell = o.route == Platform::windows ? Shell::powershell : Shell::bash;
  if (!ok)
    s.commands.push_back(PlanCommand{check_shell,
                                     "install the NVIDIA driver" + floor +
                                         (branch ? " of the " + named : std::string()) + " from " + kDriverDownload,
                                     true});
  s.commands.push_back(PlanCommand{check_shell, kSmiQuery, false});
  o.steps.push_back(std::move(s));
}

/// The distribution a Windows plan installs in WSL2, and its Python: named, so the plan does not
/// depend on which LTS the plain "Ubuntu" name points to when the user runs it.
constexpr const char* kWslDistro = "Ubuntu-24.04";
constexpr const char* kWslPython = "3.12";
constexpr const char* kWslPythonSource =
    "[official] Ubuntu 24.04 LTS (noble) release notes: python3 is Python 3.12; venv needs the python3-venv package";

/// The request as the WSL2 route of a Windows machine sees it: the Python there is the
/// distribution's (3.12 in Ubuntu 24.04), not the Windows Python the user named.
PlanRequest wsl_request(const PlanRequest& req) {
  PlanRequest r = req;
  if (req.os == Platform::windows) r.python = Version::parse(kWslPython);
  return r;
}

void add_wsl_step(PlanOption& o, const PlanRequest& req, const KnowledgeBase& kb) {
  if (o.route != Platform::wsl2 || req.os != Platform::windows) return;
  PlanStep s;
  s.id = "wsl2";
  s.title = "Install WSL2 with Ubuntu and run the next steps inside it";
  s.detail = "Needs Windows 10 build " + kb.tensorflow.wsl2_min_windows_build +
             " (21H2) or newer. Do not install a Linux NVIDIA driver inside WSL2.";
  s.commands.push_back(PlanCommand{Shell::powershell, std::string("wsl --install -d ") + kWslDistro, true});
  s.detail += std::string(" Its Python is ") + kWslPython + ", whatever Python Windows has.";
  add_unique(o.sources, kWslPythonSource);
  o.steps.push_back(std::move(s));
  add_unique(o.sources, kb.tensorflow.wsl2_source);
  add_unique(o.sources, kWslGuide);
}

/// venv when the user's Python fits; conda when another Python (or conda's CUDA) is needed.
void add_env_step(PlanOption& o, const PlanRequest& req, bool need_conda,
                  const std::vector<std::string>& conda_packages) {
  PlanStep s;
  s.id = "env";
  std::string name = env_name(o);
  std::string py = o.python ? o.python->str() : "3";
  bool conda = need_conda || o.python_change || !req.python;
  Shell sh = o.route == Platform::windows ? Shell::powershell : Shell::bash;
  if (conda) {
    s.title = "Create a conda environment '" + name + "' with Python " + py;
    s.detail = o.python_change ? "A new environment, because the Python you have is outside the supported range."
                               : "conda provides the Python version the framework supports.";
    if (o.route == Platform::wsl2 && req.os == Platform::windows) {
      // A fresh distribution has no conda: Miniforge (conda-forge's installer, the channel the
      // steps below use), installed unattended into the home folder.
      s.commands.push_back(PlanCommand{sh,
                                       "curl -fsSLo /tmp/miniforge.sh https://github.com/conda-forge/miniforge/"
                                       "releases/latest/download/Miniforge3-Linux-x86_64.sh",
                                       false});
      s.commands.push_back(PlanCommand{sh, "bash /tmp/miniforge.sh -b -u -p \"$HOME/miniforge3\"", false});
      s.commands.push_back(PlanCommand{sh, "eval \"$(\"$HOME/miniforge3/bin/conda\" shell.bash hook)\"", false});
      add_unique(o.sources,
                 "[official] github.com/conda-forge/miniforge README (Miniforge3-Linux-x86_64.sh; -b batch, -u update, "
                 "-p prefix)");
    } else if (sh == Shell::bash) {
      s.commands.push_back(PlanCommand{sh, "eval \"$(conda shell.bash hook)\"", false});
    }
    if (sh == Shell::powershell) s.detail += " (Once per machine: `conda init powershell`, then a new PowerShell.)";
    s.commands.push_back(PlanCommand{sh, "conda create -y -n " + name + " python=" + py, false});
    s.commands.push_back(PlanCommand{sh, "conda activate " + name, false});
    if (!conda_packages.empty()) {
      std::string line = "conda install -y -c conda-forge";
      for (const std::string& p : conda_packages) line += " " + p;
      s.commands.push_back(PlanCommand{sh, line, false});
    }
  } else {
    s.title = "Create a virtual environment '" + name + "' with Python " + py;
    // A fresh Ubuntu has python3 without ensurepip: venv fails until python3-venv is installed.
    if (o.route == Platform::wsl2 && req.os == Platform::windows) {
      s.commands.push_back(PlanCommand{sh, "sudo apt-get update && sudo apt-get install -y python3-venv", false});
    }
    if (sh == Shell::bash) {
      s.commands.push_back(PlanCommand{sh, "python" + py + " -m venv \"$HOME/.venvs/" + name + "\"", false});
      s.commands.push_back(PlanCommand{sh, "source \"$HOME/.venvs/" + name + "/bin/activate\"", false});
    } else {
      s.commands.push_back(PlanCommand{sh, "py -" + py + " -m venv \"$HOME\\.venvs\\" + name + "\"", false});
      s.commands.push_back(PlanCommand{sh, "& \"$HOME\\.venvs\\" + name + "\\Scripts\\Activate.ps1\"", false});
      // Windows clients default to the Restricted policy, which runs no .ps1 (Microsoft's
      // about_Execution_Policies); Python's venv docs give the per-user fix.
      s.detail =
          "Once per user, if Activate.ps1 fails with \"running scripts is disabled on this system\" (a default "
          "Windows client's Restricted execution policy): `Set-ExecutionPolicy -Scope CurrentUser RemoteSigned`.";
    }
  }
  s.commands.push_back(PlanCommand{sh, "python -m pip install --upgrade pip", false});
  o.steps.push_back(std::move(s));
}

void add_install_step(PlanOption& o, const std::string& pip_args, const std::string& detail) {
  PlanStep s;
  s.id = "install";
  s.title = o.framework == Framework::jax
                ? "Install JAX (jax[" + o.variant + "])"
                : std::string("Install ") + display_name(o.framework) + " " + series_text(o.version);
  s.detail = detail;
  Shell sh = o.route == Platform::windows ? Shell::powershell : Shell::bash;
  s.commands.push_back(PlanCommand{sh, "python -m pip install " + pip_args, false});
  o.steps.push_back(std::move(s));
}

void add_verify_step(PlanOption& o) {
  PlanStep s;
  s.id = "verify";
  s.title = std::string("Check that ") + display_name(o.framework) + " sees the GPU";
  Shell sh = o.route == Platform::windows ? Shell::powershell : Shell::bash;
  std::string code;
  if (o.framework == Framework::tensorflow) {
    // tf.config.list_physical_devices is 2.1's; 1.15 and 2.0 have it under tf.config.experimental
    // (their wheels' _api/v1|v2/config/__init__.py import it only in experimental/).
    const bool before_21 = o.version != Version() && o.version < Version::of({2, 1});
    code = std::string("import tensorflow as tf; print(tf.__version__, tf.config.") +
           (before_21 ? "experimental." : "") + "list_physical_devices('GPU'))";
  } else if (o.framework == Framework::pytorch) {
    code = "import torch; print(torch.__version__, torch.version.cuda, torch.cuda.is_available())";
  } else {
    code = "import jax; print(jax.__version__, jax.devices())";
  }
  s.commands.push_back(PlanCommand{sh, "python -c \"" + code + "\"", false});
  s.commands.push_back(PlanCommand{sh, "gpudoctor", false});
  o.steps.push_back(std::move(s));
}

// ---- TensorFlow ---------------------------------------------------------------------------

/// GPUs whose host CPU is Arm (aarch64): Jetson boards, Grace superchips, DGX Spark (GB10).
bool aarch64_host(const PlanRequest& req, const KnowledgeBase& kb) {
  return kb.is_jetson(req.gpu_name, req.cc) ||
         kb.arm_host(req.gpu_kb_name.empty() ? req.gpu_name : req.gpu_kb_name, req.cc);
}

PlanOption evaluate_tf(const TfBuild& b, Platform route, const PlanRequest& req, const KnowledgeBase& kb) {
  PlanOption o;
  o.framework = Framework::tensorflow;
  o.version = b.version.truncated(2);
  o.route = route;
  o.gpu = b.gpu;
  o.cuda = b.cuda;
  o.cudnn = b.cudnn;
  add_unique(o.sources, b.source);
  if (b.package != "tensorflow") {
    o.reasons.push_back("the GPU build of TensorFlow " + series_text(b.version) + " is the " + b.package +
                        " package (its tensorflow package is CPU-only)");
    add_unique(o.sources, b.package_source);
  }
  if (!b.note.empty()) o.reasons.push_back("note: " + b.note);
  if (!b.gpu) {
    o.variant = "cpu";
    o.issues.push_back(PlanIssue{
        .id = "tf-native-windows-no-gpu",
        .fatal = true,
        .message = "TensorFlow " + series_text(b.version) + " on native Windows is a CPU-only build: " + "TensorFlow " +
                   kb.tensorflow.windows_gpu_last.str() + " was the last release with GPU support on native Windows",
        .source = kb.tensorflow.windows_gpu_source});
    add_unique(o.sources, kb.tensorflow.windows_gpu_source);
  }
  if (b.gpu && route != Platform::windows && aarch64_host(req, kb) && !kb.tensorflow.aarch64_cpu_only_source.empty()) {
    o.issues.push_back(PlanIssue{.id = "tf-aarch64-no-gpu",
                                 .fatal = true,
                                 .message =
                                     "TensorFlow's Linux aarch64 wheels on PyPI are CPU-only builds: on this Arm host "
                                     "tensorflow[and-cuda] gives no GPU",
                                 .source = kb.tensorflow.aarch64_cpu_only_source});
    add_unique(o.sources, kb.tensorflow.aarch64_cpu_only_source);
  }
  apply_python(o, req, kb, b.python, b.source);
  if (!b.gpu) return o;
  o.reasons.push_back("tested build: CUDA " + b.cuda->str() + ", cuDNN " + b.cudnn->str() + ", Python " +
                      b.python.text() + " (" + b.tested + ")");
  std::string what = "TensorFlow " + series_text(b.version);
  if (req.cc) {
    ArchCoverage c = kb.is_jetson(req.gpu_name, req.cc) ? ArchCoverage::unknown : kb.tf_coverage(b, *req.cc);
    apply_coverage(o, req, kb, c, what, b.archs_source.empty() ? b.source : b.archs_source, b.archs.empty());
    const TfBuild* n = c == ArchCoverage::derived ? kb.tf_recorded_neighbour(b) : nullptr;
    if (n != nullptr && KnowledgeBase::coverage_by_list(*req.cc, n->archs, n->ptx) != ArchCoverage::native) {
      // The same toolchain's recorded wheel has no kernels for this GPU: the assumption is doubtful.
      o.issues.push_back(PlanIssue{.id = "gpu-arch-doubtful",
                                   .fatal = false,
                                   .message = "the recorded TensorFlow " + series_text(n->version) + " wheel (CUDA " +
                                              n->cuda->str() +
                                              ", same CUDA major) has no kernels for compute capability " +
                                              req.cc->str() + ", so " + what + " probably has none either",
                                   .source = n->archs_source,
                                   .unverified = true});
    }
  } else {
    coverage_unknown(o, req, what);
  }
  apply_driver(o, req, kb, *b.cuda);

  add_wsl_step(o, req, kb);
  add_driver_step(o, req, kb);
  const TfAndCuda* ac = route != Platform::windows ? kb.tf_and_cuda(b.version) : nullptr;
  if (route == Platform::windows) {
    // TF's own recipe for the last native-Windows GPU releases: CUDA and cuDNN from conda.
    o.variant = "conda-cudatoolkit";
    // The conda-forge package of the tested cuDNN, as TF's recipe names it (8.1 -> 8.1.0).
    const auto& conda_cudnn = kb.tensorflow.windows_gpu_conda_cudnn;
    std::string cudnn = conda_cudnn && conda_cudnn->same_series(*b.cudnn, 2) ? conda_cudnn->str() : b.cudnn->str();
    add_env_step(o, req, true, {"cudatoolkit=" + b.cuda->str(), "cudnn=" + cudnn});
    std::string next = Version::of({b.version.major(), b.version.minor() + 1}).str();
    o.install_spec = b.package + "<" + next;
    add_install_step(o, "\"" + o.install_spec + "\"",
                     "TensorFlow's documented native-Windows recipe: conda's cudatoolkit " + b.cuda->str() +
                         " and cudnn " + cudnn + ", then pip install \"" + o.install_spec + "\".");
    if (!kb.tensorflow.windows_gpu_conda_source.empty()) add_unique(o.sources, kb.tensorflow.windows_gpu_conda_source);
  } else if (ac != nullptr) {
    o.variant = "and-cuda";
    auto blocked = [&](const Version& py) {
      return std::any_of(ac->no_wheel_python.begin(), ac->no_wheel_python.end(),
                         [&](const Version& nw) { return nw.same_series(py, 2); });
    };
    if (o.python && blocked(*o.python)) {
      // A pinned wheel has no build for this Python: pick the nearest one that has.
      std::optional<Version> other;
      for (const Version& py : kb.python_versions) {
        if (b.python.contains(py) && !blocked(py) && py < *o.python) other = py;
      }
      o.issues.push_back(PlanIssue{.id = "and-cuda-no-wheel-for-python",
                                   .fatal = false,
                                   .message = "tensorflow[and-cuda] " + series_text(b.version) +
                                              " pins a wheel with no build for Python " + o.python->str() +
                                              ", so pip fails; use Python " +
                                              (other ? other->str() : std::string("another version")),
                                   .source = ac->source});
      if (other) {
        std::erase_if(o.reasons, [](const std::string& r) { return r.starts_with("Python "); });
        o.python = other;
        o.python_change = true;
      }
    }
    std::string exact = !ac->recommended.empty() ? "==" + ac->recommended : "==" + series_text(b.version) + ".*";
    o.install_spec = "tensorflow[and-cuda]" + exact;
    add_env_step(o, req, false, {});
    std::string detail = "pip brings CUDA and cuDNN as nvidia-* wheels: no system CUDA toolkit or cuDNN is needed.";
    if (!ac->note.empty()) detail += " " + ac->note;
    add_install_step(o, "\"" + o.install_spec + "\"", detail);
    add_unique(o.sources, ac->source);
  } else {
    o.variant = "system-cuda";
    o.install_spec = b.package + "==" + series_text(b.version) + ".*";
    // cuDNN 8.6 came from pip in TensorFlow's recipe (2.12, 2.13); 8.1 from conda-forge.
    const bool cudnn_wheel = b.cudnn->major() == 8 && b.cudnn->minor() == 6;
    std::vector<std::string> conda = {"cudatoolkit=" + b.cuda->str()};
    if (!cudnn_wheel) conda.push_back("cudnn=" + b.cudnn->str());
    add_env_step(o, req, true, conda);
    std::string paths = "$CONDA_PREFIX/lib/";
    PlanStep& env = o.steps.back();
    if (cudnn_wheel) {
      env.commands.push_back(PlanCommand{Shell::bash, "python -m pip install nvidia-cudnn-cu11==8.6.0.163", false});
      env.commands.push_back(
          PlanCommand{Shell::bash,
                      "echo 'CUDNN_PATH=$(dirname $(python -c \"import nvidia.cudnn;print(nvidia.cudnn.__file__)\"))' "
                      ">> \"$CONDA_PREFIX/etc/conda/activate.d/env_vars.sh\"",
                      false});
      paths += ":$CUDNN_PATH/lib";
    }
    // The activation script first, so the lines above it have a folder to write to.
    env.commands.insert(env.commands.end() - (cudnn_wheel ? 2 : 0),
                        PlanCommand{Shell::bash, "mkdir -p \"$CONDA_PREFIX/etc/conda/activate.d\"", false});
    env.commands.push_back(PlanCommand{Shell::bash,
                                       "echo 'export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:" + paths +
                                           "' >> \"$CONDA_PREFIX/etc/conda/activate.d/env_vars.sh\"",
                                       false});
    env.commands.push_back(
        PlanCommand{Shell::bash, "source \"$CONDA_PREFIX/etc/conda/activate.d/env_vars.sh\"", false});
    env.detail +=
        " TensorFlow finds conda's CUDA libraries only through LD_LIBRARY_PATH, which the activation script "
        "sets each time the environment is activated.";
    add_unique(o.sources, kTfCondaRecipe);
    add_install_step(o, "\"" + o.install_spec + "\"",
                     "This release has no [and-cuda] extra: it needs CUDA " + b.cuda->str() + " and cuDNN " +
                         b.cudnn->str() + " (conda-forge's cudatoolkit" +
                         (cudnn_wheel ? " and the nvidia-cudnn-cu11 wheel" : " and cudnn") +
                         ", as TensorFlow's conda recipe installs them).");
    o.issues.push_back(PlanIssue{.id = "tf-needs-system-cuda",
                                 .fatal = false,
                                 .message = "TensorFlow " + series_text(b.version) +
                                            " predates tensorflow[and-cuda]: CUDA " + b.cuda->str() + " and cuDNN " +
                                            b.cudnn->str() + " must be installed separately",
                                 .source = b.source});
  }
  add_verify_step(o);
  return o;
}

std::vector<PlanOption> tf_options(const PlanRequest& req, const KnowledgeBase& kb) {
  std::vector<Platform> routes{req.os};
  if (req.os == Platform::windows) routes.push_back(Platform::wsl2);
  std::vector<PlanOption> out;
  for (Platform route : routes) {
    std::string os = route == Platform::windows ? "windows" : "linux";
    const PlanRequest on_route = route == Platform::wsl2 ? wsl_request(req) : req;
    for (const TfBuild& b : kb.tensorflow.builds) {
      if (b.os == os) out.push_back(evaluate_tf(b, route, on_route, kb));
    }
    // Releases with no row on native Windows (the 2.13 gap) are still CPU-only there.
    if (route == Platform::windows) {
      for (const KnownGap& g : kb.tensorflow.gaps) {
        if (g.os != "windows") continue;
        PlanOption o;
        o.framework = Framework::tensorflow;
        o.version = g.version.truncated(2);
        o.route = route;
        o.gpu = false;
        o.variant = "cpu";
        o.issues.push_back(
            PlanIssue{.id = "tf-native-windows-no-gpu",
                      .fatal = true,
                      .message = "TensorFlow " + series_text(g.version) +
                                 " has no native-Windows GPU build (no tested Windows configuration at all)",
                      .source = g.source});
        o.sources.push_back(g.source);
        out.push_back(std::move(o));
      }
    }
  }
  return out;
}

// ---- PyTorch ------------------------------------------------------------------------------

PlanOption evaluate_torch(const TorchRelease& r, const TorchVariant& v, const PlanRequest& req,
                          const KnowledgeBase& kb) {
  PlanOption o;
  o.framework = Framework::pytorch;
  o.version = r.version.truncated(2);
  o.route = req.os;
  o.variant = v.tag;
  o.cuda = v.cuda;
  o.cudnn = v.cudnn;
  add_unique(o.sources, r.source);
  if (!r.note.empty()) o.reasons.push_back("note: " + r.note);
  // torch 2.5 has cp313 wheels for Linux x86_64 only: the range of the platform's own wheels.
  const VersionSpec& python = KnowledgeBase::torch_python(r, req.os, aarch64_host(req, kb));
  apply_python(o, req, kb, python, &python == &r.python ? r.source : r.python_os_source);
  o.reasons.push_back(v.tag + " wheels: CUDA " + v.cuda.str() +
                      (v.cudnn ? ", cuDNN " + v.cudnn->str() : std::string()) + " (" + to_string(v.status) + ")");
  if (v.status == VariantStatus::experimental) {
    o.issues.push_back(PlanIssue{
        .id = "variant-experimental",
        .fatal = false,
        .message = "CUDA " + v.cuda.str() + " is an experimental variant for PyTorch " + series_text(r.version),
        .source = r.source});
  }
  std::string what = "PyTorch " + series_text(r.version) + " " + v.tag;
  if (req.cc) {
    bool aarch64 = kb.is_jetson(req.gpu_name, req.cc);
    std::string src = aarch64 ? v.aarch64_source : v.archs_source;
    const ArchCoverage c = kb.torch_coverage(v, *req.cc, req.os, aarch64);
    apply_coverage(o, req, kb, c, what, src.empty() ? r.source : src, aarch64 ? false : v.archs.empty());
    // Assumed from the toolkit's list while no recorded variant of the release has kernels for
    // this GPU (cu118 of 2.1-2.7 on a K80): a build read from its wheel ranks first.
    o.coverage_assumed = !aarch64 && v.archs.empty() && c == ArchCoverage::native &&
                         std::none_of(r.variants.begin(), r.variants.end(), [&](const TorchVariant& sib) {
                           return !sib.archs.empty() &&
                                  KnowledgeBase::coverage_by_list(*req.cc, sib.archs, sib.ptx) == ArchCoverage::native;
                         });
    // For a GPU whose last branch cannot run the newest CUDA (Kepler: 470.xx, CUDA 11), builds drop
    // it long before their toolkit does (torch 2.0.1's own list starts at sm_37, CUDA 11.7's at
    // sm_35): the toolkit's list is no evidence, so the option is not verified.
    if (o.coverage_assumed && gpu_outlived_by_cuda(req, kb)) {
      // Says more than the plain assumption: one issue, not two.
      std::erase_if(o.issues, [](const PlanIssue& i) { return i.id == "gpu-arch-list-assumed"; });
      o.issues.push_back(PlanIssue{.id = "gpu-arch-assumed",
                                   .fatal = false,
                                   .message = what +
                                              "'s own architecture list is not recorded; builds drop a GPU "
                                              "whose last driver branch is this old before their toolkit "
                                              "does, so its kernels for compute capability " +
                                              req.cc->str() + " are not verified",
                                   .source = src.empty() ? r.source : src,
                                   .unverified = true});
    }
  } else {
    coverage_unknown(o, req, what);
  }
  apply_driver(o, req, kb, v.cuda);
  std::string url = kb.torch_index_url(v.tag);
  o.install_spec = "torch==" + series_text(r.version) + ".* --index-url " + url;
  add_unique(o.sources, kb.pytorch.index_source);
  add_driver_step(o, req, kb);
  add_env_step(o, req, false, {});
  std::string pkgs = "\"torch==" + series_text(r.version) + ".*\"";
  if (!r.torchvision.empty()) pkgs += " \"torchvision==" + r.torchvision + ".*\"";
  if (!r.torchaudio.empty()) pkgs += " \"torchaudio==" + r.torchaudio + ".*\"";
  std::string detail = "The " + v.tag + " wheels bundle the CUDA runtime and cuDNN: no system CUDA toolkit is needed.";
  if (!r.torchvision.empty()) {
    detail += " torchvision and torchaudio are built for one exact torch: install them together, from the same index.";
    add_unique(o.sources, r.companions_source);
  }
  add_install_step(o, pkgs + " --index-url " + url, detail);
  add_verify_step(o);
  return o;
}

std::vector<PlanOption> torch_options(const PlanRequest& req, const KnowledgeBase& kb) {
  std::vector<PlanOption> out;
  for (const TorchRelease& r : kb.pytorch.releases) {
    for (const TorchVariant& v : r.variants) out.push_back(evaluate_torch(r, v, req, kb));
  }
  return out;
}

// ---- JAX ----------------------------------------------------------------------------------

/// The newest harvested JAX release that ships this extra and matches the request, preferring
/// one whose Python range holds the user's Python; null when no release row names the extra.
const JaxRelease* jax_release_for(const KnowledgeBase& kb, const std::string& extra, const FrameworkRequest& fr,
                                  const std::optional<Version>& python) {
  const JaxRelease* newest = nullptr;
  const JaxRelease* fits = nullptr;
  for (const JaxRelease& r : kb.jax.releases) {
    if (std::find(r.extras.begin(), r.extras.end(), extra) == r.extras.end()) continue;
    if (fr.spec && !KnowledgeBase::jax_run_overlaps(r.versions, *fr.spec)) continue;
    // A pin to a release the run does not hold (0.12.1.1 beside "<=0.12.1"): not this row's.
    if (const std::optional<Version> exact = exact_pin(fr);
        exact && !KnowledgeBase::in_release_run(r.versions, *exact)) {
      continue;
    }
    newest = &r;  // rows are oldest first
    if (python && r.python.contains(*python)) fits = &r;
  }
  return fits != nullptr ? fits : newest;
}

/// Where the extras of a JAX release before the tables were read.
constexpr const char* kJax0420Metadata =
    "[pypi] jax-0.4.20-py3-none-any.whl METADATA: Provides-Extra cuda11_pip, cuda12_pip, cuda12_local (no cuda12, "
    "no cuda13); jax-0.4.25's is the first with cuda12 (jax-cuda12-plugin ==0.4.25)";

std::vector<PlanOption> jax_options(const PlanRequest& asked, const KnowledgeBase& kb, const FrameworkRequest& fr) {
  // JAX's GPU route from Windows is WSL2's: its Python is the distribution's.
  const PlanRequest req = wsl_request(asked);
  std::vector<PlanOption> out;
  Platform route = req.os == Platform::windows ? Platform::wsl2 : req.os;
  if (req.os == Platform::windows) {
    PlanOption o;
    o.framework = Framework::jax;
    o.route = Platform::windows;
    o.gpu = false;
    o.variant = "cpu";
    o.issues.push_back(PlanIssue{.id = "jax-native-windows-no-gpu",
                                 .fatal = true,
                                 .message = "JAX has no GPU wheels for native Windows (Linux only; WSL2 experimental)",
                                 .source = kb.jax.source});
    o.sources.push_back(kb.jax.source);
    out.push_back(std::move(o));
  }
  std::string pin;
  if (fr.spec) {
    std::string t = std::string(trim(fr.spec->text()));
    pin = (t.find_first_of("<>=!~") == std::string::npos ? "==" : "") + t;
  }
  for (const JaxVariant& v : kb.jax.variants) {
    PlanOption o;
    o.framework = Framework::jax;
    o.route = route;
    o.variant = v.extra;
    o.cuda = v.built_cuda;
    o.cudnn = v.built_cudnn;
    add_unique(o.sources, v.source);
    std::string cudnn_words = "cuDNN " + v.built_cudnn.str() + " (JAX's install guide)";
    std::optional<Version> release;  // the JAX release the plan installs, when one is known
    // The request names only releases newer than (or outside) the tables: nothing of theirs is known.
    bool release_unknown = false;
    if (const JaxRelease* rel = jax_release_for(kb, v.extra, fr, req.python)) {
      // The version pip installs: the one pinned with ==, else the newest of the run the request
      // allows (pinned when it is not simply the newest JAX).
      o.version = rel->versions.highest().value_or(Version());
      if (std::optional<Version> exact = exact_pin(fr); exact && KnowledgeBase::in_release_run(rel->versions, *exact)) {
        o.version = *exact;
      } else if (fr.spec && !fr.spec->contains(o.version)) {
        // The run ends past the request (jax[cuda12]<=0.6 in the run 0.6.0-0.6.2): pip installs
        // the newest harvested release of the run that the request holds, 0.6.0.
        for (const Version& r : builtin_released_versions("jax")) {
          if (KnowledgeBase::in_release_run(rel->versions, r) && fr.spec->contains(r)) o.version = r;
        }
      }
      release = o.version;
      apply_python(o, req, kb, rel->python, rel->source);
      add_unique(o.sources, rel->source);
      // The cuDNN this release's extra installs at least (its plugin's with-cuda floor).
      if (const VersionSpec* floor = kb.jax_cudnn(v, o.version); floor != nullptr && floor->lowest()) {
        o.cudnn = *floor->lowest();
        cudnn_words = "installs cuDNN >= " + o.cudnn->str() + " (its plugin's with-cuda extra)";
      }
      if (!fr.spec && rel != &kb.jax.releases.back()) pin = "==" + o.version.str();
      if (const JaxYanked* y = kb.jax_yanked(o.version)) {
        o.issues.push_back(
            PlanIssue{.id = "jax-yanked",
                      .fatal = false,
                      .message = "JAX " + o.version.str() + " is yanked on PyPI" +
                                 (y->reason.empty() ? "" : " (" + y->reason + ")") +
                                 ": pip installs it only because of the == pin, and warns; pin another release",
                      .source = y->source});
        add_unique(o.sources, y->source);
      }
    } else {
      o.python = req.python ? std::optional<Version>(req.python->truncated(2)) : std::nullopt;
      o.python_range = "not in the knowledge base";
      // Releases the knowledge base knows match the request, and none has this extra's plugin
      // (jax[cuda13]==0.4.30): pip would install jax without a GPU plugin, or fail.
      const std::optional<Version> exact = exact_pin(fr);
      const bool known =
          fr.spec && std::any_of(kb.jax.releases.begin(), kb.jax.releases.end(), [&](const JaxRelease& r) {
            return exact ? KnowledgeBase::in_release_run(r.versions, *exact)
                         : KnowledgeBase::jax_run_overlaps(r.versions, *fr.spec);
          });
      // Only releases before the tables' first: their extras are not ours (0.4.20 has no cuda12).
      const std::optional<Version> first =
          kb.jax.releases.empty() ? std::nullopt : kb.jax.releases.front().versions.lowest();
      const std::optional<Version> top = fr.spec ? fr.spec->highest() : std::nullopt;
      if (first && top && *top <= *first && !fr.spec->contains(*first)) {
        o.issues.push_back(
            PlanIssue{.id = "jax-release-before-tables",
                      .fatal = true,
                      .message = "JAX '" + fr.text + "' is older than the knowledge base's JAX tables (they start at " +
                                 first->str() +
                                 "): the GPU extras of such a release are not known, and are not today's (the tables' "
                                 "cuda12/cuda13 extras with their CUDA, cuDNN and driver; 0.4.20's METADATA has no "
                                 "cuda12 extra at all), so no install command is given; pin jax " +
                                 first->str() + " or newer",
                      .source = kJax0420Metadata});
        // Nothing of today's extras is its: no CUDA, cuDNN, driver or steps to show.
        o.cuda.reset();
        o.cudnn.reset();
        o.sources = {kJax0420Metadata};
        out.push_back(std::move(o));
        continue;
      } else if (known) {
        o.issues.push_back(PlanIssue{
            .id = "jax-extra-not-released",
            .fatal = true,
            .message = "no JAX release matching '" + fr.text + "' has a jax-" + v.extra + "-plugin wheel on PyPI",
            .source = kb.jax.releases.back().source});
      } else if (fr.spec) {
        // A release the harvest has not seen (one PyPI published after it, most often): its Python
        // range, cuDNN floor and plugin architectures are unknown; an older release's rows are not its.
        release_unknown = true;
        const std::optional<Version> last =
            kb.jax.releases.empty() ? std::nullopt : kb.jax.releases.back().versions.highest();
        o.issues.push_back(
            PlanIssue{.id = "jax-release-unknown",
                      .fatal = false,
                      .message = "JAX '" + fr.text + "' is not in the knowledge base" +
                                 (last ? " (its tables end at " + last->str() + ")" : std::string()) +
                                 ": its Python range, the cuDNN its plugin asks for and the architectures its plugin "
                                 "carries are not checked",
                      .source = kb.jax.releases.empty() ? kb.jax.source : kb.jax.releases.back().source,
                      .unverified = true});
      }
    }
    const JaxPlugin* plugin = release ? kb.jax_plugin(v.extra, *release) : nullptr;
    if (plugin != nullptr) {
      o.cuda = plugin->built_cuda;
      add_unique(o.sources, plugin->source);
    }
    o.reasons.push_back("jax[" + v.extra + "]" + (release ? " " + release->str() : std::string()) +
                        ": built with CUDA " + o.cuda->str() + "; " + cudnn_words +
                        "; needs compute capability >= " + v.min_cc.str());
    if (route == Platform::wsl2 && kb.jax.wsl2_experimental) {
      o.issues.push_back(PlanIssue{.id = "jax-wsl2-experimental",
                                   .fatal = false,
                                   .message = "JAX GPU support in WSL2 is experimental",
                                   .source = kb.jax.source});
    }
    const std::string what = "jax[" + v.extra + "]" + (release ? " " + release->str() : std::string());
    if (req.cc && release_unknown) {
      o.coverage = req.cc->truncated(2) < v.min_cc.truncated(2) ? "none" : "unknown";
      if (o.coverage == "none") {
        o.issues.push_back(PlanIssue{.id = "gpu-arch-unsupported",
                                     .fatal = true,
                                     .message = what + " needs compute capability >= " + v.min_cc.str() +
                                                " (JAX's installation guide); this GPU is " + req.cc->str(),
                                     .source = v.source});
      }
    } else if (req.cc) {
      // The plugin's own kernels (xla_cuda_plugin.so): 0.4.30-0.5.3 reach Blackwell only by PTX JIT.
      ArchCoverage c = kb.jax_coverage(v, release, *req.cc);
      const bool unrecorded = c == ArchCoverage::unknown && !kb.is_jetson(req.gpu_name, req.cc);
      if (unrecorded) {
        // A release row without a plugin row (the architecture harvest not run for it yet).
        o.coverage = to_string(c);
        o.issues.push_back(PlanIssue{.id = "gpu-arch-unrecorded",
                                     .fatal = false,
                                     .message = what +
                                                ": its plugin's architecture list is not recorded "
                                                "(no [[plugin]] row), so its kernels for this GPU are not checked",
                                     .source = kb.jax.source,
                                     .unverified = true});
      }
      // JAX's sources name x86_64 and aarch64 wheels, not Jetson (Tegra) boards.
      if (c != ArchCoverage::none && kb.is_jetson(req.gpu_name, req.cc)) c = ArchCoverage::unknown;
      const bool below_floor = req.cc->truncated(2) < v.min_cc.truncated(2);
      if (unrecorded) {
        // said above
      } else if (below_floor && plugin != nullptr &&
                 KnowledgeBase::coverage_by_list(*req.cc, plugin->archs, plugin->ptx) != ArchCoverage::none) {
        // The plugin has kernels for it; JAX's documented floor is what rules it out.
        const std::string sm = "sm_" + std::to_string(req.cc->major()) + std::to_string(req.cc->minor());
        o.coverage = to_string(c);
        o.issues.push_back(PlanIssue{.id = "gpu-arch-unsupported",
                                     .fatal = true,
                                     .message = what + " supports compute capability " + v.min_cc.str() +
                                                " and newer (JAX's installation guide); this GPU is " + req.cc->str() +
                                                ". Its plugin still carries " + sm + " kernels, but nothing below " +
                                                v.min_cc.str() + " is supported or tested",
                                     .source = v.source});
      } else {
        apply_coverage(o, req, kb, c, what, plugin != nullptr ? plugin->source : v.source, false);
      }
    } else {
      coverage_unknown(o, req, what);
    }
    apply_driver(o, req, kb, *o.cuda, route == Platform::linux ? std::optional<Version>(v.driver_linux) : std::nullopt,
                 v.source);
    o.install_spec = "jax[" + v.extra + "]" + pin;
    if (!fr.spec) pin.clear();
    add_wsl_step(o, req, kb);
    add_driver_step(o, req, kb);
    add_env_step(o, req, false, {});
    add_install_step(o, "-U \"" + o.install_spec + "\"",
                     "The jax[" + v.extra +
                         "] extra brings CUDA and cuDNN as pip wheels. Do not let LD_LIBRARY_PATH "
                         "override them.");
    add_verify_step(o);
    out.push_back(std::move(o));
  }
  return out;
}

// ---- Ranking ------------------------------------------------------------------------------

bool matches(const PlanOption& o, const SeriesRequest& sr, const std::optional<std::string>& variant) {
  if (variant && o.variant != *variant) return false;
  return sr.asks_for(o.version);
}

/// The release a request names (torch==2.5.1, tensorflow>=2.15.1,<2.16): the options of its series
/// install that release, not the series' newest; a pin to one PyPI never had (by the harvested
/// list) is blocked.
void pin_requested_release(std::vector<PlanOption>& all, const SeriesRequest& sr, const KnowledgeBase& kb) {
  const std::string package = sr.fr->name == Framework::pytorch ? "torch" : "tensorflow";
  const std::string harvest =
      "[artefact] data/harvest/artefacts.toml (scripts/harvest-kb.py: the releases whose "
      "wheels were read), harvested " +
      builtin_kb_harvest_date();
  for (PlanOption& o : all) {
    if (!o.gpu || o.install_spec.empty()) continue;
    const std::optional<Version> target = sr.target(o.version);
    if (!target) continue;
    const std::string old_req = o.install_spec.substr(0, o.install_spec.find(' '));
    const size_t op = old_req.find_first_of("<>=!~");
    if (op == std::string::npos) continue;
    const std::string new_req = old_req.substr(0, op) + "==" + target->str();
    auto repin = [&](std::string& text) {
      for (size_t at = text.find(old_req); at != std::string::npos; at = text.find(old_req, at + new_req.size())) {
        text.replace(at, old_req.size(), new_req);
      }
    };
    repin(o.install_spec);
    for (PlanStep& step : o.steps) {
      for (PlanCommand& c : step.commands) repin(c.line);
    }
    std::vector<std::string> of_series;
    bool published = false;
    for (const Version& r : sr.of_series(o.version)) {
      of_series.push_back(r.str());
      published = published || r == *target;  // PEP 440: 2.5.1.0 is 2.5.1
    }
    if (!target->pre().empty() || of_series.empty()) {
      o.issues.push_back(PlanIssue{
          .id = "release-list-unrecorded",
          .fatal = false,
          .message =
              "whether " + package + " " + target->str() +
              " is a release on PyPI is not checked (the harvest recorded " +
              (target->pre().empty() ? "no release of " + series_text(*target) : std::string("no pre-releases")) + ")",
          .source = harvest,
          .unverified = true});
    } else if (!published) {
      o.issues.push_back(PlanIssue{.id = "release-not-published",
                                   .fatal = true,
                                   .message = package + " " + target->str() + " is not a release on PyPI (" +
                                              series_text(*target) + "'s: " + join(of_series, ", ") + ")",
                                   .source = harvest});
    }
    if (o.variant == "and-cuda") {
      const TfAndCuda* ac = kb.tf_and_cuda(o.version);
      if (ac != nullptr && !ac->recommended.empty() && ac->recommended != target->str()) {
        o.issues.push_back(PlanIssue{.id = "and-cuda-release-not-recommended",
                                     .fatal = false,
                                     .message = "tensorflow[and-cuda]==" + target->str() + " is not the release " +
                                                "the knowledge base recommends for " + series_text(*target) + " (" +
                                                ac->recommended + ")" + (ac->note.empty() ? "" : ": " + ac->note),
                                     .source = ac->source,
                                     .unverified = true});
      }
    }
  }
}

int soft_issue_count(const PlanOption& o) {
  int n = 0;
  for (const PlanIssue& i : o.issues) n += i.fatal ? 0 : 1;
  return n;
}

bool has_issue(const PlanOption& o, std::string_view id) {
  return std::any_of(o.issues.begin(), o.issues.end(), [&](const PlanIssue& i) { return i.id == id; });
}

/// Better first: runs as it is (on the driver the user gave, in their Python, with kernels for
/// the GPU), works without changing Python, GPU kernels certain, newest release, the user's own
/// OS, no driver update, stable and newer CUDA, fewer caveats.
bool better(const PlanOption& a, const PlanOption& b, Platform os) {
  auto key = [&](const PlanOption& o) {
    // Verified first; then assumptions (unrecorded list, unsourced floor), PTX known to be
    // shipped or an unrecorded list on a GPU that builds drop early (K40), PTX that may not exist,
    // and last an assumption its recorded neighbour contradicts.
    // A list assumed from the toolkit's alone (2.7 cu118 on an A100, whose cu126 list was read)
    // withholds the ✓ but not the rank: coverage_assumed says when no sibling's list backs it.
    const bool other_doubt = std::any_of(o.issues.begin(), o.issues.end(), [](const PlanIssue& i) {
      return i.unverified && i.id != "gpu-arch-list-assumed";
    });
    int arch_risk = has_issue(o, "gpu-arch-doubtful")                                       ? 4
                    : has_issue(o, "gpu-arch-unverified")                                   ? 3
                    : has_issue(o, "gpu-arch-ptx-only") || has_issue(o, "gpu-arch-assumed") ? 2
                    : other_doubt || o.coverage_assumed                                     ? 1
                                                                                            : 0;
    // An option that runs as it is on the driver the user gave, in their Python, with kernels
    // for the GPU (or assumed from the toolkit's list) comes first: a data-centre node usually
    // cannot change its driver. One that needs a new Python or runs only through PTX JIT is
    // worse than a driver update, and competes with the options that need one. Without
    // --driver no option needs an update, and this changes nothing.
    const bool as_is = !has_issue(o, "driver-too-old") && !o.python_change && arch_risk <= 1;
    return std::make_tuple(!as_is, o.python_change, arch_risk);
  };
  if (key(a) != key(b)) return key(a) < key(b);
  if (a.version != b.version) return a.version > b.version;
  if ((a.route == os) != (b.route == os)) return a.route == os;
  const bool da = has_issue(a, "driver-too-old"), db = has_issue(b, "driver-too-old");
  if (da != db) return !da;
  bool ea = has_issue(a, "variant-experimental"), eb = has_issue(b, "variant-experimental");
  if (ea != eb) return !ea;
  // JAX: the project's preferred extra first (cuda13), then by CUDA.
  if (a.cuda && b.cuda && *a.cuda != *b.cuda) return *a.cuda > *b.cuda;
  return soft_issue_count(a) < soft_issue_count(b);
}

bool same_choice(const PlanOption& a, const PlanOption& b) {
  return a.version == b.version && a.route == b.route && a.variant == b.variant;
}

/// "cuda12, CPU" -> {"cuda12", "cpu"}: each extra a PEP 508 name, normalised as pip compares them
/// (PEP 685: lower case, each run of '-', '_', '.' one '-'); nullopt for an empty or odd one.
std::optional<std::vector<std::string>> parse_extras(std::string_view list) {
  std::vector<std::string> out;
  for (std::string_view part : split(list, ',')) {
    part = trim(part);
    if (part.empty() || part.size() > 64) return std::nullopt;
    std::string name;
    for (char c : part) {
      const bool sep = c == '-' || c == '_' || c == '.';
      if (!sep && !is_ascii_digit(c) && !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return std::nullopt;
      if (!sep)
        name += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
      else if (!name.empty() && name.back() != '-')
        name += '-';
    }
    if (name.empty() || name.back() == '-') return std::nullopt;
    if (std::find(out.begin(), out.end(), name) == out.end()) out.push_back(std::move(name));
    if (out.size() > 16) return std::nullopt;  // pip has no use for more; a note each would flood
  }
  if (out.empty()) return std::nullopt;
  return out;
}

/// "cu121" of "==2.5.1+cu121": PEP 440's local label, lower case, '-' and '_' as '.'; nullopt
/// unless the text is one == pin and the label is alphanumeric segments.
std::optional<std::string> local_label_of(std::string_view pin, size_t plus) {
  if (!pin.starts_with("==") || pin.starts_with("===") || pin.find(',') != std::string_view::npos) return std::nullopt;
  std::string label;
  for (char c : trim(pin.substr(plus + 1))) {
    if (c == '-' || c == '_' || c == '.') {
      if (label.empty() || label.back() == '.') return std::nullopt;
      label += '.';
    } else if (is_ascii_digit(c) || (c >= 'a' && c <= 'z')) {
      label += c;
    } else if (c >= 'A' && c <= 'Z') {
      label += static_cast<char>(c - 'A' + 'a');
    } else {
      return std::nullopt;
    }
  }
  if (label.empty() || label.back() == '.' || label.size() > 64) return std::nullopt;
  return label;
}

/// What the request's extras ask of the plan: the wheel variant one picks (the plan keeps to it),
/// and what is said about the others.
struct ExtrasChoice {
  std::optional<std::string> variant;
  std::vector<std::string> notes;
  bool two_variants = false;  ///< the request named two CUDA extras: no variant is kept to
};

/// The build a local label names: PyTorch's CUDA tag or cpu; an old jaxlib's cudaNN.cudnnMM.
void choose_local_label(const FrameworkRequest& fr, const std::vector<PlanOption>& all, const SeriesRequest& sr,
                        ExtrasChoice& c) {
  const std::string& label = fr.local_label;
  const std::string pinned = fr.spec ? std::string(trim(fr.spec->text())) : std::string();
  if (fr.name == Framework::pytorch) {
    c.variant = label;  // matches nothing unless a build has the tag: never another build instead
    if (label == "cpu") {
      c.notes.push_back("torch" + pinned + "+cpu is PyTorch's CPU-only build: it never uses the GPU");
      return;
    }
    std::vector<std::string> tags;
    for (const PlanOption& o : all) {
      if (o.variant == label && sr.asks_for(o.version)) return;
      if (sr.asks_for(o.version) && o.variant != "cpu" &&
          std::find(tags.begin(), tags.end(), o.variant) == tags.end()) {
        tags.push_back(o.variant);
      }
    }
    c.notes.push_back("PyTorch " + (pinned.empty() ? std::string("as asked") : pinned.substr(2)) + " has no " + label +
                      " build in the knowledge base" +
                      (label.starts_with("rocm") ? std::string(" (ROCm builds are for AMD GPUs)")
                       : tags.empty()            ? std::string()
                                                 : " (its builds: " + join(tags, ", ") + ")"));
    return;
  }
  if (fr.name == Framework::jax) {
    // jaxlib 0.4.x on JAX's own index: "+cuda12.cudnn89".
    std::string major = label.substr(0, label.find('.'));
    if (std::any_of(all.begin(), all.end(), [&](const PlanOption& o) { return o.variant == major; })) {
      c.variant = major;
      if (major.size() < label.size()) {
        c.notes.push_back("jaxlib" + pinned + "+" + label + ": planned as jax[" + major + "]; the rest of the label (" +
                          label.substr(major.size() + 1) + ", the cuDNN that jaxlib was built for) is not checked");
      }
      return;
    }
  }
  c.notes.push_back(to_string(fr.name) + std::string(pinned) + "+" + label + ": the build label is not planned");
}

ExtrasChoice choose_extras(const FrameworkRequest& fr, const std::vector<PlanOption>& all, const KnowledgeBase& kb,
                           const SeriesRequest& sr) {
  ExtrasChoice c;
  if (!fr.local_label.empty()) choose_local_label(fr, all, sr, c);
  const std::string name = to_string(fr.name);
  for (const std::string& e : fr.extras) {
    const std::string asked = (fr.name == Framework::pytorch ? "torch" : name) + "[" + e + "]";
    if (fr.name == Framework::pytorch) {
      // torch's extras add Python packages; which CUDA build pip installs is the index URL's choice.
      c.notes.push_back(asked + ": torch's extras do not choose its CUDA build; the index URL in the steps does");
      continue;
    }
    const std::optional<std::string> variant = extra_variant(fr.name, e, kb);
    if (fr.name == Framework::jax) {
      if (!variant) {
        c.notes.push_back(asked + " is not planned: the plan knows jax[cuda13], jax[cuda12] and jax[cpu]");
      } else if (*variant == "cpu" || *variant == "tpu") {
        c.variant = variant;  // no option has it: nothing matches, and the plan says why
        c.notes.push_back(asked +
                          " installs JAX without NVIDIA GPU support; its GPU extras are jax[cuda13] and "
                          "jax[cuda12]");
      } else if (*variant != e) {
        c.variant = variant;  // "cuda13-local"
        c.notes.push_back(asked + " (CUDA and cuDNN from the system) is not planned: the plan checks jax[" +
                          *c.variant + "], which brings them as pip wheels");
      } else if (c.variant && *c.variant != e) {
        // jax[cuda12,cuda13]: both plugins' requirements; the plan keeps to neither.
        c.notes.push_back(name + "[" + *c.variant + "," + e +
                          "] names two CUDA extras: the plan keeps to neither; name one");
        c.variant.reset();
        c.two_variants = true;
      } else if (!c.two_variants) {
        c.variant = e;
      }
      continue;
    }
    // TensorFlow: and-cuda is the pip-CUDA variant of 2.14 and later.
    if (!variant) {
      c.notes.push_back(asked + " is not planned: the plan knows tensorflow[and-cuda]");
      continue;
    }
    const bool any = std::any_of(
        all.begin(), all.end(), [&](const PlanOption& o) { return o.variant == "and-cuda" && sr.asks_for(o.version); });
    if (any) {
      c.variant = e;
    } else {
      std::optional<Version> first;
      for (const TfAndCuda& a : kb.tensorflow.and_cuda) {
        std::optional<Version> low = a.versions.lowest();
        if (low && (!first || *low < *first)) first = low;
      }
      c.notes.push_back("TensorFlow " + (fr.spec ? std::string(trim(fr.spec->text())) : std::string("as asked")) +
                        " has no and-cuda extra" + (first ? " (it came with " + first->str() + ")" : std::string()) +
                        ": pip warns and installs TensorFlow without it; the plan below is the release's own "
                        "GPU recipe");
    }
  }
  return c;
}

FrameworkPlan plan_framework(const FrameworkRequest& fr, const PlanRequest& req, const KnowledgeBase& kb) {
  FrameworkPlan fp;
  fp.request = fr;
  std::vector<PlanOption> all;
  if (fr.name == Framework::tensorflow)
    all = tf_options(req, kb);
  else if (fr.name == Framework::pytorch)
    all = torch_options(req, kb);
  else
    all = jax_options(req, kb, fr);
  if (fr.name == Framework::jax) {
    fp.notes.push_back(kb.jax.releases.empty()
                           ? "JAX versions and their Python range are not in the knowledge base; the requirements "
                             "are those of JAX's install guide. " +
                                 kb.jax.note
                           : kb.jax.note);
  }

  const SeriesRequest sr = series_request(fr);
  if (fr.name != Framework::jax) pin_requested_release(all, sr, kb);
  const ExtrasChoice extras = choose_extras(fr, all, kb, sr);
  fp.notes.insert(fp.notes.end(), extras.notes.begin(), extras.notes.end());

  std::vector<PlanOption> good, good_matching;
  for (PlanOption& o : all) {
    if (o.fatal()) continue;
    (matches(o, sr, extras.variant) ? good_matching : good).push_back(o);
  }
  auto sorter = [&](const PlanOption& a, const PlanOption& b) { return better(a, b, req.os); };
  std::stable_sort(good_matching.begin(), good_matching.end(), sorter);
  std::vector<PlanOption> every_good = good_matching;
  every_good.insert(every_good.end(), good.begin(), good.end());
  std::stable_sort(every_good.begin(), every_good.end(), sorter);

  if (!good_matching.empty()) fp.best = good_matching.front();

  // Alternatives: the best on each other route, the newest release on each route (if newer
  // than the best), and the best without a Python change.
  auto push_alt = [&](const PlanOption& o) {
    if (fp.best && same_choice(o, *fp.best)) return;
    for (const PlanOption& a : fp.alternatives) {
      if (same_choice(a, o)) return;
    }
    if (fp.alternatives.size() < 4) fp.alternatives.push_back(o);
  };
  std::set<int> routes_seen;
  for (const PlanOption& o : every_good) {
    // per route: the best option (any version)
    if (routes_seen.insert(static_cast<int>(o.route)).second) push_alt(o);
  }
  for (const PlanOption& o : good_matching) {
    if (fp.best && o.route != fp.best->route) {
      push_alt(o);
      break;
    }
  }
  if (fp.best && fp.best->python_change) {
    for (const PlanOption& o : every_good) {
      if (!o.python_change) {
        push_alt(o);
        break;
      }
    }
  }
  if (fp.best && req.driver && !has_issue(*fp.best, "driver-too-old")) {
    // The newest release that needs a driver update, for a user who can update it.
    for (const PlanOption& o : good_matching) {
      if (has_issue(o, "driver-too-old") && o.version > fp.best->version) {
        push_alt(o);
        break;
      }
    }
  }
  if (fp.best && has_issue(*fp.best, "driver-too-old")) {
    // What works with the driver already installed.
    for (const PlanOption& o : every_good) {
      if (!has_issue(o, "driver-too-old")) {
        push_alt(o);
        break;
      }
    }
  }
  if (fp.best) {
    // Another wheel variant of the same release (PyTorch cu126 vs cu128, JAX cuda12).
    for (const PlanOption& o : good_matching) {
      if (o.version == fp.best->version && o.route == fp.best->route && o.variant != fp.best->variant) {
        push_alt(o);
        break;
      }
    }
  }

  // Rejected: what was asked for (or, without a version, the newest of each route/variant)
  // that cannot work, with its blockers.
  std::set<std::string> seen;
  for (const PlanOption& o : all) {
    if (!o.fatal() || !matches(o, sr, extras.variant)) continue;
    std::string key = std::to_string(static_cast<int>(o.route)) + "/" + o.variant;
    if (!fr.spec && !seen.insert(key).second) continue;
    if (fp.rejected.size() >= 4) break;
    // Newest first: tables are newest-first, so the first of each key is the newest.
    fp.rejected.push_back(o);
  }
  if (!fp.best && fp.rejected.empty() && fr.spec && fr.name != Framework::jax) {
    // The range holds no series of the tables at all (torch==1.13.1): say what they hold.
    std::optional<Version> low, high;
    bool any_series = false;
    for (const PlanOption& o : all) {
      any_series = any_series || sr.asks_for(o.version);
      if (!o.gpu) continue;
      if (!low || o.version < *low) low = o.version;
      if (!high || o.version > *high) high = o.version;
    }
    if (!any_series && low && high) {
      fp.notes.push_back("No release in '" + fr.text + "' is in the knowledge base: the knowledge base holds " +
                         display_name(fr.name) + " " + series_text(*low) + " to " + series_text(*high));
    }
  }
  if (!fp.best) {
    // Only what is shown: an extra without a GPU variant (jax[cpu]) has no blocked option to list.
    const std::string see = !fp.rejected.empty() && !fp.alternatives.empty()
                                ? "; see the blockers below and the alternatives."
                            : !fp.rejected.empty()     ? "; see the blockers below."
                            : !fp.alternatives.empty() ? "; see the alternatives."
                                                       : ".";
    fp.notes.push_back("Nothing that matches '" + fr.text + "' can use the GPU on this machine" + see);
  }
  return fp;
}

}  // namespace

Result<FrameworkRequest> parse_framework_request(std::string_view text) {
  FrameworkRequest fr;
  fr.text = std::string(trim(text));
  std::string_view t = trim(text);
  size_t cut = t.find_first_of("<>=!~ [");
  std::string name = to_lower(t.substr(0, cut));
  // pip extras ("tensorflow[and-cuda]==2.19", "jax[cuda12]"): part of what was asked; the plan
  // keeps to the variant an extra picks (plan_framework).
  if (cut != std::string_view::npos && t[cut] == '[') {
    size_t close = t.find(']', cut);
    if (close == std::string_view::npos) {
      return Error{ErrorKind::invalid_data,
                   "unclosed '[' in '" + printable(t, 60) + "' (e.g. tensorflow[and-cuda]==2.15)", "--framework", 0};
    }
    auto extras = parse_extras(t.substr(cut + 1, close - cut - 1));
    if (!extras) {
      return Error{ErrorKind::invalid_data,
                   "malformed extras in '" + printable(t, 60) + "' (e.g. jax[cuda12], tensorflow[and-cuda])",
                   "--framework", 0};
    }
    fr.extras = std::move(*extras);
    t = t.substr(close + 1);
    cut = t.empty() ? std::string_view::npos : 0;
  }
  if (name == "torch" || name == "pytorch")
    fr.name = Framework::pytorch;
  else if (name == "tensorflow" || name == "tf" || name == "tensorflow-gpu")
    fr.name = Framework::tensorflow;
  else if (name == "jax" || name == "jaxlib")
    fr.name = Framework::jax;
  else {
    return Error{
        ErrorKind::invalid_data,
        "unknown framework '" + printable(name, 40) + "' (use tensorflow, pytorch or jax, e.g. tensorflow==2.15)",
        "--framework", 0};
  }
  if (cut != std::string_view::npos) {
    std::string_view rest = trim(t.substr(cut));
    // A local version label names the build (torch==2.5.1+cu121, jaxlib==0.4.30+cuda12.cudnn89);
    // pip takes one only in an == pin.
    if (size_t plus = rest.find('+'); plus != std::string_view::npos) {
      auto label = local_label_of(rest, plus);
      if (!label) {
        return Error{
            ErrorKind::invalid_data,
            "a local version label goes only with one == pin: '" + printable(rest, 40) + "' (e.g. torch==2.5.1+cu121)",
            "--framework", 0};
      }
      fr.local_label = std::move(*label);
      rest = trim(rest.substr(0, plus));
    }
    if (!rest.empty()) {
      auto spec = VersionSpec::parse_requirement(rest);
      if (!spec) {
        return Error{ErrorKind::invalid_data,
                     "malformed version range '" + printable(rest, 40) + "' (examples: ==2.15, >=2.8, <2.11)",
                     "--framework", 0};
      }
      fr.spec = *spec;
    }
  }
  return fr;
}

Plan resolve(const PlanRequest& request, const KnowledgeBase& kb) {
  Plan plan;
  plan.request = request;
  PlanRequest req = request;
  if (!req.gpu_name.empty()) {
    GpuMatch m = kb.find_gpu(req.gpu_kb_name.empty() ? req.gpu_name : req.gpu_kb_name);
    if (m.model != nullptr) {
      plan.gpu_model = m.model->name;
      plan.gpu_arch = m.model->arch;
      if (!req.cc) req.cc = m.model->cc;
    } else {
      plan.gpu_suggestions = m.suggestions;
      plan.notes.push_back(PlanIssue{
          .id = "gpu-unknown-model",
          .fatal = false,
          .message =
              "GPU '" + printable(req.gpu_name, 80) +
              (m.ambiguous.empty() ? "' is not in the knowledge base; did you mean: " + join(m.suggestions, ", ") + "?"
                                   : "' is ambiguous (" + join(m.ambiguous, ", ") + "): name one")});
    }
  } else if (!req.cc) {
    plan.notes.push_back(
        PlanIssue{.id = "gpu-not-given",
                  .fatal = false,
                  .message = req.from_facts
                                 ? "no NVIDIA GPU found (name it with --gpu MODEL): architecture support is not checked"
                                 : "no GPU given (--gpu MODEL): architecture support is not checked"});
  }
  if (req.cc && plan.gpu_arch.empty()) {
    if (const ArchGeneration* g = kb.generation_of(*req.cc)) plan.gpu_arch = g->name;
  }
  plan.cc = req.cc;
  plan.request.cc = req.cc;
  if (!req.driver) {
    plan.notes.push_back(
        PlanIssue{.id = "driver-not-given",
                  .fatal = false,
                  .message = req.from_facts ? "no NVIDIA driver found: the plan states the minimum to install"
                                            : "no driver version given (--driver VER): the plan states the minimum"});
  }
  std::vector<FrameworkRequest> frs = req.frameworks;
  if (frs.empty()) {
    for (Framework f : {Framework::pytorch, Framework::tensorflow, Framework::jax}) {
      frs.push_back(FrameworkRequest{f, std::nullopt, {}, {}, to_string(f)});
    }
  }
  for (const FrameworkRequest& fr : frs) plan.frameworks.push_back(plan_framework(fr, req, kb));
  return plan;
}

PlanRequest request_from_facts(const Facts& facts) {
  PlanRequest req;
  req.from_facts = true;
  req.os = facts.platform;
  for (const GpuFacts& g : facts.gpus) {
    if (g.name.empty() && !g.cc_major) continue;
    req.gpu_name = g.name;
    req.gpu_kb_name = g.kb_name;
    req.gpu_pci_device_id = g.pci_device_id;
    // From NVML, or from the knowledge base when the facts were annotated (kb/annotate_facts.hpp).
    if (g.cc_major && g.cc_minor) req.cc = Version::of({*g.cc_major, *g.cc_minor});
    break;
  }
  req.driver = facts.driver.version;
  const PythonEnvFacts* env = nullptr;
  for (const PythonEnvFacts& e : facts.python_envs) {
    if (!e.python_version) continue;
    if (env == nullptr || (!e.frameworks.empty() && env->frameworks.empty())) env = &e;
  }
  if (env != nullptr) req.python = env->python_version;
  std::set<Framework> names;
  for (const PythonEnvFacts& e : facts.python_envs) {
    for (const FrameworkFacts& f : e.frameworks) {
      auto fr = parse_framework_request(f.name);
      if (fr && names.insert(fr->name).second) req.frameworks.push_back(*fr);
    }
  }
  return req;
}

}  // namespace gpudoctor
