#include "kb/matrix_query.hpp"

#include <algorithm>

#include "kb/framework_request.hpp"
#include "kb/knowledge_base.hpp"

namespace gpudoctor {
namespace {

bool cuda_matches(const std::optional<Version>& want, const std::optional<Version>& have) {
  if (!want) return true;
  if (!have) return false;
  return have->same_series(*want, want->parts().size() < 2 ? 1 : 2);
}

bool os_matches(const std::optional<Platform>& want, const std::string& row_os) {
  if (!want) return true;
  std::string w = *want == Platform::windows ? "windows" : "linux";
  return row_os.find(w) != std::string::npos || (*want == Platform::wsl2 && row_os.find("wsl2") != std::string::npos);
}

/// "6.0 7.0 8.0 8.9 +PTX 9.0": the compiled list as the tables record it.
std::string arch_list(const std::vector<Version>& archs, const std::optional<Version>& ptx) {
  std::string a;
  for (const Version& x : archs) a += (a.empty() ? "" : " ") + x.str();
  if (ptx) a += (a.empty() ? "" : " ") + std::string("+PTX ") + ptx->str();
  return a;
}

}  // namespace

std::vector<MatrixRow> matrix_framework_rows(const KnowledgeBase& kb, const MatrixFilter& f) {
  std::vector<MatrixRow> rows;
  auto keep_python = [&](const VersionSpec& s) { return !f.python || s.contains(*f.python); };
  // The request as `plan` reads it (kb/framework_request.hpp): a series row (TensorFlow 2.16.1
  // stands for 2.16) is kept when the range admits one of its released versions; a pin to a
  // release PyPI never had (torch==2.5.7) keeps none. JAX's rows are runs of releases.
  const FrameworkRequest request{
      .name = f.framework.value_or(Framework::tensorflow), .spec = f.versions, .extras = f.extras};
  const SeriesRequest series = series_request(request);
  auto keep_series = [&](const Version& row) { return !f.versions || series.admits_released(row.truncated(2)); };
  // The variants the request's extras keep to (jax[cuda13]; tensorflow[and-cuda]); none: all.
  std::vector<std::string> variants;
  for (const std::string& e : f.extras) {
    if (std::optional<std::string> v = extra_variant(request.name, e, kb)) variants.push_back(*v);
  }
  auto keeps_variant = [&](const std::string& v) {
    return variants.empty() || std::find(variants.begin(), variants.end(), v) != variants.end();
  };
  const bool jetson = f.cc && kb.is_jetson(f.gpu_name, f.cc);
  // An Arm host gets the aarch64 wheels: TensorFlow's are CPU-only builds (as `plan` says).
  const bool arm = f.cc && kb.arm_host(f.gpu_name, f.cc);
  auto add_source = [](MatrixRow& r, const std::string& fact, const std::string& source) {
    if (!source.empty() && source != r.source) r.fact_sources.emplace_back(fact, source);
  };
  if (!f.framework || *f.framework == Framework::tensorflow) {
    for (const TfBuild& b : kb.tensorflow.builds) {
      if (!os_matches(f.os, b.os) || !cuda_matches(f.cuda, b.cuda) || !keep_python(b.python) ||
          !keep_series(b.version)) {
        continue;
      }
      const TfAndCuda* and_cuda = b.os == "linux" && b.gpu ? kb.tf_and_cuda(b.version) : nullptr;
      if (!variants.empty() && and_cuda == nullptr) continue;  // tensorflow[and-cuda]: its builds only
      if (arm && b.gpu && !kb.tensorflow.aarch64_cpu_only_source.empty()) continue;
      MatrixRow r{.framework = Framework::tensorflow,
                  .version = b.version.str(),
                  .os = b.os,
                  .python = b.python.text(),
                  .cuda = b.cuda ? b.cuda->str() : "",
                  .cudnn = b.cudnn ? b.cudnn->str() : "",
                  .archs = arch_list(b.archs, b.ptx),
                  .note = b.note,
                  .source = b.source};
      add_source(r, "python", b.python_source);
      add_source(r, "archs", b.archs_source);
      if (and_cuda != nullptr) {
        for (const std::string& pin : and_cuda->pins) {
          const size_t op = pin.find_first_of("=<>!~");
          if (pin.starts_with("nvidia-nccl-") && op != std::string::npos) r.nccl = pin.substr(op);
        }
        if (!r.nccl.empty()) add_source(r, "nccl", and_cuda->source);
      }
      if (!b.gpu) r.note = "CPU only (no native-Windows GPU after " + kb.tensorflow.windows_gpu_last.str() + ")";
      if (f.cc) {
        // Jetson (aarch64): no TF list for it is recorded.
        r.gpu = !b.gpu ? "none" : jetson ? to_string(ArchCoverage::unknown) : to_string(kb.tf_coverage(b, *f.cc));
        if (r.gpu == "none") continue;
      }
      rows.push_back(std::move(r));
    }
  }
  // TensorFlow: Linux first, then Windows; newest first within each.
  std::stable_sort(rows.begin(), rows.end(), [](const MatrixRow& a, const MatrixRow& b) {
    if (a.os != b.os) return a.os == "linux";
    return *Version::parse(a.version) > *Version::parse(b.version);
  });
  if (!f.framework || *f.framework == Framework::pytorch) {
    const Platform shown_os = f.os.value_or(Platform::linux);
    for (const TorchRelease& rel : kb.pytorch.releases) {
      if (!keep_series(rel.version)) continue;
      // The platforms with wheels for the Python asked (torch 2.5: cp313 on Linux x86_64 only).
      std::string os;
      std::string other_python;
      const VersionSpec& python = KnowledgeBase::torch_python(rel, shown_os, arm);
      for (const std::string& o : kb.pytorch.os) {
        const VersionSpec& p =
            KnowledgeBase::torch_python(rel, o == "windows" ? Platform::windows : Platform::linux, arm);
        if (!keep_python(p)) continue;
        os += (os.empty() ? "" : ",") + o;
        // WSL2 takes the Linux wheels: said once, as Linux's.
        if (p.text() != python.text() && o != "wsl2") other_python += "; " + o + " wheels: Python " + p.text();
      }
      if (os.empty() || !os_matches(f.os, os) || !keep_python(python)) continue;
      for (const TorchVariant& v : rel.variants) {
        if (!cuda_matches(f.cuda, v.cuda)) continue;
        MatrixRow r{.framework = Framework::pytorch,
                    .version = rel.version.str(),
                    .os = os,
                    .python = python.text(),
                    .cuda = v.cuda.str(),
                    .cudnn = v.cudnn ? v.cudnn->str() : "",
                    .nccl = v.nccl ? v.nccl->text() : "",
                    .variant = v.tag,
                    .archs = !v.archs.empty() ? arch_list(v.archs, v.ptx)
                             : v.min_cc       ? ">= " + v.min_cc->str()
                                              : "",
                    .note = v.status == VariantStatus::experimental ? "experimental" : "",
                    .source = rel.source};
        if (!other_python.empty()) r.note += (r.note.empty() ? "" : "; ") + other_python.substr(2);
        // The Python ranges shown: the row's platform's, and the others' named in the note.
        const bool os_range = &python != &rel.python;
        if (!os_range || !other_python.empty()) add_source(r, "python", rel.python_source);
        if (os_range || !other_python.empty()) add_source(r, "python", rel.python_os_source);
        add_source(r, "archs", v.archs_source);
        add_source(r, "cudnn", v.cudnn_source);
        add_source(r, "nccl", v.nccl_source);
        // Which platforms' plain `pip install torch` gets this variant (from PyPI's wheels).
        for (const auto& [plat, tag] :
             {std::pair{"linux-x86_64", &rel.pypi_linux}, std::pair{"linux-aarch64", &rel.pypi_aarch64}}) {
          if (*tag == v.tag) r.pypi_default += (r.pypi_default.empty() ? "" : ",") + std::string(plat);
        }
        if (!r.pypi_default.empty()) add_source(r, "pip_default", rel.pypi_source);
        add_source(r, "variant", rel.tags_source);
        if (f.cc) {
          const ArchCoverage c = kb.torch_coverage(v, *f.cc, shown_os, jetson);
          if (c == ArchCoverage::none) continue;
          // No list of its own: the toolkit's list is an assumption, as for TensorFlow's rows.
          r.gpu = to_string(c == ArchCoverage::native && v.archs.empty() && !jetson ? ArchCoverage::derived : c);
        }
        rows.push_back(std::move(r));
      }
    }
  }
  if (!f.framework || *f.framework == Framework::jax) {
    std::string os;
    for (const std::string& o : kb.jax.os) os += (os.empty() ? "" : ",") + o;
    if (os_matches(f.os, os)) {
      auto add = [&](const JaxVariant& v, const std::string& version, const std::string& python,
                     const VersionSpec* cudnn, const JaxRelease* run, const std::optional<Version>& release) {
        if (!keeps_variant(v.extra)) return;
        // The release's plugin, as its fatbins show (archs, the CUDA that built it); else the guide's.
        const JaxPlugin* plugin = release ? kb.jax_plugin(v.extra, *release) : nullptr;
        const Version built = plugin != nullptr ? plugin->built_cuda : v.built_cuda;
        // The plugin is a build of one CUDA major (its with-cuda extra: nvidia-cuda-runtime-cu12):
        // `cuda` is the runtime range it runs with, within that major.
        if (f.cuda && !v.cuda.contains(*f.cuda) && !cuda_matches(f.cuda, built)) return;
        const std::optional<Version> lowest = v.cuda.lowest();
        MatrixRow r{.framework = Framework::jax,
                    .version = version,
                    .os = os,
                    .python = python,
                    .cuda = built.str(),
                    .cudnn = cudnn != nullptr ? cudnn->text() : "",
                    .nccl = v.nccl ? v.nccl->text() : "",
                    .variant = v.extra,
                    .archs = plugin != nullptr ? arch_list(plugin->archs, plugin->ptx) : ">= " + v.min_cc.str(),
                    .note = "runs with CUDA " + std::to_string(built.major()) + ".x" +
                            (lowest ? " (>=" + lowest->str() + ")" : std::string()) +
                            ", driver >= " + v.driver_linux.str(),
                    .source = run != nullptr ? run->source : v.source};
        add_source(r, "archs", plugin != nullptr ? plugin->source : std::string());
        add_source(r, "cudnn", cudnn == &v.cudnn ? v.cudnn_source : std::string());
        add_source(r, "nccl", v.nccl_source);
        add_source(r, "cuda", v.cuda_source);
        if (run != nullptr) {
          for (const JaxYanked& y : kb.jax.yanked) {
            if (!run->versions.contains(y.version)) continue;
            r.yanked.push_back(y.version.str());
            r.note += "; " + y.version.str() + " yanked on PyPI";
            add_source(r, "yanked", y.source);
          }
        }
        if (f.cc) {
          const ArchCoverage c = kb.jax_coverage(v, release, *f.cc);
          r.gpu = c == ArchCoverage::none ? "none" : jetson ? "unknown" : to_string(c);
          if (r.gpu == "none") return;
        }
        rows.push_back(std::move(r));
      };
      // One row per harvested run of releases and extra, newest first; the install guide's
      // variants when no release is recorded.
      for (auto it = kb.jax.releases.rbegin(); it != kb.jax.releases.rend(); ++it) {
        if (!keep_python(it->python)) continue;
        if (f.versions && !KnowledgeBase::jax_run_overlaps(it->versions, *f.versions)) continue;
        auto lo = it->versions.lowest();
        auto hi = it->versions.highest();
        std::string version = lo && hi && *lo != *hi ? lo->str() + "-" + hi->str() : (hi ? hi->str() : "");
        for (const std::string& extra : it->extras) {
          const JaxVariant* v = kb.jax_variant(extra);
          if (v == nullptr) continue;
          add(*v, version, it->python.text(), kb.jax_cudnn(*v, hi), &*it, hi);
        }
      }
      if (kb.jax.releases.empty() && !f.python) {
        for (const JaxVariant& v : kb.jax.variants) add(v, "jax[" + v.extra + "]", "", &v.cudnn, nullptr, std::nullopt);
      }
    }
  }
  return rows;
}

MatrixView matrix_view(const KnowledgeBase& kb, const MatrixFilter& f) {
  MatrixView view;
  view.filter = f;
  if (!f.gpu_name.empty()) {
    GpuMatch m = kb.find_gpu(f.gpu_name);
    MatrixGpu g;
    g.query = f.gpu_name;
    g.known = m.model != nullptr;
    if (m.model != nullptr) {
      g.name = m.model->name;
      g.cc = m.model->cc;
      g.arch = m.model->arch;
    }
    g.suggestions = std::move(m.suggestions);
    g.ambiguous = std::move(m.ambiguous);
    view.gpu = std::move(g);
  }
  view.frameworks = matrix_framework_rows(kb, f);
  // The companion pins of the TensorFlow shown: a series whose range holds a shown TF release.
  if (!f.framework || *f.framework == Framework::tensorflow) {
    for (auto it = kb.tensorflow.addons.rbegin(); it != kb.tensorflow.addons.rend(); ++it) {
      bool shown = std::any_of(view.frameworks.begin(), view.frameworks.end(), [&](const MatrixRow& r) {
        auto v = Version::parse(r.version);
        return r.framework == Framework::tensorflow && v && it->tensorflow.contains(*v);
      });
      if (shown) view.addons.push_back(*it);
    }
  }
  for (const CudaDriverRow& d : kb.cuda_drivers) {
    if (f.cuda && !d.cuda.same_series(*f.cuda, f.cuda->parts().size() < 2 ? 1 : 2)) continue;
    view.drivers.push_back(d);
  }
  view.families = kb.cuda_families;
  for (const ToolkitArch& t : kb.toolkit_archs) {
    if (!f.cuda || t.cuda.contains(*f.cuda)) view.toolkit_archs.push_back(t);
  }
  view.generations = kb.generations;
  for (const GpuModel& g : kb.gpus) {
    if (!f.cc || g.cc.same_series(*f.cc, 2)) view.gpus.push_back(g);
  }
  for (const CudnnBuild& b : kb.cudnn_builds) {
    if (!f.cuda || b.cuda.contains(*f.cuda)) view.cudnn.push_back(b);
  }
  return view;
}

}  // namespace gpudoctor
