#include "kb/matrix_query.hpp"

#include <algorithm>

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

}  // namespace

std::vector<MatrixRow> matrix_framework_rows(const KnowledgeBase& kb, const MatrixFilter& f) {
  std::vector<MatrixRow> rows;
  auto keep_python = [&](const VersionSpec& s) { return !f.python || s.contains(*f.python); };
  const bool jetson = f.cc && kb.is_jetson(f.gpu_name, f.cc);
  if (!f.framework || *f.framework == Framework::tensorflow) {
    for (const TfBuild& b : kb.tensorflow.builds) {
      if (!os_matches(f.os, b.os) || !cuda_matches(f.cuda, b.cuda) || !keep_python(b.python)) continue;
      MatrixRow r{.framework = Framework::tensorflow,
                  .version = b.version.str(),
                  .os = b.os,
                  .python = b.python.text(),
                  .cuda = b.cuda ? b.cuda->str() : "",
                  .cudnn = b.cudnn ? b.cudnn->str() : "",
                  .note = b.note,
                  .source = b.source};
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
    std::string os;
    for (const std::string& o : kb.pytorch.os) os += (os.empty() ? "" : ",") + o;
    if (os_matches(f.os, os)) {
      for (const TorchRelease& rel : kb.pytorch.releases) {
        if (!keep_python(rel.python)) continue;
        for (const TorchVariant& v : rel.variants) {
          if (!cuda_matches(f.cuda, v.cuda)) continue;
          MatrixRow r{.framework = Framework::pytorch,
                      .version = rel.version.str(),
                      .os = os,
                      .python = rel.python.text(),
                      .cuda = v.cuda.str(),
                      .cudnn = v.cudnn ? v.cudnn->str() : "",
                      .variant = v.tag,
                      .note = v.status == VariantStatus::experimental ? "experimental" : "",
                      .source = rel.source};
          if (f.cc) {
            r.gpu = to_string(kb.torch_coverage(v, *f.cc, f.os.value_or(Platform::linux), jetson));
            if (r.gpu == "none") continue;
          }
          if (!v.archs.empty()) {
            std::string a;
            for (const Version& x : v.archs) a += (a.empty() ? "" : " ") + x.str();
            r.note += std::string(r.note.empty() ? "" : "; ") + "archs " + a + (v.ptx ? " +PTX " + v.ptx->str() : "");
          } else if (v.min_cc) {
            r.note += std::string(r.note.empty() ? "" : "; ") + "min CC " + v.min_cc->str();
          }
          rows.push_back(std::move(r));
        }
      }
    }
  }
  if (!f.framework || *f.framework == Framework::jax) {
    std::string os;
    for (const std::string& o : kb.jax.os) os += (os.empty() ? "" : ",") + o;
    if (os_matches(f.os, os) && !f.python) {
      for (const JaxVariant& v : kb.jax.variants) {
        if (f.cuda && !v.cuda.contains(*f.cuda) && !cuda_matches(f.cuda, v.built_cuda)) continue;
        MatrixRow r{.framework = Framework::jax,
                    .version = "jax[" + v.extra + "]",
                    .os = os,
                    .python = "",
                    .cuda = v.built_cuda.str(),
                    .cudnn = v.built_cudnn.str(),
                    .variant = v.extra,
                    .note = "runs with CUDA " + v.cuda.text() + ", cuDNN " + v.cudnn.text() +
                            ", driver >= " + v.driver_linux.str() + ", CC >= " + v.min_cc.str(),
                    .source = v.source};
        if (f.cc) {
          r.gpu = f.cc->truncated(2) < v.min_cc.truncated(2) ? "none" : jetson ? "unknown" : "native";
          if (r.gpu == "none") continue;
        }
        rows.push_back(std::move(r));
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
    view.gpu = std::move(g);
  }
  view.frameworks = matrix_framework_rows(kb, f);
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
