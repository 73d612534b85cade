#include <algorithm>

#include "core/text.hpp"
#include "kb/knowledge_base.hpp"
#include "render/matrix_render.hpp"

namespace gpudoctor {
namespace {

/// Column-aligned plain-text table (UTF-8 aware enough for the ASCII we put in it).
std::string table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> width(header.size());
  for (size_t i = 0; i < header.size(); ++i) width[i] = header[i].size();
  for (const auto& r : rows) {
    for (size_t i = 0; i < r.size() && i < width.size(); ++i) width[i] = std::max(width[i], r[i].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string out;
    for (size_t i = 0; i < header.size(); ++i) {
      std::string c = i < cells.size() ? cells[i] : "";
      out += c;
      if (i + 1 < header.size()) out += std::string(width[i] - c.size() + 2, ' ');
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out + "\n";
  };
  std::string out = line(header);
  std::vector<std::string> rule;
  rule.reserve(width.size());
  for (size_t w : width) rule.emplace_back(w, '-');
  out += line(rule);
  for (const auto& r : rows) out += line(r);
  return out;
}

std::string opt(const std::optional<Version>& v, const std::string& none = "N/A") {
  return v ? v->str() : none;
}

}  // namespace

std::string render_matrix_text(const KnowledgeBase& kb, const MatrixFilter& f) {
  std::string out;
  bool tables_only = f.drivers || f.arch || f.cudnn;
  if (!f.gpu_name.empty()) {
    GpuMatch m = kb.find_gpu(f.gpu_name);
    if (m.model != nullptr) {
      out += "GPU: " + m.model->name + ", compute capability " + m.model->cc.str() + " (" + m.model->arch +
             "); rows whose builds may run on it. gpu column: native = SASS kernels; ptx-jit = only "
             "through PTX JIT; unknown-ptx = only if the wheel ships PTX, which is not recorded; derived = the "
             "build's own list is not recorded, its toolkit could target the GPU (an assumption, unverified); "
             "unknown = no list for this platform\n\n";
    } else {
      out += "GPU '" + printable(f.gpu_name, 80) +
             "' is not in the knowledge base. Nearest: " + join(m.suggestions, ", ") + "\n\n";
    }
  }
  if (!tables_only) {
    std::vector<MatrixRow> rows = matrix_framework_rows(kb, f);
    std::vector<std::string> header{"framework", "version", "os", "python", "cuda", "cudnn", "variant"};
    if (f.cc) header.push_back("gpu");
    header.push_back("note");
    if (f.sources) header.push_back("source");
    std::vector<std::vector<std::string>> cells;
    for (const MatrixRow& r : rows) {
      std::vector<std::string> c{r.framework,
                                 r.version,
                                 r.os,
                                 r.python.empty() ? "-" : r.python,
                                 r.cuda.empty() ? "-" : r.cuda,
                                 r.cudnn.empty() ? "-" : r.cudnn,
                                 r.variant.empty() ? "-" : r.variant};
      if (f.cc) c.push_back(r.gpu);
      c.push_back(r.note.size() > 90 ? r.note.substr(0, 87) + "..." : r.note);
      if (f.sources) c.push_back(r.source);
      cells.push_back(std::move(c));
    }
    out += table(header, cells);
    out += std::to_string(rows.size()) + " rows.";
    if (!f.sources) out += " Add --sources to see where each row comes from.";
    out += "\n";
  }
  if (f.drivers) {
    std::vector<std::vector<std::string>> cells;
    for (const CudaDriverRow& d : kb.cuda_drivers) {
      if (f.cuda && !d.cuda.same_series(*f.cuda, f.cuda->parts().size() < 2 ? 1 : 2)) continue;
      std::vector<std::string> c{d.release, d.cuda.str(), ">= " + opt(d.linux),
                                 d.windows ? ">= " + d.windows->str() : "N/A"};
      if (f.sources) c.push_back(d.source);
      cells.push_back(std::move(c));
    }
    std::vector<std::string> h{"toolkit", "cuda", "driver_linux", "driver_windows"};
    if (f.sources) h.push_back("source");
    out += "\nCUDA toolkit -> minimum driver (the driver each toolkit release ships with)\n" + table(h, cells);
    cells.clear();
    for (const CudaFamily& fam : kb.cuda_families) {
      std::vector<std::string> c{std::to_string(fam.major) + ".x", ">= " + fam.linux.str(), ">= " + fam.windows.str(),
                                 fam.upper ? "< " + fam.upper->str() : "-", fam.note};
      if (f.sources) c.push_back(fam.source);
      cells.push_back(std::move(c));
    }
    std::vector<std::string> h2{"family", "driver_linux", "driver_windows", "compat_upper", "note"};
    if (f.sources) h2.push_back("source");
    out += "\nMinor-version compatibility (lowest driver for a whole CUDA major; limited feature set)\n" +
           table(h2, cells);
  }
  if (f.arch) {
    std::vector<std::vector<std::string>> cells;
    for (const ToolkitArch& t : kb.toolkit_archs) {
      if (f.cuda && !t.cuda.contains(*f.cuda)) continue;
      std::string s;
      for (const Version& v : t.sass) s += (s.empty() ? "" : " ") + v.str();
      std::vector<std::string> c{t.cuda.text(), s};
      if (f.sources) c.push_back(t.source);
      cells.push_back(std::move(c));
    }
    std::vector<std::string> h{"cuda", "sass_compute_capabilities"};
    if (f.sources) h.push_back("source");
    out += "\nCUDA toolkit -> compute capabilities it can compile for\n" + table(h, cells);
    cells.clear();
    for (const ArchGeneration& g : kb.generations) {
      std::string cc;
      for (const Version& v : g.cc) cc += (cc.empty() ? "" : " ") + v.str();
      std::vector<std::string> c{
          g.name, cc, g.first_cuda.str(), g.last_cuda_major ? std::to_string(*g.last_cuda_major) + ".x" : "ongoing",
          g.last_driver_branch.empty() ? (g.last_cuda_major ? "?" : "ongoing") : g.last_driver_branch};
      if (f.sources) c.push_back(g.source);
      cells.push_back(std::move(c));
    }
    std::vector<std::string> h2{"architecture", "cc", "first_cuda", "last_cuda", "last_driver"};
    if (f.sources) h2.push_back("source");
    out += "\nArchitectures\n" + table(h2, cells);
    cells.clear();
    for (const GpuModel& g : kb.gpus) {
      if (f.cc && !g.cc.same_series(*f.cc, 2)) continue;
      std::vector<std::string> c{g.name, g.cc.str(), g.arch};
      if (f.sources) c.push_back(g.source);
      cells.push_back(std::move(c));
    }
    std::vector<std::string> h3{"gpu", "cc", "architecture"};
    if (f.sources) h3.push_back("source");
    out += "\nGPU -> compute capability\n" + table(h3, cells);
  }
  if (f.cudnn) {
    std::vector<std::vector<std::string>> cells;
    for (const CudnnBuild& b : kb.cudnn_builds) {
      if (f.cuda && !b.cuda.contains(*f.cuda)) continue;
      std::string cc;
      if (!b.cc.empty()) cc = b.cc.front().str() + " ... " + b.cc.back().str();
      std::vector<std::string> c{b.cudnn.text(),
                                 std::to_string(b.cuda_major) + ".x",
                                 b.cuda.text(),
                                 b.linux ? ">= " + b.linux->str() : "-",
                                 b.windows ? ">= " + b.windows->str() : (b.windows_unknown ? "unknown" : "N/A"),
                                 cc.empty() ? "-" : cc};
      if (f.sources) c.push_back(b.source);
      cells.push_back(std::move(c));
    }
    std::vector<std::string> h{"cudnn", "for", "cuda", "driver_linux", "driver_windows", "cc"};
    if (f.sources) h.push_back("source");
    out += "\ncuDNN support matrix\n" + table(h, cells);
  }
  return out;
}

}  // namespace gpudoctor
