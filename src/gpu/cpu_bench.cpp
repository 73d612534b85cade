#include "gpu/cpu_bench.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "core/text.hpp"
#include "gpu/child_lines.hpp"
#include "gpu/entry_points.hpp"
#include "gpu/verify_math.hpp"
#include "model/json_codec.hpp"
#include "platform/host_fs.hpp"

#if defined(GPUDOCTOR_HAVE_DNNL_HEADERS)
#include <oneapi/dnnl/dnnl.h>
#endif

#if defined(__linux__)
#include <sched.h>
#endif

namespace gpudoctor::gpu {
namespace {

using json = nlohmann::ordered_json;

inline constexpr int kCblasRowMajor = 101;
inline constexpr int kCblasNoTrans = 111;

// clang-format off
/// OpenBLAS's CBLAS and its own calls, declared by hand (cblas.h's values). The dimensions are
/// `blasint`: int in the usual (LP64) build, int64_t in an ILP64 one (INTERFACE64=1), which
/// numpy's wheels bundle with the names suffixed (scipy_cblas_sgemm64_) and Debian's
/// libopenblas64 exports unsuffixed. Both forms get a slot; the thread and config calls take
/// and return int in either.
#define GPUDOCTOR_OPENBLAS_ENTRY_POINTS(X)                                                                     \
  X(sgemm64,  void, (int, int, int, std::int64_t, std::int64_t, std::int64_t, float, const float*,             \
                     std::int64_t, const float*, std::int64_t, float, float*, std::int64_t), Need::optional,   \
                     "scipy_cblas_sgemm64_", "cblas_sgemm64_")                                                 \
  X(sgemm,    void, (int, int, int, int, int, int, float, const float*, int, const float*, int, float,        \
                     float*, int), Need::optional, "cblas_sgemm", "scipy_cblas_sgemm")                         \
  X(set_num_threads, void, (int),  Need::optional, "openblas_set_num_threads",                                 \
                     "scipy_openblas_set_num_threads64_", "openblas_set_num_threads64_",                       \
                     "scipy_openblas_set_num_threads")                                                         \
  X(get_num_threads, int, (),      Need::optional, "openblas_get_num_threads",                                 \
                     "scipy_openblas_get_num_threads64_", "openblas_get_num_threads64_",                       \
                     "scipy_openblas_get_num_threads")                                                         \
  X(get_config,      char*, (),    Need::optional, "openblas_get_config", "scipy_openblas_get_config64_",      \
                     "openblas_get_config64_", "scipy_openblas_get_config")                                    \
  X(get_corename,    char*, (),    Need::optional, "openblas_get_corename", "scipy_openblas_get_corename64_",  \
                     "openblas_get_corename64_", "scipy_openblas_get_corename")
// clang-format on

struct OpenblasApi : VendorLibrary {
  GPUDOCTOR_OPENBLAS_ENTRY_POINTS(GPUDOCTOR_DECLARE_ENTRY_POINT)
};

Result<OpenblasApi> load_openblas(const std::vector<std::string>& names) {
  return load_api<OpenblasApi>(
      names, [](OpenblasApi& api, BindState& state) { GPUDOCTOR_OPENBLAS_ENTRY_POINTS(GPUDOCTOR_BIND_ENTRY_POINT) });
}

/// The library's SGEMM with the integer width it was built with. An unsuffixed cblas_sgemm is
/// ILP64 when the build says so (USE64BITINT in openblas_get_config): called with 32-bit ints,
/// its 64-bit dimensions would take whatever the upper halves of the registers and stack
/// slots hold.
struct Sgemm {
  decltype(OpenblasApi::sgemm) lp64 = nullptr;
  decltype(OpenblasApi::sgemm64) ilp64 = nullptr;
  void operator()(int n, const float* a, const float* b, float* c) const {
    if (ilp64 != nullptr) {
      std::int64_t m = n;
      ilp64(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, m, m, m, 1.0F, a, m, b, m, 0.0F, c, m);
    } else {
      lp64(kCblasRowMajor, kCblasNoTrans, kCblasNoTrans, n, n, n, 1.0F, a, n, b, n, 0.0F, c, n);
    }
  }
};

std::optional<Sgemm> choose_sgemm(const OpenblasApi& api, const std::string& config) {
  if (api.sgemm64 != nullptr) return Sgemm{.lp64 = nullptr, .ilp64 = api.sgemm64};
  // Unsuffixed, the width is only known from OpenBLAS's own config: a BLAS without it (netlib's
  // libblas64, an ILP64 BLIS) would be called with 32-bit dimensions it reads as 64-bit ones.
  if (api.sgemm == nullptr || api.get_config == nullptr) return std::nullopt;
  if (config.find("USE64BITINT") != std::string::npos) {
    // The same symbol looked up again, as the 64-bit form it is.
    for (const BoundSymbol& b : api.bound) {
      if (b.slot != "sgemm") continue;
      void* address = api.library.symbol(b.symbol.c_str());
      if (address == nullptr) return std::nullopt;
      return Sgemm{.lp64 = nullptr, .ilp64 = reinterpret_cast<decltype(OpenblasApi::sgemm64)>(address)};
    }
    return std::nullopt;
  }
  return Sgemm{.lp64 = api.sgemm, .ilp64 = nullptr};
}

/// A library to try: one of the loader's names (lib=), absent on many machines; one the user
/// named (named=, --openblas), whose absence is a failure; or a copy a Python package bundles
/// (bundled=), whose failure to load is a note, never the figure's failure.
struct LibraryCandidate {
  enum class Kind { system, named, bundled };
  std::string name;
  Kind kind = Kind::system;
};

/// Every "lib=", "named=" and "bundled=" among the arguments, in order.
std::vector<LibraryCandidate> library_args(const std::vector<std::string>& args) {
  using Kind = LibraryCandidate::Kind;
  std::vector<LibraryCandidate> names;
  for (const auto& a : args) {
    if (a.starts_with("lib=")) names.push_back({a.substr(4), Kind::system});
    if (a.starts_with("named=")) names.push_back({a.substr(6), Kind::named});
    if (a.starts_with("bundled=")) names.push_back({a.substr(8), Kind::bundled});
  }
  return names;
}

/// The "refused=PATH: why" arguments: bundled copies not offered because others could change them.
std::vector<std::string> refused_args(const std::vector<std::string>& args) {
  std::vector<std::string> refused;
  for (const auto& a : args) {
    if (a.starts_with("refused=")) refused.push_back(printable(a.substr(8), 300));
  }
  return refused;
}

int int_arg(const std::vector<std::string>& args, size_t i, int fallback) {
  if (i >= args.size()) return fallback;
  char* end = nullptr;
  long v = std::strtol(args[i].c_str(), &end, 10);
  return end != args[i].c_str() && *end == '\0' && v > 0 && v <= 1 << 16 ? static_cast<int>(v) : fallback;
}

/// "threads=N" among the arguments, else every usable CPU.
int threads_arg(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a.starts_with("threads=")) {
      int n = std::atoi(a.c_str() + 8);
      if (n > 0 && n <= 4096) return n;
    }
  }
  return usable_cpu_count();
}

void finish(ChildChannel& out, const BenchMeasurement& m) {
  send_json_line(out, json{{"measurement", measurement_to_json(m)}});
}

#if defined(_WIN32)
constexpr const char* kOpenblasInstallHint =
    " (OpenBLAS's Windows release puts libopenblas.dll in its bin folder: add that to Path, or pass --openblas; "
    "a Python environment with numpy, given with --env, lends its own copy)";
#else
constexpr const char* kOpenblasInstallHint = " (Debian: apt-get install libopenblas0)";
#endif

void bench_sgemm(const std::vector<std::string>& args, ChildChannel& out) {
  BenchMeasurement m{.key = "cpu.sgemm_fp32", .unit = "gflops", .status = BenchStatus::failed};
  const int n = int_arg(args, 1, 1024);
  const std::string budget = args.size() > 2 ? args[2] : "default";
  using Kind = LibraryCandidate::Kind;
  std::vector<LibraryCandidate> candidates = library_args(args);
  if (candidates.empty()) {
    for (std::string& name : openblas_names()) candidates.push_back({std::move(name), Kind::system});
  }
  const std::vector<std::string> refused = refused_args(args);
  const std::string refused_note =
      refused.empty() ? std::string() : "not used, others could change them: " + join(refused, "; ");
  // The first library that loads and has an SGEMM of either width is measured; one that loads
  // without it (a build without CBLAS) is passed over, so a later one still gets its turn.
  std::optional<OpenblasApi> api;
  std::optional<Sgemm> sgemm;
  std::string raw_config;
  std::vector<std::string> passed_over;
  bool named_one_broken = false;  // a library of the system's or --openblas exists but cannot serve
  for (const LibraryCandidate& candidate : candidates) {
    send_call_line(out, "dlopen " + printable(candidate.name, 300));
    auto loaded = load_openblas({candidate.name});
    if (!loaded) {
      // The loader's names are absent on most machines; a library the user named is not.
      if (loaded.error().kind == ErrorKind::not_found && candidate.kind != Kind::named) continue;
      passed_over.push_back(printable(candidate.name + ": " + loaded.error().message, 400));
      named_one_broken = named_one_broken || candidate.kind != Kind::bundled;
      continue;
    }
    std::string config = loaded->get_config != nullptr ? printable(loaded->get_config(), 200) : "";
    if (auto chosen = choose_sgemm(*loaded, config)) {
      api.emplace(std::move(loaded).value());
      sgemm = chosen;
      raw_config = std::move(config);
      break;
    }
    passed_over.push_back(
        printable(loaded->library.path(), 300) +
        (loaded->sgemm != nullptr
             ? ": exports cblas_sgemm but not openblas_get_config, so its integer width (LP64 or "
               "ILP64) is unknown: not an OpenBLAS"
             : ": exports no cblas_sgemm (nor scipy_cblas_sgemm64_, cblas_sgemm64_, scipy_cblas_sgemm)"));
    named_one_broken = named_one_broken || candidate.kind != Kind::bundled;
  }
  if (!api) {
    m.status = named_one_broken ? BenchStatus::failed : BenchStatus::skipped;
    if (passed_over.empty()) {
      std::string tried;
      for (size_t i = 0; i < candidates.size() && i < 3; ++i)
        tried += (i == 0 ? "" : ", ") + printable(candidates[i].name, 200);
      if (candidates.size() > 3) tried += " and " + std::to_string(candidates.size() - 3) + " more";
      m.detail = "OpenBLAS: not found (" + tried + ")" + kOpenblasInstallHint;
    } else {
      m.detail = "OpenBLAS: no library that can serve: " + join(passed_over, "; ") +
                 (named_one_broken ? std::string() : std::string(kOpenblasInstallHint));
    }
    if (!refused_note.empty()) m.detail += "; " + refused_note;
    finish(out, m);
    return;
  }
  const int threads = threads_arg(args);
  if (api->set_num_threads != nullptr) {
    send_call_line(out, "openblas_set_num_threads");
    api->set_num_threads(threads);
  }
  int used = api->get_num_threads != nullptr ? api->get_num_threads() : threads;
  std::string config = raw_config.empty() ? "OpenBLAS" : printable(raw_config, 120);
  std::string core = api->get_corename != nullptr ? printable(api->get_corename(), 40) : "";
  // The file whose SGEMM runs: dlsym also finds a dependency's, which a shim forwards to.
  const void* entry = sgemm->ilp64 != nullptr ? reinterpret_cast<const void*>(sgemm->ilp64)
                                              : reinterpret_cast<const void*>(sgemm->lp64);
  const std::string holder = DynamicLibrary::file_holding(entry);
  const std::string through =
      holder.empty() || holder == api->library.path() ? "" : printable(holder, 300) + " through ";
  m.library = config + (core.empty() ? "" : ", core " + core) + (sgemm->ilp64 != nullptr ? ", ILP64" : "") + ", " +
              std::to_string(used) + " thread(s), " + through + printable(api->library.path(), 300);
  const size_t count = static_cast<size_t>(n) * static_cast<size_t>(n);
  std::vector<float> a = test_values(count, 3);
  std::vector<float> b = test_values(count, 5);
  std::vector<float> c(count, NAN);
  auto once = [&]() {
    double t0 = monotonic_seconds();
    (*sgemm)(n, a.data(), b.data(), c.data());
    return monotonic_seconds() - t0;
  };
  send_call_line(out, "cblas_sgemm");
  SampleStats stats = summarize(sample_times(once, bench_policy(budget)));
  fill_rate(m, stats, gemm_flops(n, n, n), 1e9);
  BoundCheck check = check_gemm_sampled(a.data(), b.data(), c.data(), n, n, n, check_samples(n), kFloatUnitRoundoff);
  m.check = check.summary;
  m.check_passed = check.passed;
  m.detail =
      "cblas_sgemm " + std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(n) + ", row-major, FP32";
  if (!passed_over.empty()) m.detail += " (passed over: " + join(passed_over, "; ") + ")";
  if (!refused_note.empty()) m.detail += " (" + refused_note + ")";
  m.status = check.passed ? BenchStatus::ok : BenchStatus::failed;
  finish(out, m);
}

#if defined(GPUDOCTOR_HAVE_DNNL_HEADERS)

/// oneDNN's C API (dnnl.h, 2.x), bound at run time; the types come from Debian's header.
struct OnednnApi : VendorLibrary {
  decltype(&::dnnl_version) version = nullptr;
  decltype(&::dnnl_engine_create) engine_create = nullptr;
  decltype(&::dnnl_stream_create) stream_create = nullptr;
  decltype(&::dnnl_stream_wait) stream_wait = nullptr;
  decltype(&::dnnl_memory_desc_init_by_tag) md_init_by_tag = nullptr;
  decltype(&::dnnl_memory_desc_get_size) md_size = nullptr;
  decltype(&::dnnl_convolution_forward_desc_init) conv_forward_init = nullptr;
  decltype(&::dnnl_primitive_desc_create) pd_create = nullptr;
  decltype(&::dnnl_primitive_desc_query) pd_query = nullptr;
  decltype(&::dnnl_primitive_desc_query_md) pd_query_md = nullptr;
  decltype(&::dnnl_reorder_primitive_desc_create) reorder_pd_create = nullptr;
  decltype(&::dnnl_primitive_create) primitive_create = nullptr;
  decltype(&::dnnl_primitive_execute) primitive_execute = nullptr;
  decltype(&::dnnl_memory_create) memory_create = nullptr;
};

// clang-format off
/// oneDNN 1.0's C API (the dnnl_ names), unchanged through 2.x; 3.0 replaced the op descriptors.
#define GPUDOCTOR_ONEDNN_ENTRY_POINTS(X)                                                         \
  X(version, Need::required, "dnnl_version") X(engine_create, Need::required, "dnnl_engine_create") \
  X(stream_create, Need::required, "dnnl_stream_create") X(stream_wait, Need::required, "dnnl_stream_wait") \
  X(md_init_by_tag, Need::required, "dnnl_memory_desc_init_by_tag")                              \
  X(md_size, Need::required, "dnnl_memory_desc_get_size")                                        \
  X(conv_forward_init, Need::required, "dnnl_convolution_forward_desc_init")                     \
  X(pd_create, Need::required, "dnnl_primitive_desc_create")                                     \
  X(pd_query, Need::optional, "dnnl_primitive_desc_query")                                       \
  X(pd_query_md, Need::required, "dnnl_primitive_desc_query_md")                                 \
  X(reorder_pd_create, Need::required, "dnnl_reorder_primitive_desc_create")                     \
  X(primitive_create, Need::required, "dnnl_primitive_create")                                   \
  X(primitive_execute, Need::required, "dnnl_primitive_execute")                                 \
  X(memory_create, Need::required, "dnnl_memory_create")
// clang-format on
#define GPUDOCTOR_BIND_ONEDNN(slot, need, name) \
  ::gpudoctor::gpu::bind_entry_point(api.library, api.slot, #slot, need, {name}, state);

Result<OnednnApi> load_onednn(const std::vector<std::string>& names) {
  return load_api<OnednnApi>(
      names, [](OnednnApi& api, BindState& state) { GPUDOCTOR_ONEDNN_ENTRY_POINTS(GPUDOCTOR_BIND_ONEDNN) });
}

struct DnnlRun {
  ChildChannel& out;
  const OnednnApi& api;
  BenchMeasurement& m;
  bool ok(const char* call, dnnl_status_t status) {
    if (status == dnnl_success) return true;
    m.status = BenchStatus::failed;
    m.detail = std::string(call) + ": dnnl_status_t " + std::to_string(static_cast<int>(status));
    return false;
  }
  template <class Fn, class... Args>
  bool call(const char* name, Fn fn, Args&&... args) {
    send_call_line(out, name);
    return ok(name, fn(std::forward<Args>(args)...));
  }
};

/// Copies between two layouts with a reorder primitive (oneDNN picks blocked layouts for speed).
bool reorder(DnnlRun& r, dnnl_engine_t engine, dnnl_stream_t stream, dnnl_memory_t from,
             const dnnl_memory_desc_t* from_md, dnnl_memory_t to, const dnnl_memory_desc_t* to_md) {
  dnnl_primitive_desc_t pd = nullptr;
  dnnl_primitive_t prim = nullptr;
  if (!r.call("dnnl_reorder_primitive_desc_create", r.api.reorder_pd_create, &pd, from_md, engine, to_md, engine,
              nullptr) ||
      !r.call("dnnl_primitive_create", r.api.primitive_create, &prim, pd)) {
    return false;
  }
  dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
  return r.call("dnnl_primitive_execute", r.api.primitive_execute, prim, stream, 2, args) &&
         r.call("dnnl_stream_wait", r.api.stream_wait, stream);
}

void bench_conv(const std::vector<std::string>& args, ChildChannel& out) {
  BenchMeasurement m{.key = "cpu.conv_fp32", .unit = "gflops", .status = BenchStatus::failed};
  ConvShape sh = kBenchCpuConvShape;
  sh.n = int_arg(args, 1, sh.n);
  sh.c = int_arg(args, 2, sh.c);
  sh.h = int_arg(args, 3, sh.h);
  sh.w = int_arg(args, 4, sh.w);
  sh.k = int_arg(args, 5, sh.k);
  const std::string budget = args.size() > 6 ? args[6] : "default";
  std::vector<std::string> names;
  for (LibraryCandidate& c : library_args(args)) names.push_back(std::move(c.name));
  if (names.empty()) names = onednn_names();
  // Debian's oneDNN runs on OpenMP, which reads its thread count once, when it loads: this is a
  // child of its own, started for this one figure.
  const int threads = threads_arg(args);
  host_fs::set_own_environment("OMP_NUM_THREADS", std::to_string(threads));
  send_call_line(out, "dlopen " + names.front());
  auto loaded = load_onednn(names);
  if (!loaded) {
    const ErrorKind kind = loaded.error().kind;
    // A oneDNN 3.x library has no convolution descriptor to call: not measured, not broken.
    m.status =
        kind == ErrorKind::not_found || kind == ErrorKind::symbol_missing ? BenchStatus::skipped : BenchStatus::failed;
    m.detail = "oneDNN: " + loaded.error().message;
    if (kind == ErrorKind::not_found) m.detail += " (Debian: apt-get install libdnnl2)";
    if (kind == ErrorKind::symbol_missing)
      m.detail += " (this benchmark calls oneDNN 1.x-2.x's C API, whose operation descriptors 3.0 removed)";
    finish(out, m);
    return;
  }
  const OnednnApi& api = *loaded;
  DnnlRun r{.out = out, .api = api, .m = m};
  const dnnl_version_t* v = api.version();
  dnnl_engine_t engine = nullptr;
  dnnl_stream_t stream = nullptr;
  if (!r.call("dnnl_engine_create", api.engine_create, &engine, dnnl_cpu, size_t{0}) ||
      !r.call("dnnl_stream_create", api.stream_create, &stream, engine,
              static_cast<unsigned>(dnnl_stream_default_flags))) {
    finish(out, m);
    return;
  }
  dnnl_dims_t src_dims = {sh.n, sh.c, sh.h, sh.w};
  dnnl_dims_t w_dims = {sh.k, sh.c, sh.r, sh.s};
  dnnl_dims_t dst_dims = {sh.n, sh.k, sh.out_h(), sh.out_w()};
  dnnl_dims_t strides = {1, 1};
  dnnl_dims_t padding = {sh.pad, sh.pad};
  dnnl_memory_desc_t src_plain;
  dnnl_memory_desc_t w_plain;
  dnnl_memory_desc_t dst_plain;
  dnnl_memory_desc_t src_any;
  dnnl_memory_desc_t w_any;
  dnnl_memory_desc_t dst_any;
  dnnl_convolution_desc_t conv;
  dnnl_primitive_desc_t pd = nullptr;
  dnnl_primitive_t prim = nullptr;
  if (!r.call("dnnl_memory_desc_init_by_tag", api.md_init_by_tag, &src_plain, 4, src_dims, dnnl_f32, dnnl_nchw) ||
      !r.call("dnnl_memory_desc_init_by_tag", api.md_init_by_tag, &w_plain, 4, w_dims, dnnl_f32, dnnl_oihw) ||
      !r.call("dnnl_memory_desc_init_by_tag", api.md_init_by_tag, &dst_plain, 4, dst_dims, dnnl_f32, dnnl_nchw) ||
      !r.call("dnnl_memory_desc_init_by_tag", api.md_init_by_tag, &src_any, 4, src_dims, dnnl_f32,
              dnnl_format_tag_any) ||
      !r.call("dnnl_memory_desc_init_by_tag", api.md_init_by_tag, &w_any, 4, w_dims, dnnl_f32, dnnl_format_tag_any) ||
      !r.call("dnnl_memory_desc_init_by_tag", api.md_init_by_tag, &dst_any, 4, dst_dims, dnnl_f32,
              dnnl_format_tag_any) ||
      !r.call("dnnl_convolution_forward_desc_init", api.conv_forward_init, &conv, dnnl_forward_inference,
              dnnl_convolution_direct, &src_any, &w_any, nullptr, &dst_any, strides, padding, padding) ||
      !r.call("dnnl_primitive_desc_create", api.pd_create, &pd, &conv, nullptr, engine, nullptr) ||
      !r.call("dnnl_primitive_create", api.primitive_create, &prim, pd)) {
    finish(out, m);
    return;
  }
  const dnnl_memory_desc_t* src_md = api.pd_query_md(pd, dnnl_query_src_md, 0);
  const dnnl_memory_desc_t* w_md = api.pd_query_md(pd, dnnl_query_weights_md, 0);
  const dnnl_memory_desc_t* dst_md = api.pd_query_md(pd, dnnl_query_dst_md, 0);
  std::string impl;
  if (api.pd_query != nullptr) {
    const char* text = nullptr;
    if (api.pd_query(pd, dnnl_query_impl_info_str, 0, static_cast<void*>(&text)) == dnnl_success && text != nullptr)
      impl = printable(text, 60);
  }
  std::vector<float> x = test_values(static_cast<size_t>(sh.n) * sh.c * sh.h * sh.w, 17);
  std::vector<float> w = test_values(static_cast<size_t>(sh.k) * sh.c * sh.r * sh.s, 19);
  std::vector<float> y(static_cast<size_t>(sh.n) * sh.k * sh.out_h() * sh.out_w(), NAN);
  std::vector<float> src_buf(api.md_size(src_md) / sizeof(float) + 16);
  std::vector<float> w_buf(api.md_size(w_md) / sizeof(float) + 16);
  std::vector<float> dst_buf(api.md_size(dst_md) / sizeof(float) + 16);
  dnnl_memory_t x_mem = nullptr;
  dnnl_memory_t w_mem = nullptr;
  dnnl_memory_t y_mem = nullptr;
  dnnl_memory_t src_mem = nullptr;
  dnnl_memory_t wt_mem = nullptr;
  dnnl_memory_t dst_mem = nullptr;
  if (!r.call("dnnl_memory_create", api.memory_create, &x_mem, &src_plain, engine, static_cast<void*>(x.data())) ||
      !r.call("dnnl_memory_create", api.memory_create, &w_mem, &w_plain, engine, static_cast<void*>(w.data())) ||
      !r.call("dnnl_memory_create", api.memory_create, &y_mem, &dst_plain, engine, static_cast<void*>(y.data())) ||
      !r.call("dnnl_memory_create", api.memory_create, &src_mem, src_md, engine, static_cast<void*>(src_buf.data())) ||
      !r.call("dnnl_memory_create", api.memory_create, &wt_mem, w_md, engine, static_cast<void*>(w_buf.data())) ||
      !r.call("dnnl_memory_create", api.memory_create, &dst_mem, dst_md, engine, static_cast<void*>(dst_buf.data())) ||
      // The inputs in oneDNN's chosen layouts once, outside the timing, as a framework keeps them.
      !reorder(r, engine, stream, x_mem, &src_plain, src_mem, src_md) ||
      !reorder(r, engine, stream, w_mem, &w_plain, wt_mem, w_md)) {
    finish(out, m);
    return;
  }
  dnnl_exec_arg_t exec[] = {{DNNL_ARG_SRC, src_mem}, {DNNL_ARG_WEIGHTS, wt_mem}, {DNNL_ARG_DST, dst_mem}};
  bool failed = false;
  auto once = [&]() {
    double t0 = monotonic_seconds();
    if (api.primitive_execute(prim, stream, 3, exec) != dnnl_success || api.stream_wait(stream) != dnnl_success)
      failed = true;
    return monotonic_seconds() - t0;
  };
  send_call_line(out, "dnnl_primitive_execute");
  SampleStats stats = summarize(sample_times(once, bench_policy(budget)));
  if (failed) {
    m.detail = "dnnl_primitive_execute failed during the timing";
    finish(out, m);
    return;
  }
  if (!reorder(r, engine, stream, dst_mem, dst_md, y_mem, &dst_plain)) {
    finish(out, m);
    return;
  }
  fill_rate(m, stats, sh.flops(), 1e9);
  // oneDNN's FP32 kernels are FMA-based; Winograd is not chosen for convolution_direct.
  BoundCheck check =
      check_conv_sampled(sh, x.data(), w.data(), y.data(), check_samples(sh.c * sh.r * sh.s), kFloatUnitRoundoff);
  m.check = check.summary;
  m.check_passed = check.passed;
  m.library = "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
              (impl.empty() ? "" : " (" + impl + ")") + ", " + std::to_string(threads) + " thread(s), " +
              api.library.path();
  m.detail = "forward convolution " + sh.text() + ", FP32, direct";
  m.status = check.passed ? BenchStatus::ok : BenchStatus::failed;
  finish(out, m);
}

#else

void bench_conv(const std::vector<std::string>&, ChildChannel& out) {
  BenchMeasurement m{.key = "cpu.conv_fp32", .unit = "gflops", .status = BenchStatus::skipped};
#if defined(_WIN32)
  m.detail =
      "not measured by the Windows build, which is built without oneDNN's header (this benchmark calls "
      "oneDNN 2.x's C API)";
#else
  m.detail = "this gpudoctor was built without oneDNN's headers (Debian: libdnnl-dev)";
#endif
  finish(out, m);
}

#endif

}  // namespace

std::vector<std::string> openblas_names() {
#if defined(_WIN32)
  // OpenBLAS's own Windows release and conda-forge: libopenblas.dll; vcpkg: openblas.dll.
  return {"libopenblas.dll", "openblas.dll"};
#else
  std::vector<std::string> names{"libopenblas.so.0", "libopenblas.so"};
#if defined(GPUDOCTOR_OPENBLAS_LIBDIR)
  names.push_back(std::string(GPUDOCTOR_OPENBLAS_LIBDIR) + "/libopenblas.so.0");
#endif
  // Debian's ILP64 build (libopenblas64-0), last: its unsuffixed calls take 64-bit dimensions.
  names.push_back("libopenblas64.so.0");
  return names;
#endif
}

std::vector<std::string> onednn_names() {
#if defined(_WIN32)
  return {"dnnl.dll"};
#else
  return {"libdnnl.so.2", "libdnnl.so"};
#endif
}

BundledOpenblas bundled_openblas(const std::vector<std::string>& site_packages) {
#if defined(_WIN32)
  constexpr char kSep = '\\';
  auto is_library = [](const std::string& lower) { return lower.ends_with(".dll"); };
#else
  constexpr char kSep = '/';
  auto is_library = [](const std::string& lower) {
    return lower.ends_with(".so") || lower.find(".so.") != std::string::npos;
  };
#endif
  // numpy's wheels (numpy.libs/ since 1.22 on Linux and 2.0 on Windows, numpy/.libs/ on older
  // Windows wheels), then scipy's, which bundles its own (LP64) copy.
  constexpr const char* kFolders[] = {"numpy.libs", "numpy/.libs", "scipy.libs", "scipy/.libs"};
  constexpr size_t kMaxCandidates = 16;
  BundledOpenblas result;
  for (const char* folder : kFolders) {
    for (const std::string& site : site_packages) {
      std::string dir = site + kSep + folder;
      if (kSep != '/') std::replace(dir.begin(), dir.end(), '/', kSep);
      auto entries = host_fs::list(dir, 256);
      if (!entries) continue;
      std::vector<std::string> names;
      // The copy and the libraries the loader takes from beside it (libgfortran, libquadmath):
      // loaded into a child of ours, so none may be a file someone else could put or change there.
      std::string sibling_why;
      bool has_openblas = false;
      for (const auto& e : *entries) {
        if (e.kind != host_fs::Kind::regular && e.kind != host_fs::Kind::symlink) continue;
        const std::string lower = to_lower(e.name);
        if (!is_library(lower)) continue;
        const std::string why = host_fs::writable_by_others(dir + kSep + e.name);
        if (lower.find("openblas") != std::string::npos) {
          has_openblas = true;
          names.push_back(e.name);
        }
        if (!why.empty() && sibling_why.empty()) sibling_why = why;
      }
      std::sort(names.begin(), names.end());
      if (!has_openblas) continue;
      if (!sibling_why.empty()) {
        if (result.refused.size() < kMaxCandidates) result.refused.push_back(dir + ": " + sibling_why);
        continue;
      }
      for (const auto& name : names) {
        if (result.found.size() == kMaxCandidates) return result;
        result.found.push_back(dir + kSep + name);
      }
    }
  }
  return result;
}

bool user_chosen_env(const PythonEnvFacts& env) {
  static constexpr std::string_view kChosen[] = {"--env", "--python", "VIRTUAL_ENV", "CONDA_PREFIX", "PATH"};
  auto chosen_via = [](const std::string& via) {
    return via.starts_with("PEP 514 ") || via.starts_with("Microsoft Store package") ||
           std::find(std::begin(kChosen), std::end(kChosen), via) != std::end(kChosen);
  };
  return std::any_of(env.found_via.begin(), env.found_via.end(), chosen_via);
}

std::vector<std::string> user_chosen_site_packages(const std::vector<PythonEnvFacts>& envs) {
  std::vector<std::string> sites;
  for (const PythonEnvFacts& env : envs) {
    if (user_chosen_env(env)) sites.insert(sites.end(), env.site_packages.begin(), env.site_packages.end());
  }
  return sites;
}

SamplingPolicy bench_policy(const std::string& budget) {
  if (budget == "quick")
    return SamplingPolicy{.warmup = 1,
                          .min_iterations = 5,
                          .max_iterations = 200,
                          .min_seconds = 0.3,
                          .max_seconds = 1.5,
                          .stable_pct = 3.0};
  if (budget == "full")
    return SamplingPolicy{.warmup = 3,
                          .min_iterations = 10,
                          .max_iterations = 2000,
                          .min_seconds = 2.0,
                          .max_seconds = 10.0,
                          .stable_pct = 1.0};
  return SamplingPolicy{};
}

int usable_cpu_count() {
#if defined(__linux__)
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0) return n;
  }
#endif
  unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : static_cast<int>(n);
}

void cpu_bench_body(const std::vector<std::string>& args, ChildChannel& out) {
  if (args.empty()) return;
  if (args[0] == "sgemm")
    bench_sgemm(args, out);
  else if (args[0] == "conv")
    bench_conv(args, out);
  else
    finish(out, BenchMeasurement{.key = "cpu." + printable(args[0], 40),
                                 .unit = "",
                                 .status = BenchStatus::failed,
                                 .detail = "no CPU benchmark named \"" + printable(args[0], 40) + "\""});
}

void mark_child_failure(BenchMeasurement& m, const ChildOutcome& outcome, const ChildLines& lines) {
  std::string where = lines.last_call.empty() ? "" : " in " + lines.last_call;
  if (outcome.error) {
    m.status = outcome.error->kind == ErrorKind::timeout ? BenchStatus::timeout : BenchStatus::crashed;
    m.detail = outcome.error->message + where;
  } else if (!lines.junk.empty() || m.status == BenchStatus::none) {
    m.status = BenchStatus::crashed;
    m.detail = (lines.junk.empty() ? std::string("the child process ended without an answer")
                                   : "unreadable answer from the child process: \"" + lines.junk + "\"") +
               where;
  } else {
    return;
  }
  m.last_call = lines.last_call;
  m.value.reset();
}

BenchMeasurement measurement_from_child(const std::string& key, const std::string& unit, const ChildOutcome& outcome) {
  ChildLines lines = parse_child_lines(outcome);
  BenchMeasurement m;
  for (const auto& object : lines.objects) {
    if (auto it = object.find("measurement"); it != object.end() && it->is_object()) {
      m = BenchMeasurement{};
      measurement_from_json(*it, m);
    }
  }
  // The parent's names, whatever the child said.
  m.key = key;
  m.unit = unit;
  m.wall_seconds = static_cast<double>(outcome.elapsed.count()) / 1000.0;
  mark_child_failure(m, outcome, lines);
  return m;
}

}  // namespace gpudoctor::gpu
