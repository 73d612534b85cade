#include <algorithm>

#include "core/text.hpp"
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

std::string render_matrix_text(const MatrixView& view) {
  const MatrixFilter& f = view.filter;
  std::string out;
  bool tables_only = f.drivers || f.arch || f.cudnn;
  if (view.gpu) {
    const MatrixGpu& g = *view.gpu;
    if (g.known) {
      out += "GPU: " + g.name + ", compute capability " + opt(g.cc) + " (" + g.arch +
             "); rows whose builds may run on it. gpu column: native = SASS kernels; ptx-jit = only "
             "through PTX JIT; unknown-ptx = only if the wheel ships PTX, which is not recorded; derived = the "
             "build's own list is not recorded, its toolkit could target the GPU (an assumption, unverified); "
             "unknown = no list for this platform\n\n";
    } else if (!g.ambiguous.empty()) {
      out += "GPU '" + printable(g.query, 80) + "' is ambiguous: it fits " + join(g.ambiguous, ", ") +
             " (not guessed: name one; rows not filtered)\n\n";
    } else {
      out += "GPU '" + printable(g.query, 80) +
             "' is not in the knowledge base. Nearest: " + join(g.suggestions, ", ") + "\n\n";
    }
  }
  if (!tables_only) {
    const std::vector<MatrixRow>& rows = view.frameworks;
    std::vector<std::string> header{"framework", "version", "os",      "python", "cuda",
                                    "cudnn",     "nccl",    "variant", "archs",  "pip_default"};
    if (f.cc) header.push_back("gpu");
    header.push_back("note");
    if (f.sources) header.push_back("source");
    std::vector<std::vector<std::string>> cells;
    for (const MatrixRow& r : rows) {
      std::vector<std::string> c{to_string(r.framework),
                                 r.version,
                                 r.os,
                                 r.python.empty() ? "-" : r.python,
                                 r.cuda.empty() ? "-" : r.cuda,
                                 r.cudnn.empty() ? "-" : r.cudnn,
                                 r.nccl.empty() ? "-" : r.nccl,
                                 r.variant.empty() ? "-" : r.variant,
                                 r.archs.empty() ? "-" : r.archs,
                                 r.pypi_default.empty() ? "-" : r.pypi_default};
      if (f.cc) c.push_back(r.gpu);
      c.push_back(r.note.size() > 90 ? r.note.substr(0, 87) + "..." : r.note);
      if (f.sources) {
        // The row's source, then each fact read elsewhere (the wheel's own files, a 3rd party).
        std::string s = r.source;
        for (const auto& [fact, src] : r.fact_sources) s += " | " + fact + ": " + src;
        c.push_back(s);
      }
      cells.push_back(std::move(c));
    }
    out += table(header, cells);
    out += std::to_string(rows.size()) +
           " rows. archs: compiled compute capabilities (SASS, +PTX) where recorded, else the lowest; "
           "nccl: what the build's pip wheels require of NCCL, where recorded; "
           "pip_default: where plain `pip install torch` gets this variant from PyPI.";
    if (!f.sources) out += " Add --sources to see where each row comes from.";
    out += "\n";
    if (!view.addons.empty()) {
      std::vector<std::vector<std::string>> addon_cells;
      for (const TfAddons& a : view.addons) {
        std::vector<std::string> c{a.addons.str(), a.tensorflow.text(), a.end_of_life.empty() ? "-" : a.end_of_life};
        if (f.sources) c.push_back(a.source);
        addon_cells.push_back(std::move(c));
      }
      std::vector<std::string> h{"tensorflow_addons", "tensorflow", "end_of_life"};
      if (f.sources) h.push_back("source");
      out +=
          "\ntensorflow-addons -> the TensorFlow each series supports (its version.py; outside the range it "
          "warns at import)\n" +
          table(h, addon_cells);
    }
  }
  if (f.drivers) {
    std::vector<std::vector<std::string>> cells;
    for (const CudaDriverRow& d : view.drivers) {
      std::vector<std::string> c{d.release, d.cuda.str(), ">= " + opt(d.linux),
                                 d.windows ? ">= " + d.windows->str() : "N/A"};
      if (f.sources) c.push_back(d.source);
      cells.push_back(std::move(c));
    }
    std::vector<std::string> h{"toolkit", "cuda", "driver_linux", "driver_windows"};
    if (f.sources) h.push_back("source");
    out +=
        "\nCUDA toolkit -> the driver each toolkit release ships with (its full feature set; every newer "
        "driver runs it too)\n" +
        table(h, cells);
    cells.clear();
    for (const CudaFamily& fam : view.families) {
      std::vector<std::string> c{
          std::to_string(fam.major) + ".x", ">= " + fam.linux.str(), ">= " + fam.windows.str(),
          fam.upper ? fam.upper->str() + " (still runs " + std::to_string(fam.major) + ".x)" : "-", fam.note};
      if (f.sources) c.push_back(fam.source);
      cells.push_back(std::move(c));
    }
    std::vector<std::string> h2{"family", "driver_linux", "driver_windows", "next_family_from", "note"};
    if (f.sources) h2.push_back("source");
    out +=
        "\nMinor-version compatibility (lowest driver for a whole CUDA major, limited feature set; drivers of a "
        "newer family keep running older CUDA majors)\n" +
        table(h2, cells);
  }
  if (f.arch) {
    std::vector<std::vector<std::string>> cells;
    for (const ToolkitArch& t : view.toolkit_archs) {
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
    for (const ArchGeneration& g : view.generations) {
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
    for (const GpuModel& g : view.gpus) {
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
    for (const CudnnBuild& b : view.cudnn) {
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
