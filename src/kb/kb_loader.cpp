/// Reads data/compat/*.toml into typed tables. The only file that includes toml++.
/// Every problem becomes a KbIssue with file and row; nothing here throws past this file.
#include <toml++/toml.h>

#include <algorithm>
#include <exception>
#include <set>

#include "core/pci_ids.hpp"
#include "core/text.hpp"
#include "kb/data_files.hpp"
#include "kb/knowledge_base.hpp"

namespace gpudoctor {
namespace {

using Level = KbIssue::Level;

/// Reads the keys of one TOML table (a row or a file's top level), recording what it used so
/// unknown (misspelt) keys can be reported.
class RowReader {
 public:
  RowReader(const toml::table& table, const DataFile& file, std::string where, std::vector<KbIssue>& issues)
      : table_(table), file_(file), where_(std::move(where)), issues_(issues) {}

  void issue(Level level, const std::string& message) {
    issues_.push_back(KbIssue{level, file_.path, where_, message, file_.origin});
  }

  bool has(std::string_view key) const { return table_.contains(key); }
  void mark_used(std::string_view key) { used_.insert(std::string(key)); }

  std::optional<std::string> str(std::string_view key, bool required) {
    used_.insert(std::string(key));
    const toml::node* n = table_.get(key);
    if (n == nullptr) {
      if (required) issue(Level::error, "missing required key '" + std::string(key) + "'");
      return std::nullopt;
    }
    if (auto v = n->value<std::string>()) return *v;
    issue(Level::error, "key '" + std::string(key) + "' must be a string");
    return std::nullopt;
  }

  std::string text(std::string_view key) { return str(key, false).value_or(""); }

  std::optional<Version> version(std::string_view key, bool required) {
    auto s = str(key, required);
    if (!s) return std::nullopt;
    if (s->empty() && !required) return std::nullopt;
    auto v = Version::parse(*s);
    if (!v) issue(Level::error, "key '" + std::string(key) + "': not a version: '" + printable(*s, 60) + "'");
    return v;
  }

  std::optional<VersionSpec> spec(std::string_view key, bool required) {
    auto s = str(key, required);
    if (!s) return std::nullopt;
    auto v = VersionSpec::parse(*s);
    if (!v) issue(Level::error, "key '" + std::string(key) + "': not a version range: '" + printable(*s, 60) + "'");
    return v;
  }

  std::vector<std::string> strings(std::string_view key) {
    used_.insert(std::string(key));
    std::vector<std::string> out;
    const toml::node* n = table_.get(key);
    if (n == nullptr) return out;
    const toml::array* a = n->as_array();
    if (a == nullptr) {
      issue(Level::error, "key '" + std::string(key) + "' must be an array of strings");
      return out;
    }
    for (const toml::node& e : *a) {
      if (auto v = e.value<std::string>()) {
        out.push_back(*v);
      } else {
        issue(Level::error, "key '" + std::string(key) + "' must hold strings only");
      }
    }
    return out;
  }

  std::vector<Version> versions(std::string_view key) {
    std::vector<Version> out;
    for (const std::string& s : strings(key)) {
      auto v = Version::parse(s);
      if (!v) {
        issue(Level::error, "key '" + std::string(key) + "': not a version: '" + printable(s, 60) + "'");
      } else {
        out.push_back(*v);
      }
    }
    return out;
  }

  /// A non-negative number (integer or float); absent is nullopt.
  std::optional<double> number(std::string_view key) {
    used_.insert(std::string(key));
    const toml::node* n = table_.get(key);
    if (n == nullptr) return std::nullopt;
    if (auto v = n->value<double>(); v && *v >= 0) return *v;
    issue(Level::error, "key '" + std::string(key) + "' must be a non-negative number");
    return std::nullopt;
  }

  std::optional<bool> boolean(std::string_view key) {
    used_.insert(std::string(key));
    const toml::node* n = table_.get(key);
    if (n == nullptr) return std::nullopt;
    if (auto v = n->value<bool>()) return *v;
    issue(Level::error, "key '" + std::string(key) + "' must be true or false");
    return std::nullopt;
  }

  /// The array of tables under key (each a row); a non-table element is an error.
  std::vector<const toml::table*> rows(std::string_view key) {
    used_.insert(std::string(key));
    std::vector<const toml::table*> out;
    const toml::node* n = table_.get(key);
    if (n == nullptr) return out;
    const toml::array* a = n->as_array();
    if (a == nullptr) {
      issue(Level::error, "'" + std::string(key) + "' must be an array of tables ([[" + std::string(key) + "]])");
      return out;
    }
    for (const toml::node& e : *a) {
      if (const toml::table* t = e.as_table()) {
        out.push_back(t);
      } else {
        issue(Level::error, "'" + std::string(key) + "' holds a non-table element");
      }
    }
    return out;
  }

  /// Every row needs a source: a URL or a repository path.
  std::string source() {
    auto s = str("source", false);
    if (!s || trim(*s).empty()) {
      issue(Level::error, "row has no 'source' (every row must say where its facts come from)");
      return "";
    }
    return *s;
  }

  /// Calls read(row, table) for each table of the array `key`, each through its own RowReader
  /// named "key[i]" (inside this row's name), then reports that row's unknown keys.
  template <typename Read>
  void each(std::string_view key, Read read) {
    const std::vector<const toml::table*> tables = rows(key);
    const std::string prefix = where_.empty() ? "" : where_ + ".";
    for (size_t i = 0; i < tables.size(); ++i) {
      RowReader row(*tables[i], file_, prefix + std::string(key) + "[" + std::to_string(i) + "]", issues_);
      read(row, *tables[i]);
      row.finish();
    }
  }

  /// A fact that is given needs the key that says where it comes from.
  void needs_source(bool fact_given, const std::string& source, std::string_view message) {
    if (fact_given && source.empty()) issue(Level::error, std::string(message));
  }

  void finish() {
    for (const auto& [k, v] : table_) {
      std::string key(k.str());
      if (!used_.contains(key)) issue(Level::warning, "unknown key '" + key + "' (ignored)");
    }
  }

  [[nodiscard]] const std::string& where() const { return where_; }

 private:
  const toml::table& table_;
  const DataFile& file_;
  std::string where_;
  std::vector<KbIssue>& issues_;
  std::set<std::string> used_;
};

// ---- One reader per file: the file's top level comes in as `top` ------------------------

void read_tensorflow(RowReader& top, KnowledgeBase& kb) {
  top.str("framework", false);
  TensorflowTable& t = kb.tensorflow;
  // Required: a missing key is an error from the reader, and the fact is not guessed in code.
  t.windows_gpu_last = top.version("windows_gpu_last", true).value_or(Version());
  t.windows_gpu_note = top.text("windows_gpu_note");
  t.windows_gpu_source = top.text("windows_gpu_source");
  top.needs_source(true, t.windows_gpu_source, "windows_gpu_last needs windows_gpu_source");
  t.windows_gpu_conda_cudnn = top.version("windows_gpu_conda_cudnn", false);
  t.windows_gpu_conda_source = top.text("windows_gpu_conda_source");
  top.needs_source(t.windows_gpu_conda_cudnn.has_value(), t.windows_gpu_conda_source,
                   "windows_gpu_conda_cudnn needs windows_gpu_conda_source");
  t.wsl2_min_windows_build = top.text("wsl2_min_windows_build");
  t.wsl2_source = top.text("wsl2_source");
  t.wsl2_min_driver = top.version("wsl2_min_driver", false);
  t.wsl2_min_driver_cuda = top.version("wsl2_min_driver_cuda", false);
  t.wsl2_driver_source = top.text("wsl2_driver_source");
  t.aarch64_cpu_only_source = top.text("aarch64_cpu_only_source");
  top.needs_source(t.wsl2_min_driver.has_value(), t.wsl2_driver_source, "wsl2_min_driver needs wsl2_driver_source");

  top.each("known_gaps", [&](RowReader& r, const toml::table&) {
    t.gaps.push_back(KnownGap{.table = "tensorflow",
                              .os = r.text("os"),
                              .version = r.version("version", true).value_or(Version()),
                              .source = r.source()});
  });

  top.each("build", [&](RowReader& r, const toml::table&) {
    TfBuild b;
    auto v = r.version("version", true);
    b.tested = r.text("tested");
    b.os = r.text("os");
    if (b.os != "linux" && b.os != "windows") r.issue(Level::error, "os must be 'linux' or 'windows'");
    auto py = r.spec("python", true);
    b.python_source = r.text("python_source");
    if (std::string package = r.text("package"); !package.empty()) b.package = package;
    b.package_source = r.text("package_source");
    r.needs_source(b.package != "tensorflow", b.package_source, "package needs package_source");
    b.gpu = r.boolean("gpu").value_or(true);
    b.cuda = r.version("cuda", b.gpu);
    b.cudnn = r.version("cudnn", b.gpu);
    if (!b.gpu && (b.cuda || b.cudnn)) r.issue(Level::error, "a CPU-only row (gpu = false) must not name cuda/cudnn");
    b.archs = r.versions("archs");
    b.ptx = r.version("ptx", false);
    b.archs_source = r.text("archs_source");
    r.needs_source(!b.archs.empty() || b.ptx, b.archs_source, "archs/ptx need archs_source");
    b.note = r.text("note");
    b.source = r.source();
    if (v && py) {
      b.version = *v;
      b.python = *py;
      t.builds.push_back(std::move(b));
    }
  });

  top.each("and_cuda", [&](RowReader& r, const toml::table&) {
    TfAndCuda a;
    auto s = r.spec("version", true);
    r.boolean("available");
    a.recommended = r.text("recommended");
    a.pins = r.strings("pins");
    a.no_wheel_python = r.versions("no_wheel_python");
    a.note = r.text("note");
    a.source = r.source();
    if (s) {
      a.versions = *s;
      t.and_cuda.push_back(std::move(a));
    }
  });

  top.each("keras", [&](RowReader& r, const toml::table&) {
    auto tf = r.version("tensorflow", true);
    auto keras = r.spec("keras", true);
    std::string source = r.source();
    if (tf && keras) t.keras.push_back(TfKeras{*tf, *keras, source});
  });

  top.each("addons", [&](RowReader& r, const toml::table&) {
    auto addons = r.version("addons", true);
    auto tf = r.spec("tensorflow", true);
    std::string eol = r.text("end_of_life");
    std::string source = r.source();
    if (addons && tf) t.addons.push_back(TfAddons{*addons, *tf, eol, source});
  });

  top.each("probability", [&](RowReader& r, const toml::table&) {
    auto tfp = r.version("probability", true);
    auto tf = r.version("tensorflow", true);
    bool tf_keras = r.boolean("tf_keras").value_or(false);
    std::string source = r.source();
    if (tfp && tf) t.probability.push_back(TfProbability{*tfp, *tf, tf_keras, source});
  });

  top.each("package", [&](RowReader& r, const toml::table&) {
    TfPackage p;
    p.name = r.str("name", true).value_or("");
    p.gpu = r.boolean("gpu");
    p.note = r.text("note");
    p.last_release = r.version("last_release", false);
    p.last_windows_release = r.version("last_windows_release", false);
    p.removed = r.text("removed");
    p.source = r.source();
    if (!p.name.empty()) t.packages.push_back(std::move(p));
  });
}

void read_torch_variant(RowReader& r, TorchRelease& rel) {
  TorchVariant var;
  var.tag = r.str("tag", true).value_or("");
  auto cuda = r.version("cuda", true);
  var.cudnn = r.version("cudnn", false);
  var.cudnn_source = r.text("cudnn_source");
  var.nccl = r.spec("nccl", false);
  var.nccl_source = r.text("nccl_source");
  r.needs_source(var.nccl.has_value(), var.nccl_source, "nccl needs nccl_source");
  const std::string status = r.str("status", true).value_or("stable");
  if (status == "experimental") {
    var.status = VariantStatus::experimental;
  } else if (status != "stable") {
    r.issue(Level::error, "status must be 'stable' or 'experimental'");
  }
  var.archs = r.versions("archs");
  var.ptx = r.version("ptx", false);
  var.ptx_os = r.strings("ptx_os");
  var.min_cc = r.version("min_cc", false);
  var.archs_source = r.text("archs_source");
  r.needs_source(!var.archs.empty() || var.min_cc || var.ptx, var.archs_source, "archs/min_cc/ptx need archs_source");
  var.aarch64_archs = r.versions("aarch64_archs");
  var.aarch64_ptx = r.version("aarch64_ptx", false);
  var.aarch64_source = r.text("aarch64_source");
  r.needs_source(!var.aarch64_archs.empty() || var.aarch64_ptx, var.aarch64_source,
                 "aarch64_archs/aarch64_ptx need aarch64_source");
  if (!var.tag.empty() && !var.tag.starts_with("cu")) r.issue(Level::error, "tag must look like cuXYZ");
  if (cuda && !var.tag.empty()) {
    var.cuda = *cuda;
    rel.variants.push_back(std::move(var));
  }
}

void read_pytorch(RowReader& top, KnowledgeBase& kb) {
  top.str("framework", false);
  TorchTable& t = kb.pytorch;
  t.index_url = top.str("index_url", true).value_or("https://download.pytorch.org/whl/{tag}");
  if (t.index_url.find("{tag}") == std::string::npos) top.issue(Level::error, "index_url must contain {tag}");
  t.index_source = top.text("index_source");
  top.needs_source(true, t.index_source, "index_url needs index_source");
  t.os = top.strings("os");
  top.str("os_source", false);
  top.each("release", [&](RowReader& r, const toml::table&) {
    TorchRelease rel;
    auto v = r.version("version", true);
    auto py = r.spec("python", true);
    rel.note = r.text("note");
    rel.tags_source = r.text("tags_source");
    rel.python_source = r.text("python_source");
    rel.python_windows = r.spec("python_windows", false);
    rel.python_aarch64 = r.spec("python_aarch64", false);
    rel.python_os_source = r.text("python_os_source");
    r.needs_source(rel.python_windows.has_value() || rel.python_aarch64.has_value(), rel.python_os_source,
                   "python_windows/python_aarch64 need python_os_source");
    rel.compile_python_from = r.version("compile_python_from", false);
    rel.compile_source = r.text("compile_source");
    r.needs_source(rel.compile_python_from.has_value(), rel.compile_source, "compile_python_from needs compile_source");
    rel.torchvision = r.text("torchvision");
    rel.torchaudio = r.text("torchaudio");
    rel.companions_source = r.text("companions_source");
    r.needs_source(!(rel.torchvision + rel.torchaudio).empty(), rel.companions_source,
                   "torchvision/torchaudio need companions_source");
    rel.pypi_linux = r.text("pypi_linux");
    rel.pypi_aarch64 = r.text("pypi_aarch64");
    rel.pypi_windows = r.text("pypi_windows");
    rel.pypi_source = r.text("pypi_source");
    r.needs_source(!(rel.pypi_linux + rel.pypi_aarch64 + rel.pypi_windows).empty(), rel.pypi_source,
                   "pypi_linux/pypi_aarch64/pypi_windows need pypi_source");
    rel.source = r.source();
    r.each("variant", [&](RowReader& vr, const toml::table&) { read_torch_variant(vr, rel); });
    if (v && py) {
      rel.version = *v;
      rel.python = *py;
      t.releases.push_back(std::move(rel));
    }
  });
  top.each("cudnn_refuses_cc", [&](RowReader& r, const toml::table&) {
    auto torch = r.spec("torch", true);
    auto cudnn = r.spec("cudnn", true);
    auto below = r.version("below_cc", true);
    std::string source = r.source();
    if (torch && cudnn && below) {
      t.cudnn_refuses_cc.push_back(
          TorchCudnnCcRule{.torch = *torch, .cudnn = *cudnn, .below_cc = *below, .source = std::move(source)});
    }
  });
}

void read_jax(RowReader& top, KnowledgeBase& kb) {
  top.str("framework", false);
  JaxTable& t = kb.jax;
  t.os = top.strings("os");
  t.wsl2_experimental = top.boolean("wsl2_experimental").value_or(true);
  t.note = top.text("note");
  t.source = top.source();
  top.each("variant", [&](RowReader& r, const toml::table&) {
    JaxVariant v;
    v.extra = r.str("extra", true).value_or("");
    auto bc = r.version("built_cuda", true);
    auto bd = r.version("built_cudnn", true);
    auto cuda = r.spec("cuda", true);
    auto cudnn = r.spec("cudnn", true);
    v.cuda_source = r.text("cuda_source");
    v.nccl = r.spec("nccl", false);
    v.nccl_source = r.text("nccl_source");
    r.needs_source(v.nccl.has_value(), v.nccl_source, "nccl needs nccl_source");
    auto drv = r.version("driver_linux", true);
    auto cc = r.version("min_cc", true);
    v.preferred = r.boolean("preferred").value_or(false);
    v.cudnn_source = r.text("cudnn_source");
    v.source = r.source();
    if (bc && bd && cuda && cudnn && drv && cc && !v.extra.empty()) {
      v.built_cuda = *bc;
      v.built_cudnn = *bd;
      v.cuda = *cuda;
      v.cudnn = *cudnn;
      v.driver_linux = *drv;
      v.min_cc = *cc;
      t.variants.push_back(std::move(v));
    }
  });
  top.each("release", [&](RowReader& r, const toml::table&) {
    JaxRelease rel;
    auto versions = r.spec("versions", true);
    auto python = r.spec("python", true);
    rel.extras = r.strings("extras");
    rel.cuda12_cudnn = r.spec("cuda12_cudnn", false);
    rel.cuda13_cudnn = r.spec("cuda13_cudnn", false);
    r.str("harvested", false);
    rel.note = r.text("note");
    rel.source = r.source();
    for (const std::string& e : rel.extras) {
      if (e != "cuda12" && e != "cuda13") r.issue(Level::error, "extras: unknown extra '" + printable(e, 20) + "'");
    }
    if (versions && python) {
      rel.versions = *versions;
      rel.python = *python;
      t.releases.push_back(std::move(rel));
    }
  });
  top.each("plugin", [&](RowReader& r, const toml::table&) {
    JaxPlugin p;
    p.extra = r.str("extra", true).value_or("");
    auto versions = r.spec("versions", true);
    auto built = r.version("built_cuda", true);
    p.archs = r.versions("archs");
    p.ptx = r.version("ptx", false);
    p.source = r.source();
    if (p.extra != "cuda12" && p.extra != "cuda13") r.issue(Level::error, "extra: must be cuda12 or cuda13");
    if (p.archs.empty()) r.issue(Level::error, "archs must list at least one architecture");
    if (versions && built && !p.archs.empty()) {
      p.versions = *versions;
      p.built_cuda = *built;
      t.plugins.push_back(std::move(p));
    }
  });
  top.each("yanked", [&](RowReader& r, const toml::table&) {
    auto version = r.version("version", true);
    std::string reason = r.text("reason");
    std::string source = r.source();
    if (version) t.yanked.push_back(JaxYanked{.version = *version, .reason = reason, .source = source});
  });
}

void read_string_gaps(RowReader& top, const std::string& table, std::vector<KnownGap>& out) {
  std::vector<std::string> gaps = top.strings("known_gaps");
  std::string src = top.text("known_gaps_source");
  top.needs_source(!gaps.empty(), src, "known_gaps needs known_gaps_source");
  for (const std::string& g : gaps) {
    auto v = Version::parse(g);
    if (!v) {
      top.issue(Level::error, "known_gaps: not a version: '" + printable(g, 40) + "'");
      continue;
    }
    out.push_back(KnownGap{table, "", *v, src});
  }
}

void read_cuda_drivers(RowReader& top, KnowledgeBase& kb) {
  read_string_gaps(top, "cuda_drivers", kb.cuda_gaps);
  kb.cuda_unrecorded_source = top.text("unrecorded_source");
  std::vector<std::string> unrecorded = top.strings("unrecorded");
  top.needs_source(!unrecorded.empty(), kb.cuda_unrecorded_source, "unrecorded needs unrecorded_source");
  for (const std::string& u : unrecorded) {
    if (auto v = Version::parse(u)) {
      kb.cuda_unrecorded.push_back(*v);
    } else {
      top.issue(Level::error, "unrecorded: not a version: '" + printable(u, 40) + "'");
    }
  }
  top.each("toolkit", [&](RowReader& r, const toml::table&) {
    CudaDriverRow d;
    auto v = r.version("cuda", true);
    d.release = r.text("release");
    d.linux = r.version("linux", true);
    d.windows = r.version("windows", false);
    d.note = r.text("note");
    d.source = r.source();
    if (v) {
      d.cuda = *v;
      kb.cuda_drivers.push_back(std::move(d));
    }
  });
  std::sort(kb.cuda_drivers.begin(), kb.cuda_drivers.end(),
            [](const CudaDriverRow& a, const CudaDriverRow& b) { return a.cuda > b.cuda; });
  top.each("family", [&](RowReader& r, const toml::table&) {
    CudaFamily f;
    auto major = r.version("cuda", true);
    auto lin = r.version("linux", true);
    auto win = r.version("windows", true);
    f.upper = r.version("upper", false);
    f.note = r.text("note");
    f.source = r.source();
    if (major && lin && win) {
      f.major = major->major();
      f.linux = *lin;
      f.windows = *win;
      kb.cuda_families.push_back(std::move(f));
    }
  });
}

void read_cuda_arch(RowReader& top, KnowledgeBase& kb) {
  read_string_gaps(top, "cuda_arch", kb.cuda_gaps);
  top.each("toolkit", [&](RowReader& r, const toml::table&) {
    ToolkitArch a;
    auto s = r.spec("cuda", true);
    a.sass = r.versions("sass");
    if (a.sass.empty()) r.issue(Level::error, "sass must list at least one architecture");
    a.note = r.text("note");
    a.source = r.source();
    if (s) {
      a.cuda = *s;
      kb.toolkit_archs.push_back(std::move(a));
    }
  });
  top.each("generation", [&](RowReader& r, const toml::table&) {
    ArchGeneration g;
    g.name = r.str("name", true).value_or("");
    g.cc = r.versions("cc");
    auto first = r.version("first_cuda", true);
    if (auto last = r.version("last_cuda", false)) g.last_cuda_major = last->major();
    g.last_driver_branch = r.text("last_driver_branch");
    g.note = r.text("note");
    g.source = r.source();
    if (first) g.first_cuda = *first;
    kb.generations.push_back(std::move(g));
  });
  top.each("no_tensor_cores", [&](RowReader& r, const toml::table&) {
    ChipWithoutTensorCores c;
    c.chip = r.str("chip", true).value_or("");
    c.devices = r.strings("devices");
    c.note = r.text("note");
    c.source = r.source();
    if (!c.chip.empty()) kb.chips_without_tensor_cores.push_back(std::move(c));
  });
}

void read_gpus(RowReader& top, KnowledgeBase& kb) {
  top.each("gpu", [&](RowReader& r, const toml::table&) {
    GpuModel g;
    g.name = r.str("name", true).value_or("");
    auto cc = r.version("cc", true);
    g.arch = r.text("arch");
    std::string host = r.text("host");
    g.host_source = r.text("host_source");
    if (!host.empty() && host != "aarch64") r.issue(Level::error, "host must be \"aarch64\" when given");
    g.arm_host = host == "aarch64";
    r.needs_source(g.arm_host, g.host_source, "host needs host_source");
    g.note = r.text("note");
    g.source = r.source();
    r.str("pci_device_ids", false);
    g.key = normalize_gpu_name(g.name);
    if (g.key.empty() && !g.name.empty()) r.issue(Level::error, "name has nothing to match on");
    if (cc && !g.key.empty()) {
      g.cc = *cc;
      kb.gpus.push_back(std::move(g));
    }
  });
}

void read_driver_branches(RowReader& top, KnowledgeBase& kb) {
  top.str("harvested", false);
  top.each("legacy", [&](RowReader& r, const toml::table&) {
    LegacyDriverBranch b;
    b.branch = r.str("branch", true).value_or("");
    b.devices = r.strings("devices");
    b.source = r.source();
    auto major = Version::parse(b.branch.substr(0, b.branch.find(".xx")));
    if (!b.branch.ends_with(".xx") || !major) r.issue(Level::error, "branch must read like \"470.xx\"");
    if (major) b.major = major->major();
    for (const std::string& d : b.devices) {
      if (d.size() != 4 || d.find_first_not_of("0123456789abcdef") != std::string::npos) {
        r.issue(Level::error, "device '" + printable(d, 20) + "' is not 4 lower-case hex digits");
      }
    }
    kb.legacy_branches.push_back(std::move(b));
  });
  top.each("package", [&](RowReader& r, const toml::table&) {
    DriverBranchPackage p;
    p.distro = r.str("distro", true).value_or("");
    p.suite = r.text("suite");
    p.version_id = r.text("version_id");
    p.package = r.str("package", true).value_or("");
    p.version = r.str("version", true).value_or("");
    auto branch = r.version("branch", true);
    p.source = r.source();
    if (branch) p.branch = branch->major();
    kb.branch_packages.push_back(std::move(p));
  });
  std::sort(kb.legacy_branches.begin(), kb.legacy_branches.end(),
            [](const LegacyDriverBranch& a, const LegacyDriverBranch& b) { return a.major > b.major; });
}

void read_gpu_peaks(RowReader& top, KnowledgeBase& kb) {
  top.each("peak", [&](RowReader& r, const toml::table&) {
    GpuPeak p;
    p.name = r.str("name", true).value_or("");
    p.variant = r.text("variant");
    p.form = r.text("form");
    if (!p.form.empty() && p.form != "sxm" && p.form != "pcie" && p.form != "nvl") {
      r.issue(Level::error, "form \"" + p.form + "\" is none of sxm, pcie, nvl");
    }
    if (auto gb = r.number("memory_gb")) p.memory_gb = static_cast<int>(*gb);
    p.mem_bw_gbps = r.number("mem_bw_gbps");
    p.fp32_tflops = r.number("fp32_tflops");
    p.tf32_tflops = r.number("tf32_tflops");
    p.fp16_tflops = r.number("fp16_tflops");
    p.bf16_tflops = r.number("bf16_tflops");
    p.fp8_tflops = r.number("fp8_tflops");
    p.source = r.source();
    p.key = normalize_gpu_name(p.name);
    if (p.key.empty()) {
      if (!p.name.empty()) r.issue(Level::error, "name has nothing to match on");
      return;
    }
    kb.gpu_peaks.push_back(std::move(p));
  });
}

void read_cudnn(RowReader& top, KnowledgeBase& kb) {
  top.each("build", [&](RowReader& r, const toml::table& row) {
    CudnnBuild b;
    auto cudnn = r.spec("cudnn", true);
    auto major = r.version("cuda_major", true);
    auto cuda = r.spec("cuda", true);
    b.linux = r.version("linux", false);
    // "unknown": the source gives no Windows driver; "" means N/A (no Windows build).
    if (const toml::node* w = row.get("windows"); w != nullptr && w->value_or(std::string_view{}) == "unknown") {
      r.str("windows", false);
      b.windows_unknown = true;
    } else {
      b.windows = r.version("windows", false);
    }
    b.cc = r.versions("cc");
    b.note = r.text("note");
    b.source = r.source();
    if (cudnn && major && cuda) {
      b.cudnn = *cudnn;
      b.cuda_major = major->major();
      b.cuda = *cuda;
      kb.cudnn_builds.push_back(std::move(b));
    }
  });
  // The per-major file lists are read for their shape and sources only; the probes name files.
  top.each("files", [&](RowReader& r, const toml::table&) {
    r.version("major", true);
    r.strings("linux");
    r.strings("windows");
    r.source();
  });
}

void read_python(RowReader& top, KnowledgeBase& kb) {
  top.each("python", [&](RowReader& r, const toml::table&) {
    auto vs = r.versions("versions");
    kb.python_source = r.source();
    kb.python_versions.insert(kb.python_versions.end(), vs.begin(), vs.end());
  });
  std::sort(kb.python_versions.begin(), kb.python_versions.end());
  top.each("numpy_abi", [&](RowReader& r, const toml::table&) {
    NumpyAbiRow row;
    row.package = r.str("package", true).value_or("");
    auto versions = r.spec("versions", true);
    auto built_for = r.version("built_for", true);
    row.binary = r.str("binary", true).value_or("");
    row.effect = r.str("effect", true).value_or("");
    row.source = r.source();
    if (versions && built_for && !row.package.empty()) {
      row.versions = *versions;
      row.built_for = built_for->major();
      kb.numpy_abi.push_back(std::move(row));
    }
  });
}

struct FileReader {
  std::string_view path;
  void (*read)(RowReader& top, KnowledgeBase& kb);
};

constexpr FileReader kReaders[] = {
    {"compat/tensorflow.toml", read_tensorflow},
    {"compat/pytorch.toml", read_pytorch},
    {"compat/jax.toml", read_jax},
    {"compat/cuda_drivers.toml", read_cuda_drivers},
    {"compat/cuda_arch.toml", read_cuda_arch},
    {"compat/gpus.toml", read_gpus},
    {"compat/driver_branches.toml", read_driver_branches},
    {"compat/gpu_peaks.toml", read_gpu_peaks},
    {"compat/cudnn.toml", read_cudnn},
    {"compat/python.toml", read_python},
};

}  // namespace

KnowledgeBase KnowledgeBase::parse(const std::vector<DataFile>& files, std::vector<KbIssue>& issues) {
  KnowledgeBase kb;
  std::set<std::string_view> seen;
  for (const DataFile& f : files) {
    const FileReader* reader = nullptr;
    for (const FileReader& r : kReaders) {
      if (r.path == f.path) reader = &r;
    }
    if (reader == nullptr) {
      if (f.path.ends_with(".toml")) {
        issues.push_back(KbIssue{Level::warning, f.path, "", "not a known table; ignored", f.origin});
      }
      continue;
    }
    seen.insert(reader->path);
    toml::table root;
#if TOML_EXCEPTIONS
    try {
      root = toml::parse(f.content, f.path);
    } catch (const toml::parse_error& e) {
      issues.push_back(KbIssue{Level::error, f.path, "line " + std::to_string(e.source().begin.line),
                               "TOML syntax: " + std::string(e.description()), f.origin});
      continue;
    }
#else
    toml::parse_result pr = toml::parse(f.content, f.path);
    if (!pr) {
      issues.push_back(KbIssue{Level::error, f.path, "line " + std::to_string(pr.error().source().begin.line),
                               "TOML syntax: " + std::string(pr.error().description()), f.origin});
      continue;
    }
    root = std::move(pr).table();
#endif
    try {
      RowReader top(root, f, "", issues);
      reader->read(top, kb);
      top.finish();
    } catch (const std::exception& e) {
      issues.push_back(KbIssue{Level::error, f.path, "", std::string("unreadable: ") + e.what(), f.origin});
    }
    kb.files_loaded.push_back(f.path + " (" + f.origin + ")");
  }
  for (const FileReader& r : kReaders) {
    if (!seen.contains(r.path)) {
      issues.push_back(KbIssue{Level::error, std::string(r.path), "", "table missing", ""});
    }
  }
  return kb;
}

std::optional<Error> KnowledgeBase::read_pci_names(const std::string& kb_dir) {
  auto pci = load_data_files("pci/", kb_dir);
  if (!pci) return pci.error();
  for (const DataFile& f : *pci) {
    pci_names.merge(parse_pci_ids_nvidia(f.content));
    files_loaded.push_back(f.path + " (" + f.origin + ")");
  }
  return std::nullopt;
}

Result<KnowledgeBase> KnowledgeBase::load(const std::string& kb_dir) {
  auto files = load_data_files("compat/", kb_dir);
  if (!files) return files.error();
  std::vector<KbIssue> issues;
  KnowledgeBase kb = parse(*files, issues);
  if (std::optional<Error> e = kb.read_pci_names(kb_dir)) return *e;
  kb.validate(issues);
  std::vector<std::string> errors;
  for (const KbIssue& i : issues) {
    if (i.level == Level::error) errors.push_back(i.str());
  }
  if (!errors.empty()) {
    std::string msg = std::to_string(errors.size()) + " error(s) in the knowledge base";
    for (size_t i = 0; i < errors.size() && i < 5; ++i) msg += "\n  " + errors[i];
    if (errors.size() > 5) msg += "\n  ... (run `gpudoctor kb validate` for all)";
    return Error{ErrorKind::invalid_data, msg, kb_dir.empty() ? "built-in" : kb_dir, 0};
  }
  return kb;
}

}  // namespace gpudoctor
