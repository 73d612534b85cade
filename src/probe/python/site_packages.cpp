#include "probe/python/site_packages.hpp"

#include <algorithm>
#include <charconv>
#include <map>

#include "core/text.hpp"
#include "probe/cudnn_cuda_major.hpp"
#include "probe/python/dist_info.hpp"
#include "probe/python/python_literal.hpp"
#include "probe/python/tf_build_info.hpp"
#include "probe/python/tfp_import_checks.hpp"
#include "probe/python/torch_version.hpp"
#include "probe/version_files.hpp"

namespace gpudoctor {
namespace {

/// Distributions that install the `tensorflow` package. tensorflow-intel (Windows),
/// tensorflow-cpu-aws (Linux aarch64) and tensorflow-macos carry the code when plain
/// `tensorflow` is only a meta-package depending on them.
const char* const kTensorflowDists[] = {
    "tensorflow",         "tensorflow-cpu",   "tensorflow-gpu", "tensorflow-intel", "tensorflow-cpu-aws",
    "tensorflow-aarch64", "tensorflow-macos", "tf-nightly",     "tf-nightly-cpu",   "tf-nightly-gpu",
    "tf-nightly-intel",   "intel-tensorflow", "tensorflow-rocm"};
const char* const kTensorflowImplementations[] = {"tensorflow-intel", "tensorflow-cpu-aws", "tensorflow-macos",
                                                  "tf-nightly-intel"};

bool one_of(const std::string& name, const auto& list) {
  return std::any_of(std::begin(list), std::end(list), [&](const char* n) { return name == n; });
}

}  // namespace

bool is_tensorflow_dist(std::string_view normalized_name) {
  return std::any_of(std::begin(kTensorflowDists), std::end(kTensorflowDists),
                     [&](const char* n) { return normalized_name == n; });
}

namespace {

struct Dist {
  DistDirName dir;
  std::string path;  ///< the .dist-info directory
};

/// Version from the dist-info directory name, cross-checked against METADATA.
Version dist_version(const SystemView& system, const Dist& d, FrameworkFacts& fw) {
  auto parsed = Version::parse(d.dir.version);
  auto text = system.read_file(system.join(d.path, d.dir.kind == "egg-info" ? "PKG-INFO" : "METADATA"), 64 * 1024);
  if (text) {
    DistMetadata md = parse_dist_metadata(*text);
    for (auto& p : md.problems) fw.problems.push_back(p + " (" + d.path + ")");
    for (const auto& requirement : md.requires_dist) {
      auto req = parse_requirement(requirement);
      if (req && req->name.starts_with("nvidia-") && fw.nvidia_requires.size() < 64) {
        fw.nvidia_requires.push_back(std::move(*req));
      } else if (req && req->name == "numpy" && fw.numpy_requires.size() < 8) {
        fw.numpy_requires.push_back(std::move(*req));
      } else if (req && (req->name == "keras" || req->name == "keras-nightly") && fw.keras_requires.size() < 4) {
        fw.keras_requires.push_back(std::move(*req));
      }
    }
    if (!md.version.empty()) {
      auto from_md = Version::parse(md.version);
      if (!parsed && from_md) {
        parsed = from_md;
      } else if (parsed && from_md && (*parsed != *from_md || parsed->local() != from_md->local())) {
        fw.conflicts.push_back("METADATA says version " + md.version + " but the directory is " +
                               printable(d.dir.version, 60));
      } else if (!from_md) {
        fw.problems.push_back("METADATA Version is not a version: " + printable(md.version, 60));
      }
    }
  } else if (text.error().kind != ErrorKind::not_found) {
    fw.problems.push_back("cannot read METADATA in " + d.path + ": " + error_text(text.error()));
  }
  if (!parsed) {
    fw.problems.push_back("no readable version for " + d.dir.name + " (directory name " + printable(d.dir.version, 60) +
                          ")");
    return Version{};
  }
  return *parsed;
}

/// From 2.22 (2.22.0rc0, tf-nightly 2.23) build_info.py keeps only is_cuda_build; the wheel still
/// carries the CUDA and cuDNN headers it was built with: cuda.h's CUDA_VERSION and
/// cudnn_version.h's CUDNN_MAJOR/MINOR/PATCHLEVEL (12050 and 9.10.0 in 2.22.0rc0; 12050 and 9.3.0
/// in 2.21.0, whose build_info says 12.5.1 and 9). Fills what build_info left out, and the minor
/// of a cuDNN it gives as a major alone (TensorFlow refuses an older minor of its major).
void bundled_header_versions(const SystemView& system, const std::string& site, FrameworkFacts& fw,
                             std::vector<std::string>& notes) {
  std::string gpus = system.join(system.join(system.join(site, "tensorflow"), "include"), "third_party");
  gpus = system.join(gpus, "gpus");
  // The header's head only: CUDA_VERSION is near the top of the 1 MB cuda.h (byte 13664 in 2.22.0rc0's).
  const auto fill = [&](std::optional<Version>& field, const char* component, const char* header,
                        std::optional<Version> (*parse)(std::string_view)) {
    if (field && field->parts().size() >= 2) return;
    const std::string h = system.join(system.join(system.join(gpus, component), "include"), header);
    auto text = system.read_head(h, 256 * 1024);
    if (!text) return;
    auto v = parse(*text);
    if (!v || (field && field->major() != v->major())) return;  // another major than build_info's: not this build's
    field = v;
    notes.push_back(std::string(component == std::string_view("cuda") ? "CUDA " : "cuDNN ") + v->str() + " from " + h);
  };
  fill(fw.cuda_version, "cuda", "cuda.h", parse_cuda_h);
  fill(fw.cudnn_version, "cudnn", "cudnn_version.h", parse_cudnn_header);
}

/// Without build_info's versions or the headers (an image that dropped tensorflow/include), the
/// [and-cuda] extra of its METADATA still says which CUDA and cuDNN it needs: 2.22.0rc0 requires
/// nvidia-cuda-runtime-cu12>=12.5.82 and nvidia-cudnn-cu12>=9.10.2.21.
void and_cuda_versions(FrameworkFacts& fw, const std::string& metadata, std::vector<std::string>& notes) {
  for (const DistRequirement& r : fw.nvidia_requires) {
    if (!contains(r.marker, "and-cuda")) continue;
    auto bound = specifier_bound(r.specifier, ">=");
    if (!bound) bound = specifier_bound(r.specifier, "~=");  // a compatible release: ~=9.0 is >=9.0,<10
    auto floor = bound ? Version::parse(*bound) : std::nullopt;
    auto wheel = parse_nvidia_wheel_name(r.name);
    if (!floor || !wheel) continue;
    if (!fw.cuda_version && wheel->library == "cudart" &&
        wheel->cuda_major.value_or(floor->major()) == floor->major()) {
      fw.cuda_version = floor->truncated(2);
      notes.push_back("CUDA " + fw.cuda_version->str() + " from " + metadata + " (" + r.name + r.specifier + ")");
    } else if (!fw.cudnn_version && wheel->library == "cudnn") {
      fw.cudnn_version = floor;
      notes.push_back("cuDNN " + floor->str() + " from " + metadata + " (" + r.name + r.specifier + ")");
    }
  }
}

/// `metadata`: its METADATA, for the [and-cuda] requirements.
void fill_tensorflow(const SystemView& system, const std::string& site, const std::string& metadata,
                     FrameworkFacts& fw) {
  std::string path = system.join(site, system.is_windows() ? "tensorflow\\python\\platform\\build_info.py"
                                                           : "tensorflow/python/platform/build_info.py");
  auto text = system.read_file(path);
  if (!text) {
    if (text.error().kind == ErrorKind::not_found) {
      fw.problems.push_back(
          "tensorflow/python/platform/build_info.py is missing: the package "
          "files are incomplete or were removed");
    } else {
      fw.problems.push_back("cannot read " + path + ": " + error_text(text.error()));
    }
    if (contains(fw.package, "-cpu")) fw.variant = "cpu";
    return;
  }
  TfBuildInfo info = parse_tf_build_info(*text);
  fw.evidence = path;
  for (auto& p : info.problems) fw.problems.push_back("build_info.py: " + p);
  fw.cuda_build = info.is_cuda_build;
  if (!info.cuda_version.empty()) {
    auto v = Version::parse(info.cuda_version);
    if (v) {
      fw.cuda_version = v;
    } else {
      fw.problems.push_back("build_info.py: cuda_version is not a version: " + printable(info.cuda_version, 40));
    }
  }
  if (!info.cudnn_version.empty()) {
    auto v = Version::parse(info.cudnn_version);
    if (v) {
      fw.cudnn_version = v;
    } else {
      fw.problems.push_back("build_info.py: cudnn_version is not a version: " + printable(info.cudnn_version, 40));
    }
  }
  if (info.is_cuda_build.value_or(false) &&
      (!fw.cuda_version || !fw.cudnn_version || fw.cudnn_version->parts().size() < 2)) {
    std::vector<std::string> notes;
    bundled_header_versions(system, site, fw, notes);
    if (!fw.cuda_version || !fw.cudnn_version) and_cuda_versions(fw, metadata, notes);
    for (const std::string& note : notes) fw.evidence += "; " + note;
  }
  fw.compute_capabilities = info.compute_capabilities;
  if (info.is_rocm_build.value_or(false)) {
    fw.variant = "rocm";
  } else if (info.is_cuda_build.value_or(false)) {
    fw.variant = fw.cuda_version ? "cuda" + std::to_string(fw.cuda_version->major()) : "cuda";
  } else if (info.is_cuda_build.has_value()) {
    fw.variant = "cpu";
  }
}

void fill_torch(const SystemView& system, const std::string& site, FrameworkFacts& fw) {
  std::string local = fw.version.local();
  std::string path = system.join(site, system.is_windows() ? "torch\\version.py" : "torch/version.py");
  auto text = system.read_file(path);
  if (text) {
    TorchVersionInfo info = parse_torch_version(*text);
    fw.evidence = path;
    for (auto& p : info.problems) fw.problems.push_back("torch/version.py: " + p);
    if (!info.version.empty()) {
      auto v = Version::parse(info.version);
      // PyPI's default wheels are named without a local tag ("torch-2.4.0.dist-info") while
      // version.py says "2.4.0+cu121"; only a real difference means mixed installs.
      bool local_differs = v && !v->local().empty() && !fw.version.local().empty() && v->local() != fw.version.local();
      if (v && (*v != fw.version || local_differs) && !fw.version.parts().empty()) {
        fw.conflicts.push_back("torch/version.py says " + printable(info.version, 40) +
                               " but the installed distribution is " + fw.version.str() +
                               ": files from two installs are mixed");
      }
      if (v && fw.version.parts().empty()) fw.version = *v;
      if (v && local.empty()) local = v->local();
    }
    if (info.has_cuda_field) {
      fw.cuda_build = info.cuda.has_value();
      if (info.cuda) {
        if (auto v = Version::parse(*info.cuda)) {
          fw.cuda_version = v;
        } else {
          fw.problems.push_back("torch/version.py: cuda is not a version: " + printable(*info.cuda, 40));
        }
      }
    }
    if (fw.cuda_version) {
      fw.variant = "cu" + std::to_string(fw.cuda_version->major()) + std::to_string(fw.cuda_version->minor());
    } else if (info.hip) {
      auto v = Version::parse(*info.hip);
      fw.variant = v ? "rocm" + std::to_string(v->major()) + "." + std::to_string(v->minor()) : "rocm";
    } else if (info.has_cuda_field) {
      fw.variant = "cpu";
    }
    // The wheel's own local tag names the index it came from; prefer it when it agrees.
    if (!local.empty() && (fw.variant.empty() || local.starts_with(fw.variant))) fw.variant = local;
    return;
  }
  if (text.error().kind == ErrorKind::not_found) {
    fw.problems.push_back("torch/version.py is missing: the package files are incomplete");
  } else {
    fw.problems.push_back("cannot read " + path + ": " + error_text(text.error()));
  }
  // Fall back on the local tag of the distribution version ("+cu121", "+cpu").
  if (local.starts_with("cu")) {
    fw.variant = local;
    fw.cuda_build = true;
    fw.evidence = "dist-info version " + fw.version.str();
  } else if (local == "cpu") {
    fw.variant = local;
    fw.cuda_build = false;
    fw.evidence = "dist-info version " + fw.version.str();
  }
}

/// ONNX Runtime's distributions: onnxruntime-gpu carries the CUDA execution provider (so do the
/// nightly and the old ort-*-gpu names); the others are CPU, DirectML, OpenVINO... builds.
bool is_onnxruntime_dist(const std::string& name) {
  return name == "onnxruntime" || name.starts_with("onnxruntime-") || name == "ort-nightly" ||
         name.starts_with("ort-nightly-");
}

/// tf-keras, as released and as nightly: both install tf_keras/ (TensorFlow's Keras 2).
bool is_tf_keras_dist(const std::string& name) {
  return name == "tf-keras" || name == "tf-keras-nightly";
}

/// TensorFlow Probability, as released and as nightly: both install tensorflow_probability/.
bool is_tfp_dist(const std::string& name) {
  return name == "tensorflow-probability" || name == "tfp-nightly";
}

/// The cuDNN major an onnxruntime-gpu build opens, when its METADATA does not pin one: ONNX
/// Runtime's "CUDA Execution Provider" requirements table
/// (https://onnxruntime.ai/docs/execution-providers/CUDA-ExecutionProvider.html#requirements):
/// CUDA 11.x builds use cuDNN 8; CUDA 12.x builds cuDNN 8 up to 1.18.0 and cuDNN 9 from 1.18.1;
/// CUDA 13 builds cuDNN 9. "Built with cuDNN 8.x is not compatible with cuDNN 9.x, and vice versa."
std::optional<Version> onnxruntime_cudnn(const Version& ort, const Version& cuda) {
  if (cuda.major() <= 11) return Version::parse("8");
  if (cuda.major() == 12 && ort.parts().size() >= 2 && ort < Version::parse("1.18.1").value()) {
    return Version::parse("8");
  }
  return Version::parse("9");
}

/// A soname's version after `stem` ("libcudart.so." -> "12" or "11.0") in a library's first bytes:
/// ELF keeps .dynstr, with the DT_NEEDED names, near the start (onnxruntime-gpu 1.20.2's 767 MB
/// libonnxruntime_providers_cuda.so has libcudart.so.12 at byte 17800).
std::optional<Version> soname_version(std::string_view head, std::string_view stem) {
  for (size_t at = head.find(stem); at != std::string_view::npos; at = head.find(stem, at + 1)) {
    if (at > 0 && head[at - 1] != '\0') continue;  // a whole string of the table, not a suffix
    const size_t from = at + stem.size();
    const size_t nul = head.find('\0', from);
    if (nul == std::string_view::npos || nul == from || nul - from > 16) continue;
    if (auto v = Version::parse(head.substr(from, nul - from))) return v;
  }
  return std::nullopt;
}

/// What an onnxruntime-gpu wheel says it was built with, from its own artefacts:
/// - Windows wheels: onnxruntime/capi/version_info.py (onnxruntime_gpu-1.20.2-cp311-win_amd64:
///   use_cuda = True, cuda_version = "12.2.128", cudnn_version = "9"; 1.17.1: "11.8.0", "8");
/// - training and older builds: capi/build_and_package_info.py (cuda_version = '11.8');
/// - Linux wheels carry neither (1.20.2 manylinux): the CUDA provider's own DT_NEEDED names
///   (libcudart.so.12, libcudnn.so.9) from the first MiB of capi/libonnxruntime_providers_cuda.so.
/// The provider library (capi/onnxruntime_providers_cuda.dll, libonnxruntime_providers_cuda.so)
/// is what the provider bridge loads when a session asks for CUDAExecutionProvider.
void fill_onnxruntime(const SystemView& system, const std::string& site, const Dist& d, FrameworkFacts& fw) {
  const bool windows = system.is_windows();
  const std::string capi = system.join(site, windows ? "onnxruntime\\capi" : "onnxruntime/capi");
  const std::string provider =
      system.join(capi, windows ? "onnxruntime_providers_cuda.dll" : "libonnxruntime_providers_cuda.so");
  const bool has_provider = system.is_file(provider);
  std::string cuda;
  std::string cudnn;
  std::optional<bool> use_cuda;
  for (const char* file : {"version_info.py", "build_and_package_info.py"}) {
    const std::string path = system.join(capi, file);
    auto text = system.read_file(path, 64 * 1024);
    if (!text) {
      if (text.error().kind != ErrorKind::not_found) {
        fw.problems.push_back("cannot read " + path + ": " + error_text(text.error()));
      }
      continue;
    }
    std::vector<std::string> problems;
    if (!pyfile::refuse_binary(*text, "not a Python source file (binary content)", problems)) {
      auto assigned = pyfile::parse_assignments(*text);
      problems.insert(problems.end(), assigned.problems.begin(), assigned.problems.end());
      auto string_value = [&](const char* name) -> std::string {
        auto it = assigned.values.find(name);
        return it != assigned.values.end() && it->second.kind == pyfile::PyValue::Kind::string ? it->second.text : "";
      };
      if (cuda.empty()) cuda = string_value("cuda_version");
      if (cudnn.empty()) cudnn = string_value("cudnn_version");
      auto it = assigned.values.find("use_cuda");
      if (it != assigned.values.end() && it->second.kind == pyfile::PyValue::Kind::boolean) {
        use_cuda = it->second.boolean;
      }
    }
    for (auto& p : problems) fw.problems.push_back(std::string(file) + ": " + p);
    if (fw.evidence.empty()) fw.evidence = path;
  }
  if (!cuda.empty()) {
    fw.cuda_version = Version::parse(cuda);
    if (!fw.cuda_version) fw.problems.push_back("cuda_version is not a version: " + printable(cuda, 40));
  }
  if (!cudnn.empty()) {
    fw.cudnn_version = Version::parse(cudnn);
    if (!fw.cudnn_version) fw.problems.push_back("cudnn_version is not a version: " + printable(cudnn, 40));
  }
  if (has_provider && !windows && (!fw.cuda_version || !fw.cudnn_version)) {
    if (auto head = system.read_head(provider, 1024 * 1024)) {
      if (auto v = soname_version(*head, "libcudart.so."); v && !fw.cuda_version) {
        fw.cuda_version = Version::parse(std::to_string(v->major()));
        fw.evidence = provider + " (links libcudart.so." + v->str() + ")";
      }
      if (auto v = soname_version(*head, "libcudnn.so."); v && !fw.cudnn_version) fw.cudnn_version = v;
    }
  }
  fw.cuda_build = has_provider || use_cuda.value_or(false);
  if (!*fw.cuda_build) {
    fw.variant = "cpu";
    if (fw.evidence.empty()) fw.evidence = capi;
    return;
  }
  if (!has_provider) {
    fw.problems.push_back("a CUDA build without its CUDA provider library " + provider +
                          ": the package files are incomplete");
  }
  if (fw.evidence.empty()) fw.evidence = provider;
  if (!fw.cuda_version) return;
  fw.variant = "cuda" + std::to_string(fw.cuda_version->major());
  // The extras of later wheels name the nvidia wheels ("nvidia-cudnn-cu12~=9.0; extra == 'cudnn'").
  if (!fw.cudnn_version && d.dir.kind != "egg-info") {
    if (auto md = system.read_file(system.join(d.path, "METADATA"), 256 * 1024)) {
      if (auto floor = requirement_floor(*md, "nvidia-cudnn-cu")) fw.cudnn_version = Version::parse(floor->version);
    }
  }
  if (!fw.cudnn_version) fw.cudnn_version = onnxruntime_cudnn(fw.version, *fw.cuda_version);
}

/// jaxlib from PyPI is CPU-only; GPU support comes from jax-cuda*-plugin / -pjrt. Old jaxlib
/// wheels from Google's index carried it in the local tag: "0.4.23+cuda12.cudnn89".
void fill_jaxlib(FrameworkFacts& fw) {
  const std::string& local = fw.version.local();
  if (local.starts_with("cuda")) {
    fw.cuda_build = true;
    auto parts = split(local, '.');
    fw.variant = std::string(parts[0]);
    if (auto v = Version::parse(parts[0].substr(4))) fw.cuda_version = v;
    if (parts.size() > 1 && parts[1].starts_with("cudnn") && parts[1].size() >= 7) {
      // "cudnn89" -> 8.9; "cudnn805" -> 8.05 is ambiguous, read the first digit as major.
      std::string d(parts[1].substr(5));
      if (auto v = Version::parse(d.substr(0, 1) + "." + d.substr(1))) fw.cudnn_version = v;
    }
    fw.evidence = "dist-info version " + fw.version.str();
  } else if (local.empty()) {
    // PyPI's jaxlib holds no CUDA code; whether JAX can use a GPU is decided by the
    // jax-cuda*-plugin beside it and recorded on the "jax" entry.
    fw.evidence = "jaxlib from PyPI carries no CUDA code; GPU support comes from jax-cuda*-plugin";
  }
}

/// A shared library a wheel's RECORD lists: its path under site-packages and its size.
struct RecordLib {
  std::string path;  ///< "nvidia/cudnn/lib/libcudnn.so.9"
  std::optional<std::uint64_t> size;
};

/// What the doctor takes from a wheel's RECORD: the CUDA major its paths name (nvidia/cu13/...)
/// and its shared libraries (nvidia/**/lib/*.so*).
struct WheelRecord {
  std::optional<int> cuda_major;
  std::vector<RecordLib> libs;
};

/// RECORD lines kept as libraries at most: cuDNN 9's wheel lists 9, the largest 13 (cu13's runtime).
constexpr size_t kMaxRecordLibs = 256;

/// The shared library one RECORD line ("path,sha256=...,size") names, if it is one under nvidia/.
/// RECORD is untrusted: a quoted, absolute or ".." path is not one of the wheel's libraries.
std::optional<RecordLib> record_lib(std::string_view line) {
  const size_t comma = line.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  std::string_view path = line.substr(0, comma);
  if (!path.starts_with("nvidia/") || path.find("/lib/") == std::string_view::npos ||
      path.find(".so") == std::string_view::npos || path.find("..") != std::string_view::npos ||
      path.find('\\') != std::string_view::npos) {
    return std::nullopt;
  }
  RecordLib lib{std::string(path), std::nullopt};
  if (const size_t last = line.rfind(','); last != comma) {
    std::string_view digits = trim(line.substr(last + 1));
    std::uint64_t size = 0;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), size);
    if (ec == std::errc() && ptr == digits.data() + digits.size() && !digits.empty()) lib.size = size;
  }
  return lib;
}

/// A wheel's RECORD, read in pieces: RECORDs run to hundreds of KB (nvidia-cuda-cccl 13.2's is
/// 277 KB). A RECORD longer than the bound is a problem, not a silent stop.
WheelRecord read_wheel_record(const SystemView& system, const std::string& path, std::vector<ProbeProblem>& problems) {
  constexpr size_t kPiece = 64 * 1024;
  constexpr std::uint64_t kMaxRecord = 32 << 20;
  WheelRecord out;
  std::string carry;  // a line cut by the end of the previous piece
  for (std::uint64_t offset = 0; offset < kMaxRecord; offset += kPiece) {
    auto piece = system.read_range(path, offset, kPiece);
    if (!piece) return out;
    const bool last = piece->size() < kPiece;
    std::string text = carry + *piece;
    size_t cut = last ? text.size() : text.rfind('\n') + 1;  // rfind npos + 1 == 0: all carried
    const std::string_view whole = std::string_view(text).substr(0, cut);
    if (!out.cuda_major) out.cuda_major = cuda_major_from_record(whole);
    for (std::string_view line : lines(whole)) {
      if (out.libs.size() >= kMaxRecordLibs) break;
      if (auto lib = record_lib(line)) out.libs.push_back(std::move(*lib));
    }
    // Nothing more to take from the rest: the bound is reached and the CUDA major known.
    if (last || (out.libs.size() >= kMaxRecordLibs && out.cuda_major)) return out;
    carry = text.substr(cut);
    if (carry.size() > kPiece) carry.clear();  // no RECORD line is that long
  }
  problems.push_back({"python", path, "not fully read: RECORD longer than 32 MiB"});
  return out;
}

/// The RECORD's libraries checked against the disk: where they live and which are gone.
void check_record_files(const SystemView& system, const std::string& site, const WheelRecord& rec, NvidiaWheel& w) {
  if (rec.libs.empty()) return;
  const std::string& first = rec.libs.front().path;
  w.lib_dir = system.join(site, first.substr(0, first.find_last_of('/')));
  int missing = 0;
  for (const RecordLib& lib : rec.libs) {
    if (system.exists(system.join(site, lib.path))) continue;
    if (w.missing_files.size() < 16) w.missing_files.push_back(lib.path);
    ++missing;
  }
  if (missing > 0) w.missing_count = missing;
}

/// Two wheels of one library whose RECORDs list the same files (nvidia-cudnn-cu12 and -cu13 both
/// install nvidia/cudnn/lib/libcudnn*.so.9: the one installed last overwrote the other's). Which
/// wheel's files are on disk: the one whose RECORD sizes the shared files have, else for cuDNN
/// the CUDA major its binaries name (probe/cudnn_cuda_major.hpp). Nothing tells: nothing is set.
void decide_shared_files(const SystemView& system, const std::string& site,
                         const std::vector<std::pair<NvidiaWheel*, WheelRecord>>& wheels) {
  for (size_t i = 0; i < wheels.size(); ++i) {
    for (size_t j = i + 1; j < wheels.size(); ++j) {
      NvidiaWheel& a = *wheels[i].first;
      NvidiaWheel& b = *wheels[j].first;
      if (a.library != b.library || a.lib_dir.empty() || a.lib_dir != b.lib_dir) continue;
      // The sizes each RECORD gives the files both list, against the file there now.
      int a_fits = 0, b_fits = 0;
      std::string told;
      for (const RecordLib& la : wheels[i].second.libs) {
        for (const RecordLib& lb : wheels[j].second.libs) {
          if (la.path != lb.path || !la.size || !lb.size || *la.size == *lb.size) continue;
          auto st = system.stat(system.join(site, la.path));
          if (!st || !st->is_regular) continue;
          const std::string name = la.path.substr(la.path.find_last_of('/') + 1);
          if (st->size_bytes == *la.size) {
            ++a_fits;
            told = name + " has the size " + a.package + "'s RECORD gives it";
          } else if (st->size_bytes == *lb.size) {
            ++b_fits;
            told = name + " has the size " + b.package + "'s RECORD gives it";
          }
        }
      }
      NvidiaWheel* owner = nullptr;
      if (a_fits > 0 && b_fits == 0) owner = &a;
      if (b_fits > 0 && a_fits == 0) owner = &b;
      if (owner == nullptr && a.library == "cudnn" && a.cuda_major != b.cuda_major) {
        CudnnCudaMajor built = cudnn_cuda_major(system, a.lib_dir);
        if (built.major && built.major == a.cuda_major) owner = &a;
        if (built.major && built.major == b.cuda_major) owner = &b;
        told = built.source;
      }
      if (owner == nullptr) continue;
      NvidiaWheel& other = owner == &a ? b : a;
      other.overwritten_by = owner->package;
      other.overwritten_source = told;
    }
  }
}

/// The string a small generated Python file (a version.py) assigns to `name`: none when the file
/// is missing, binary, or does not assign a string literal to it.
std::optional<std::string> python_string(const SystemView& system, const std::string& path, const char* name) {
  auto text = system.read_file(path, 64 * 1024);
  if (!text || pyfile::looks_binary(*text)) return std::nullopt;
  auto values = pyfile::parse_assignments(*text).values;
  auto it = values.find(name);
  if (it == values.end() || it->second.kind != pyfile::PyValue::Kind::string) return std::nullopt;
  return it->second.text;
}

/// JAX compares versions by their leading dotted number only, as a Python tuple (the regex
/// `[0-9]+(?:\.[0-9]+)*` in jax/_src/lib/__init__.py and jaxlib/plugin_support.py): 0.12.0 and
/// 0.12.0.1 differ, a pre-release or local tag is ignored. Version::parts() is that number.
std::strong_ordering jax_order(const Version& a, const Version& b) {
  return std::lexicographical_compare_three_way(a.parts().begin(), a.parts().end(), b.parts().begin(), b.parts().end());
}

/// `import jax` raises unless jaxlib is at least jax/version.py's _minimum_jaxlib_version and
/// not newer than jax (check_jaxlib_version in jax/_src/lib/__init__.py, since before 0.4.30).
void check_jax_against_jaxlib(const SystemView& system, const std::string& dir, FrameworkFacts& jax,
                              const FrameworkFacts& jaxlib) {
  if (jax.version.parts().empty() || jaxlib.version.parts().empty()) return;
  if (jax_order(jaxlib.version, jax.version) > 0) {
    jax.conflicts.push_back("jaxlib " + jaxlib.version.str() + " is newer than jax " + jax.version.str() +
                            "; `import jax` raises \"jaxlib version " + jaxlib.version.str() +
                            " is newer than and incompatible with jax version " + jax.version.str() + "\"");
    return;
  }
  const std::string version_py = system.join(system.join(dir, "jax"), "version.py");
  auto text = python_string(system, version_py, "_minimum_jaxlib_version");
  auto minimum = text ? Version::parse(*text) : std::nullopt;
  if (!minimum || minimum->parts().empty() || jax_order(jaxlib.version, *minimum) >= 0) return;
  jax.conflicts.push_back("jaxlib " + jaxlib.version.str() + " is older than jax " + jax.version.str() + " needs (" +
                          minimum->str() + " or newer, " + version_py + "); `import jax` raises \"jaxlib is version " +
                          jaxlib.version.str() + ", but this version of jax requires version >= " + minimum->str() +
                          "\"");
}

/// The PJRT package alone cannot start JAX's CUDA backend from this release on: its
/// initialize() asserts the plugin's _versions module (jax_plugins/xla_cuda12/__init__.py of
/// jax-cuda12-pjrt 0.6.1; 0.6.0 and older start without the plugin's kernels).
const Version kPjrtNeedsPluginFrom = Version::of({0, 6, 1});
/// jax-cuda*-pjrt split from jax-cuda*-plugin in 0.4.23; from then on the plugin pins it exactly.
const Version kPjrtSplitFrom = Version::of({0, 4, 23});

/// The "jax" entry carries the verdict for the JAX install in `dir` as a whole: a CUDA
/// plugin with its PJRT package, both of jaxlib's version, make it a CUDA build (or an old
/// CUDA jaxlib); jaxlib alone is CPU-only.
void summarize_jax(const SystemView& system, PythonEnvFacts& env, const std::string& dir) {
  FrameworkFacts* jax = nullptr;
  const FrameworkFacts* jaxlib = nullptr;
  std::vector<const FrameworkFacts*> plugins;
  std::vector<const FrameworkFacts*> pjrts;
  for (FrameworkFacts& fw : env.frameworks) {
    if (fw.location != dir) continue;
    if (fw.name == "jax") jax = &fw;
    if (fw.name == "jaxlib") jaxlib = &fw;
    if (fw.name == "jax-cuda-plugin") plugins.push_back(&fw);
    if (fw.name == "jax-cuda-pjrt") pjrts.push_back(&fw);
  }
  if (jax == nullptr) return;
  if (jaxlib != nullptr) check_jax_against_jaxlib(system, dir, *jax, *jaxlib);
  // "jax-cuda13-plugin" <-> "jax-cuda13-pjrt": one pair per CUDA major.
  auto pair_name = [](const FrameworkFacts* fw, std::string_view role) {
    return "jax-" + fw->variant + "-" + std::string(role);
  };
  auto partner = [](const std::vector<const FrameworkFacts*>& among, const FrameworkFacts* fw) {
    auto it =
        std::find_if(among.begin(), among.end(), [&](const FrameworkFacts* o) { return o->variant == fw->variant; });
    return it == among.end() ? nullptr : *it;
  };
  const FrameworkFacts* usable = nullptr;  // a plugin JAX accepts, with its PJRT package
  for (const FrameworkFacts* q : plugins) {
    bool ok = true;
    if (jaxlib != nullptr && !jaxlib->version.parts().empty() && jax_order(q->version, jaxlib->version) != 0) {
      jax->conflicts.push_back(q->package + " " + q->version.str() + " does not match jaxlib " + jaxlib->version.str() +
                               " (jaxlib compares the whole version); JAX will not use it");
      ok = false;
    }
    const FrameworkFacts* pjrt = partner(pjrts, q);
    if (pjrt == nullptr && (q->version.parts().empty() || jax_order(q->version, kPjrtSplitFrom) >= 0)) {
      jax->conflicts.push_back(q->package + " " + q->version.str() + " is installed without " + pair_name(q, "pjrt") +
                               ", which it requires and which holds JAX's CUDA backend (jax_plugins/xla_" + q->variant +
                               "): JAX has no CUDA backend and runs on the CPU");
      ok = false;
    } else if (pjrt != nullptr && jax_order(pjrt->version, q->version) != 0) {
      jax->conflicts.push_back(pjrt->package + " " + pjrt->version.str() + " is not the version " + q->package + " " +
                               q->version.str() + " requires (==" + q->version.str() +
                               "): the two were not installed together");
    }
    if (ok && usable == nullptr) usable = q;
  }
  for (const FrameworkFacts* r : pjrts) {
    if (partner(plugins, r) != nullptr) continue;
    const std::string without = r->package + " " + r->version.str() + " is installed without " + pair_name(r, "plugin");
    if (r->version.parts().empty() || jax_order(r->version, kPjrtNeedsPluginFrom) >= 0) {
      jax->conflicts.push_back(without +
                               ": its initialize() needs the plugin's version checks and fails (\"Jax plugin "
                               "configuration error\"), so JAX has no CUDA backend and runs on the CPU");
    } else {
      jax->conflicts.push_back(without +
                               ": JAX's CUDA backend starts without the plugin's GPU kernels "
                               "(\"cuda_plugin_extension is not found\")");
      if (usable == nullptr) usable = r;
    }
  }
  if (!plugins.empty() || !pjrts.empty()) {
    const FrameworkFacts* p = usable != nullptr ? usable : !plugins.empty() ? plugins.front() : pjrts.front();
    // Only parts JAX accepts make this a CUDA install.
    jax->cuda_build = usable != nullptr;
    jax->variant = usable != nullptr ? p->variant : "cpu";
    jax->cuda_version = p->cuda_version;
    jax->evidence = p->package + " " + p->version.str() + " in " + dir;
  } else if (jaxlib != nullptr && jaxlib->cuda_build.value_or(false)) {
    jax->cuda_build = true;
    jax->variant = jaxlib->variant;
    jax->cuda_version = jaxlib->cuda_version;
    jax->cudnn_version = jaxlib->cudnn_version;
    jax->evidence = "jaxlib " + jaxlib->version.str() + " in " + dir;
  } else if (jaxlib != nullptr) {
    jax->cuda_build = false;
    jax->variant = "cpu";
    jax->evidence = "jaxlib " + jaxlib->version.str() + " without a jax-cuda*-plugin in " + dir;
  } else {
    jax->conflicts.push_back("jax is installed without jaxlib; it cannot be imported");
  }
}

/// A PEP 660 editable install (`pip install -e`) keeps its dist-info here and its package in the
/// project: direct_url.json says `"dir_info": {"editable": true}` (PEP 610).
bool editable_install(const SystemView& system, const std::string& dist_path) {
  auto text = system.read_file(system.join(dist_path, "direct_url.json"), 64 * 1024);
  if (!text) return false;
  std::string compact;
  for (char c : *text) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') compact += c;
  }
  return contains(compact, "\"editable\":true");
}

std::string join_path(const SystemView& system, std::string path, std::initializer_list<const char*> parts) {
  for (const char* part : parts) path = system.join(path, part);
  return path;
}

/// A framework whose dist-info is gone but whose package folder is there (vendored, copied in,
/// metadata deleted by hand): `import` still takes it, so it is inventoried from the files it
/// carries. TensorFlow keeps its version in tools/pip_package/setup.py (_VERSION; its
/// python/framework/versions.py asks the compiled library), torch in version.py, JAX in
/// version.py's _version.
void frameworks_without_metadata(const SystemView& system, const std::string& dir, PythonEnvFacts& env) {
  const auto registered = [&](const char* name) {
    return std::any_of(env.frameworks.begin(), env.frameworks.end(),
                       [&](const FrameworkFacts& f) { return f.location == dir && import_package(f) == name; });
  };
  const auto found = [&](const char* name, const std::string& file) {
    FrameworkFacts fw;
    fw.name = name;
    fw.package = name;
    fw.location = dir;
    fw.unregistered = file;
    return fw;
  };
  const std::string torch_py = join_path(system, dir, {"torch", "version.py"});
  if (!registered("torch") && system.is_file(torch_py)) {
    FrameworkFacts fw = found("torch", torch_py);
    fill_torch(system, dir, fw);  // takes the version from version.py
    env.frameworks.push_back(std::move(fw));
  }
  const std::string build_info = join_path(system, dir, {"tensorflow", "python", "platform", "build_info.py"});
  if (!registered("tensorflow") && system.is_file(build_info)) {
    FrameworkFacts fw = found("tensorflow", build_info);
    const std::string setup_py = join_path(system, dir, {"tensorflow", "tools", "pip_package", "setup.py"});
    if (auto v = python_string(system, setup_py, "_VERSION")) fw.version = Version::parse(*v).value_or(Version{});
    fill_tensorflow(system, dir, "", fw);
    env.frameworks.push_back(std::move(fw));
  }
  for (const char* name : {"jax", "jaxlib"}) {
    const std::string version_py = join_path(system, dir, {name, "version.py"});
    if (registered(name) || !system.is_file(version_py)) continue;
    FrameworkFacts fw = found(name, version_py);
    if (auto v = python_string(system, version_py, "_version")) fw.version = Version::parse(*v).value_or(Version{});
    if (fw.name == "jaxlib") fill_jaxlib(fw);
    env.frameworks.push_back(std::move(fw));
  }
}

}  // namespace

std::string import_package(const FrameworkFacts& fw) {
  if (fw.name == "jax-cuda-pjrt") return {};
  if (fw.name == "jax-cuda-plugin") return "jax_" + fw.variant + "_plugin";
  if (fw.name == "keras") return is_tf_keras_dist(fw.package) ? "tf_keras" : "keras";
  if (fw.name == "tensorflow-probability") return "tensorflow_probability";
  std::string folder = fw.name;  // torch, tensorflow, jax, jaxlib, onnxruntime, torchvision, tensorflow-text
  std::replace(folder.begin(), folder.end(), '-', '_');
  return folder;
}

void scan_site_packages(const SystemView& system, const std::string& dir, PythonEnvFacts& env, ScanBudget& budget,
                        std::vector<ProbeProblem>& problems) {
  if (!budget.take()) return;
  auto entries = system.list_dir(dir);
  if (!entries) {
    if (entries.error().kind != ErrorKind::not_found) {
      problems.push_back({"python", dir, "cannot list site-packages: " + error_text(entries.error())});
    }
    return;
  }
  std::vector<Dist> tensorflow;
  std::map<std::string, Dist> others;
  std::map<std::string, std::vector<std::string>> duplicates;  ///< name -> every version seen
  for (const DirEntry& e : *entries) {
    if (!e.is_dir) continue;
    auto d = parse_dist_dir_name(e.name);
    if (!d) continue;
    Dist dist{*d, system.join(dir, e.name)};
    if (one_of(d->name, kTensorflowDists)) {
      tensorflow.push_back(std::move(dist));
    } else if (d->name == "torch" || d->name == "torchvision" || d->name == "torchaudio" ||
               d->name == "tensorflow-text" || d->name == "tensorflow-addons" || is_tfp_dist(d->name) ||
               d->name == "jax" || d->name == "jaxlib" || d->name == "keras" || is_tf_keras_dist(d->name) ||
               d->name.starts_with("jax-cuda") || d->name.starts_with("nvidia-") || d->name == "numpy" ||
               is_onnxruntime_dist(d->name)) {
      // Two dist-info directories of one distribution: an interrupted upgrade or two
      // installers. Keep the higher version, and say so.
      auto [it, inserted] = others.emplace(d->name, dist);
      if (!inserted) {
        auto& seen = duplicates[d->name];
        if (seen.empty()) seen.push_back(it->second.dir.version);
        seen.push_back(d->version);
        auto a = Version::parse(it->second.dir.version);
        auto b = Version::parse(d->version);
        if (b && (!a || *b > *a)) it->second = std::move(dist);
      }
    }
  }

  if (!tensorflow.empty()) {
    // One `tensorflow` package on disk, possibly claimed by a meta-package and the
    // distribution that carries the code (tensorflow + tensorflow-intel on Windows).
    const Dist* impl = &tensorflow.front();
    for (const Dist& d : tensorflow) {
      if (one_of(d.dir.name, kTensorflowImplementations)) impl = &d;
    }
    FrameworkFacts fw;
    fw.name = "tensorflow";
    fw.package = impl->dir.name;
    fw.location = dir;
    fw.version = dist_version(system, *impl, fw);
    std::vector<std::string> metas, impls, all;
    for (const Dist& d : tensorflow) {
      (one_of(d.dir.name, kTensorflowImplementations) ? impls : metas).push_back(d.dir.name);
      all.push_back(d.dir.name + " " + d.dir.version);
    }
    if (metas.size() > 1 || impls.size() > 1) {
      fw.conflicts.push_back("several TensorFlow distributions share one tensorflow/ package: " + join(all, ", ") +
                             "; the files of the last one installed win");
      for (const Dist& d : tensorflow) fw.sharing.push_back(d.dir.name);
      std::sort(fw.sharing.begin(), fw.sharing.end());
    }
    fill_tensorflow(system, dir, system.join(impl->path, "METADATA"), fw);
    if (fw.variant.empty() && contains(fw.package, "-cpu")) fw.variant = "cpu";
    env.frameworks.push_back(std::move(fw));
  }

  // onnxruntime and onnxruntime-gpu (and -directml, ...) all install the one onnxruntime/ package.
  std::vector<std::string> ort_dists, ort_names;  // `others` is a sorted map: names in order
  for (const auto& [name, d] : others) {
    if (!is_onnxruntime_dist(name)) continue;
    ort_dists.push_back(name + " " + d.dir.version);
    ort_names.push_back(name);
  }
  std::vector<std::pair<size_t, WheelRecord>> records;  ///< index in env.nvidia_wheels, its RECORD
  for (const auto& [name, d] : others) {
    if (name == "numpy") {
      if (auto v = Version::parse(d.dir.version)) env.packages.push_back(PlainDist{name, *v, dir});
      continue;
    }
    if (auto nv = parse_nvidia_wheel_name(name)) {
      NvidiaWheel w;
      w.package = name;
      w.library = nv->library;
      w.cuda_major = nv->cuda_major;
      auto v = Version::parse(d.dir.version);
      if (!v) {
        problems.push_back(
            {"python", d.path, "nvidia wheel " + name + " has no readable version: " + printable(d.dir.version, 60)});
        continue;
      }
      w.version = *v;
      // CUDA 13 wheels drop the -cuNN suffix and install under nvidia/cu13/: the RECORD says
      // which (nvidia-cufft 12.0 is a CUDA 13 wheel, so its own major cannot tell).
      WheelRecord record;
      if (d.dir.kind != "egg-info") record = read_wheel_record(system, system.join(d.path, "RECORD"), problems);
      if (!w.cuda_major) w.cuda_major = record.cuda_major;
      if (!system.is_windows()) check_record_files(system, dir, record, w);
      // Otherwise the CUDA components' own major is the CUDA major.
      if (!w.cuda_major && (name.starts_with("nvidia-cuda-") || w.library == "cublas" || w.library == "nvjitlink" ||
                            w.library == "nvvm")) {
        w.cuda_major = v->major();
      }
      env.nvidia_wheels.push_back(std::move(w));
      records.emplace_back(env.nvidia_wheels.size() - 1, std::move(record));
      continue;
    }
    FrameworkFacts fw;
    fw.package = name;
    fw.location = dir;
    fw.version = dist_version(system, d, fw);
    if (name == "torch") {
      fw.name = "torch";
      fill_torch(system, dir, fw);
      // The cuDNN the wheel was built with is the one its METADATA pins (nvidia-cudnn-cu12==9.1.0.70).
      if (fw.cuda_build.value_or(false) && !fw.cudnn_version && d.dir.kind != "egg-info") {
        if (auto md = system.read_file(system.join(d.path, "METADATA"), 256 * 1024)) {
          if (auto pin = pinned_requirement(*md, "nvidia-cudnn-cu")) fw.cudnn_version = Version::parse(pin->version);
        }
      }
    } else if (name == "torchvision" || name == "torchaudio") {
      // Built for one exact torch: METADATA pins it, the local tag names the CUDA variant.
      fw.name = name;
      fw.variant = fw.version.local();
      // Operators on PyTorch's stable ABI load with a newer torch than they were built for.
      // (A bool, not the structured binding `name`: a lambda may not capture one in C++20.)
      const bool vision = name == "torchvision";
      const std::string lib_dir =
          vision ? system.join(dir, "torchvision") : system.join(system.join(dir, "torchaudio"), "lib");
      if (auto files = system.list_dir(lib_dir)) {
        fw.stable_abi = std::any_of(files->begin(), files->end(), [vision](const DirEntry& e) {
          return !e.is_dir &&
                 (vision ? e.name.starts_with("_C_stable") && e.name.ends_with(".so") : e.name.ends_with(".abi3.so"));
        });
      }
      // PyPI's wheels name no local tag in the dist-info, but their version.py does ('0.20.1+cpu'
      // for PyPI's CPU-only Windows builds, '0.29.2+cu132' on Linux): the build's variant.
      if (fw.variant.empty()) {
        const std::string version_py = system.join(system.join(dir, name), "version.py");
        if (auto text = python_string(system, version_py, "__version__")) {
          if (auto v = Version::parse(*text); v && v->parts() == fw.version.parts()) {
            fw.variant = v->local();
            if (fw.evidence.empty()) fw.evidence = version_py;
          }
        }
      }
      if (d.dir.kind != "egg-info") {
        if (auto md = system.read_file(system.join(d.path, "METADATA"), 256 * 1024)) {
          if (auto pin = pinned_requirement(*md, "torch"); pin && pin->name == "torch") {
            fw.requires_torch = Version::parse(pin->version);
            fw.evidence = system.join(d.path, "METADATA");
          }
        }
      }
    } else if (is_onnxruntime_dist(name)) {
      fw.name = "onnxruntime";
      fill_onnxruntime(system, dir, d, fw);
      if (ort_dists.size() > 1) {
        fw.conflicts.push_back("several ONNX Runtime distributions share one onnxruntime/ package: " +
                               join(ort_dists, ", ") + "; the files of the last one installed win");
        fw.sharing = ort_names;
      }
    } else if (is_tfp_dist(name)) {
      fw.name = "tensorflow-probability";
      // Its own import refuses a TensorFlow below the floor it names, and from 0.24 imports tf_keras.
      const std::string init_py =
          system.join(system.join(system.join(dir, "tensorflow_probability"), "python"), "__init__.py");
      if (auto text = system.read_file(init_py, 64 * 1024)) {
        TfpImportChecks checks = read_tfp_import_checks(*text);
        fw.requires_tensorflow = checks.tensorflow_floor;
        fw.imports_tf_keras = checks.imports_tf_keras;
        fw.evidence = init_py;
      } else if (text.error().kind != ErrorKind::not_found) {
        fw.problems.push_back("cannot read " + init_py + ": " + error_text(text.error()));
      }
    } else if (name == "jaxlib") {
      fw.name = "jaxlib";
      fill_jaxlib(fw);
    } else if (name == "jax" || name == "keras" || is_tf_keras_dist(name) || name == "tensorflow-text" ||
               name == "tensorflow-addons") {
      fw.name = is_tf_keras_dist(name) ? "keras" : name;
    } else if (name.starts_with("jax-cuda")) {
      // jax-cuda12-plugin, jax-cuda12-pjrt, jax-cuda13-plugin, ...
      std::string_view rest = std::string_view(name).substr(8);
      size_t dash = rest.find('-');
      std::string major(rest.substr(0, dash));
      std::string_view role = dash == std::string_view::npos ? "" : rest.substr(dash + 1);
      fw.name = role == "pjrt" ? "jax-cuda-pjrt" : "jax-cuda-plugin";
      fw.cuda_build = true;
      fw.variant = "cuda" + major;
      if (auto v = Version::parse(major)) fw.cuda_version = v;
      // The plugin's extra pins the cuDNN it needs ("nvidia-cudnn-cu12<10.0,>=9.8"): the
      // library it opens is that major's.
      if (fw.name == "jax-cuda-plugin" && d.dir.kind != "egg-info") {
        if (auto md = system.read_file(system.join(d.path, "METADATA"), 256 * 1024)) {
          if (auto floor = requirement_floor(*md, "nvidia-cudnn-cu")) fw.cudnn_version = Version::parse(floor->version);
        }
      }
      fw.evidence = d.path;
    } else {
      continue;
    }
    env.frameworks.push_back(std::move(fw));
  }
  // A dist-info without its package folder: `import` fails (an interrupted uninstall, a copy that
  // lost its files), whatever the metadata says.
  for (FrameworkFacts& fw : env.frameworks) {
    const std::string folder = import_package(fw);
    if (fw.location != dir || folder.empty() || system.is_dir(system.join(dir, folder))) continue;
    auto dist = others.find(fw.package);
    auto tf =
        std::find_if(tensorflow.begin(), tensorflow.end(), [&](const Dist& d) { return d.dir.name == fw.package; });
    const std::string dist_path = dist != others.end()     ? dist->second.path
                                  : tf != tensorflow.end() ? tf->path
                                                           : std::string();
    if (!editable_install(system, dist_path)) fw.missing_package = folder;
  }
  frameworks_without_metadata(system, dir, env);
  std::vector<std::pair<NvidiaWheel*, WheelRecord>> wheels;
  for (auto& [index, record] : records) wheels.emplace_back(&env.nvidia_wheels[index], std::move(record));
  decide_shared_files(system, dir, wheels);
  for (auto& [name, versions] : duplicates) {
    // Oldest to newest, and bounded: the folder may hold thousands.
    std::sort(versions.begin(), versions.end(), [](const std::string& a, const std::string& b) {
      auto va = Version::parse(a);
      auto vb = Version::parse(b);
      if (va.has_value() != vb.has_value()) return va.has_value();  // versions first, then odd names
      if (va && *va != *vb) return *va < *vb;
      return a < b;
    });
    std::string message = "several " + name + " dist-info directories (" + join_bounded(versions, ", ", 6) +
                          "): an interrupted upgrade or two installers; reinstall " + name;
    bool attached = false;
    for (FrameworkFacts& fw : env.frameworks) {
      if (fw.location == dir && fw.package == name) {
        fw.conflicts.push_back(message);
        attached = true;
      }
    }
    if (!attached) problems.push_back({"python", dir, message});
  }
  summarize_jax(system, env, dir);
}

}  // namespace gpudoctor
