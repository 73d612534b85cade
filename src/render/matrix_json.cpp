#include <nlohmann/json.hpp>

#include "render/json_text.hpp"
#include "render/matrix_render.hpp"

namespace gpudoctor {
namespace {

using nlohmann::json;

json str_or_null(const std::string& s) {
  return s.empty() ? json(nullptr) : json(s);
}
json opt(const std::optional<Version>& v) {
  return v ? json(v->str()) : json(nullptr);
}
json versions(const std::vector<Version>& vs) {
  json a = json::array();
  for (const Version& v : vs) a.push_back(v.str());
  return a;
}

}  // namespace

std::string render_matrix_json(const MatrixView& view) {
  const MatrixFilter& f = view.filter;
  json j;
  j["schema_version"] = kMatrixSchemaVersion;
  if (view.gpu) {
    const MatrixGpu& g = *view.gpu;
    j["gpu"] = json{{"query", g.query},
                    {"model", g.known ? json(g.name) : json(nullptr)},
                    {"compute_capability", opt(g.cc)},
                    {"suggestions", g.suggestions},
                    {"ambiguous", g.ambiguous}};
  }
  json fw = json::array();
  for (const MatrixRow& r : view.frameworks) {
    json sources = json::object();
    for (const auto& [fact, src] : r.fact_sources) {
      // Two sources of one fact (torch 2.5's Python: Linux x86_64's, Windows') are joined.
      sources[fact] = sources.contains(fact) ? json(sources[fact].get<std::string>() + "; " + src) : json(src);
    }
    fw.push_back(json{{"framework", to_string(r.framework)},
                      {"version", r.version},
                      {"os", r.os},
                      {"python", str_or_null(r.python)},
                      {"cuda", str_or_null(r.cuda)},
                      {"cudnn", str_or_null(r.cudnn)},
                      {"nccl", str_or_null(r.nccl)},
                      {"gpu_build", !r.cuda.empty()},
                      {"variant", str_or_null(r.variant)},
                      {"archs", str_or_null(r.archs)},
                      {"pypi_default", str_or_null(r.pypi_default)},
                      {"gpu_coverage", str_or_null(r.gpu)},
                      {"note", str_or_null(r.note)},
                      {"source", r.source},
                      {"fact_sources", sources},
                      {"yanked", r.yanked}});
  }
  j["frameworks"] = fw;
  json addons = json::array();
  for (const TfAddons& a : view.addons) {
    addons.push_back(json{{"tensorflow_addons", a.addons.str()},
                          {"tensorflow", a.tensorflow.text()},
                          {"end_of_life", str_or_null(a.end_of_life)},
                          {"source", a.source}});
  }
  j["tensorflow_addons"] = addons;
  json drivers = json::array();
  for (const CudaDriverRow& d : view.drivers) {
    drivers.push_back(json{{"cuda", d.cuda.str()},
                           {"release", d.release},
                           {"driver_linux", opt(d.linux)},
                           {"driver_windows", opt(d.windows)},
                           {"note", str_or_null(d.note)},
                           {"source", d.source}});
  }
  j["drivers"] = drivers;
  json fams = json::array();
  for (const CudaFamily& fam : view.families) {
    fams.push_back(json{{"cuda", std::to_string(fam.major) + ".x"},
                        {"driver_linux", fam.linux.str()},
                        {"driver_windows", fam.windows.str()},
                        {"upper", opt(fam.upper)},  // from here on a newer family's drivers (still run it)
                        {"note", fam.note},
                        {"source", fam.source}});
  }
  j["driver_families"] = fams;
  if (f.arch) {
    json ta = json::array();
    for (const ToolkitArch& t : view.toolkit_archs) {
      ta.push_back(json{{"cuda", t.cuda.text()}, {"sass", versions(t.sass)}, {"source", t.source}});
    }
    j["toolkit_archs"] = ta;
    json gens = json::array();
    for (const ArchGeneration& g : view.generations) {
      gens.push_back(json{{"name", g.name},
                          {"cc", versions(g.cc)},
                          {"first_cuda", g.first_cuda.str()},
                          {"last_cuda_major", g.last_cuda_major ? json(*g.last_cuda_major) : json(nullptr)},
                          {"last_driver_branch", str_or_null(g.last_driver_branch)},
                          {"source", g.source}});
    }
    j["generations"] = gens;
    json gpus = json::array();
    for (const GpuModel& g : view.gpus) {
      gpus.push_back(json{{"name", g.name}, {"cc", g.cc.str()}, {"arch", g.arch}, {"source", g.source}});
    }
    j["gpus"] = gpus;
  }
  if (f.cudnn) {
    json cd = json::array();
    for (const CudnnBuild& b : view.cudnn) {
      cd.push_back(json{{"cudnn", b.cudnn.text()},
                        {"cuda_major", b.cuda_major},
                        {"cuda", b.cuda.text()},
                        {"driver_linux", opt(b.linux)},
                        {"driver_windows", b.windows_unknown ? json("unknown") : opt(b.windows)},
                        {"cc", versions(b.cc)},
                        {"source", b.source}});
    }
    j["cudnn"] = cd;
  }
  return json_text(j);
}

}  // namespace gpudoctor
