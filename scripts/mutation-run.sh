#!/usr/bin/env bash
# Mutation run: how many small, deliberate bugs do the tests catch? Each mutation below is
# applied, one at a time, to a SCRATCH COPY of the tree (never this checkout), built
# incrementally (ccache), tested with `ctest -LE 'slow|wheels'`, and reverted. A mutation is
# "caught" when a test fails; one that breaks the build (warnings are errors: an unused function
# left behind) says nothing about the tests, so it is reported apart and not scored: write the
# mutation so that it compiles (`if (false) call(...)` rather than deleting the only call).
# Prints one line per mutation and the score.
# Run by hand (it takes a while: one incremental build and test run per mutation), not in CI.
#
# Usage: scripts/mutation-run.sh [-j JOBS] [-k] [ID...]
#   ID...  run only these mutations (default: all)
#   -k     keep the scratch copy (its path is printed)
# Results are recorded in docs/testing.md.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
jobs="$(nproc)"
keep=0
while getopts "j:k" opt; do
  case "$opt" in
    j) jobs="$OPTARG" ;;
    k) keep=1 ;;
    *) echo "usage: $0 [-j JOBS] [-k] [ID...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
only=("$@")

# id <TAB> file <TAB> exact text <TAB> replacement (\n for a newline). The text must occur
# exactly once in the file; a mutation whose text is gone is reported as stale (update the list), not counted.
mutations() {
  cat <<'EOF'
version-shorter-parts	src/core/version.cpp	size_t n = std::max(a.parts_.size(), b.parts_.size());	size_t n = std::min(a.parts_.size(), b.parts_.size());
version-pre-ignored	src/core/version.cpp	  if (int c = compare_pre(a.pre_, b.pre_); c != 0) {	  if (int c = 0 * compare_pre(a.pre_, b.pre_); c != 0) {
jaxlib-cudnn89	src/probe/python/site_packages.cpp	Version::parse(d.substr(0, 1) + "." + d.substr(1))	Version::parse(d)
header-other-major	src/probe/library_probe.cpp	      if (lf.version && lf.version->major() != v->major()) continue;	      (void)0;
ldcache-exact-name	src/probe/version_files.cpp	[&](std::string_view p) { return name.starts_with(p); }	[&](std::string_view p) { return name == p; }
envfile-first-value	src/platform/system_view.cpp	    out.env[key] = std::string(unquote(line.substr(eq + 1)));	    out.env.emplace(key, std::string(unquote(line.substr(eq + 1))));
toolkit-opt-dropped	src/probe/toolkit_probe.cpp	      if (e.name.starts_with("cuda")) tc.add("/opt/" + e.name, "/opt/" + e.name);	      (void)e;
toolkit-usr-lib-cuda-dropped	src/probe/toolkit_probe.cpp	  tc.add("/usr/lib/cuda", "/usr/lib/cuda");	  (void)0;
nvcc-wrapper-dropped	src/probe/toolkit_probe.cpp	    if (auto target = wrapper_script_target(system, *nvcc)) nvcc = system.canonical(*target);	    if (false) (void)wrapper_script_target(system, *nvcc);
conda-cudatoolkit-dropped	src/probe/toolkit_probe.cpp	  collect_conda(system, facts);	  if (false) collect_conda(system, facts);
cuda-h-dropped	src/probe/toolkit_probe.cpp	system.join(system.join(tk.path, "include"), "cuda.h")	system.join(system.join(tk.path, "include"), "cuda.h.none")
ldcache-toolkit-dropped	src/probe/toolkit_probe.cpp	    if (!name.starts_with("libcudart.so")) continue;	    continue;
tensorrt-dropped	src/probe/library_probe.cpp	{"tensorrt", {"libnvinfer", "nvinfer"}	{"tensorrt", {"libnvinfer-none", "nvinfer-none"}
container-dropped	src/probe/os_probe.cpp	  detect_container(system, os);	  if (false) detect_container(system, os);
wsl2-kernel-ignored	src/probe/os_probe.cpp	contains(kernel_lower, "microsoft") || contains(kernel_lower, "wsl")	false
framework-floor-exactly-at	src/check/compat_checks.cpp	    if (!floor || *drv >= *floor) return;	    if (!floor || *drv > *floor) return;
wsl2-linux-floors	src/check/compat_checks.cpp	  return p == Platform::linux ? Platform::linux : Platform::windows;	  return p == Platform::windows ? Platform::windows : Platform::linux;
arch-floor-exactly-at	src/check/compat_checks.cpp	      if (!floor || *drv >= floor->driver) continue;	      if (!floor || *drv > floor->driver) continue;
wsl2-floor-exactly-at	src/check/compat_checks.cpp	*drv < *tf.wsl2_min_driver	*drv <= *tf.wsl2_min_driver
toolkit-family-floor-exactly-at	src/check/compat_checks.cpp	      if (drv && family && *drv < *family) {	      if (drv && family && *drv <= *family) {
jax-floor-exactly-at	src/check/compat_checks.cpp	      if (*drv < floor) {	      if (*drv <= floor) {
nouveau-guard-dropped	src/check/gpu_driver_checks.cpp	  if (!windows && !wsl2 && (d.nouveau_loaded || bound_to_nouveau)) {	  if (false) {
wsl2-findings-dropped	src/check/gpu_driver_checks.cpp	  if (wsl2) wsl2_findings(facts, out);	  if (false) wsl2_findings(facts, out);
visible-devices-empty-swapped	src/check/env_checks.cpp	      if (v.empty() || v == "-1" || to_lower(v) == "nodevfiles" || to_lower(v) == "none") {	      if (v == "-1" || to_lower(v) == "nodevfiles" || to_lower(v) == "none") {
cuda-home-check-dropped	src/check/env_checks.cpp	      if (!exists) {	      if (false) {
cpu-only-inverted	src/check/python_checks.cpp	      bool cpu_only = fw.cuda_build.has_value() && !*fw.cuda_build;	      bool cpu_only = fw.cuda_build.has_value() && *fw.cuda_build;
no-python-dropped	src/check/python_checks.cpp	  if (facts.python_envs.empty()) {	  if (false) {
several-toolkits-dropped	src/check/toolkit_checks.cpp	  if (versions.size() > 1) {	  if (versions.size() > 100) {
family-floor-windows-swapped	src/kb/knowledge_base.cpp	  return platform == Platform::linux ? f->linux : f->windows;	  return platform == Platform::linux ? f->windows : f->linux;
min-driver-platform-swapped	src/kb/knowledge_base.cpp	  return platform == Platform::linux ? r->linux : r->windows;	  return platform == Platform::linux ? r->windows : r->linux;
kb-tf215-cudnn	data/compat/tensorflow.toml	python = "3.9-3.11"\ncuda = "12.2"\ncudnn = "8.9"\narchs = ["5.0", "6.0", "7.0", "7.5"]	python = "3.9-3.11"\ncuda = "12.2"\ncudnn = "8.6"\narchs = ["5.0", "6.0", "7.0", "7.5"]
kb-cuda12-family-floor	data/compat/cuda_drivers.toml	linux = "525.60.13"\nwindows = "528.33"	linux = "520.61.05"\nwindows = "528.33"
resolver-python-newest	src/kb/resolver.cpp	  return in.size() >= 3 ? in[in.size() - 2] : in.back();	  return in.back();
resolver-driver-floor-exactly-at	src/kb/resolver.cpp	    if (*req.driver < top->driver) {	    if (*req.driver <= top->driver) {
resolver-wsl2-linux-floors	src/kb/resolver.cpp	  return route == Platform::linux ? Platform::linux : Platform::windows;	  return route == Platform::windows ? Platform::windows : Platform::linux;
explain-latest-line-first	src/explain/explain_session.cpp	    if (la != lb) return la < lb;	    if (la != lb) return la > lb;
explain-contradicted-not-down	src/explain/explain_session.cpp	        m.score -= kFactsWeight;	        (void)0;
explain-harmless-not-last	src/explain/explain_session.cpp	    if (a.harmless != b.harmless) return !a.harmless;	    (void)0;
platform-path-separator	src/platform/system_view.cpp	split(*v, is_windows() ? ';' : ':')	split(*v, ':')
kb-dir-any-file	src/kb/data_files.cpp	  return !name.starts_with(".") && (name.ends_with(".toml") || name.ends_with(".ids"));	  return !name.starts_with(".");
python-option-any-major	src/cli/option_values.cpp	  if (!v || !dotted_numbers(t, 2, 3, 2, true) || v->major() < 2 || v->major() > 3)	  if (!v || !dotted_numbers(t, 2, 3, 2, true))
kb-source-for-fact-unchecked	src/kb/kb_loader.cpp	    if (fact_given && source.empty()) issue(Level::error, std::string(message));	    if (false && fact_given && source.empty()) issue(Level::error, std::string(message));
kb-unknown-key-silent	src/kb/kb_loader.cpp	      if (!used_.contains(key)) issue(Level::warning, "unknown key '" + key + "' (ignored)");	      if (false) issue(Level::warning, "unknown key '" + key + "' (ignored)");
vendor-stderr-dropped	src/gpu/driver_query.cpp	    report.problems.push_back(std::string(library) + " wrote on stderr: " + said);	    if (false) report.problems.push_back(std::string(library) + " wrote on stderr: " + said);
explain-answer-lead-not-best	src/explain/explain_session.cpp	{ return a.score > b.score; });	{ return a.score < b.score; });
torch-wheels-after-ld-path	src/probe/framework_libraries.cpp	    if (needs.wheels_first) {	    if (false) {
torch-cufile-ignored	src/probe/framework_libraries.cpp	          if (requires_mentioning(*md, "cufile")) n.sonames.push_back("libcufile.so.0");	          if (false) n.sonames.push_back("libcufile.so.0");
fleet-bench-mode-mixed	src/check/fleet_compare.cpp	  if (!node.bench.mode.empty() && !base.mode.empty() && node.bench.mode != base.mode) {	  if (false) {
fleet-bench-age-ignored	src/check/fleet_compare.cpp	  if (t && base.middle && std::llabs(*t - *base.middle) > kBenchMaxAgeSeconds) {	  if (t && base.middle && std::llabs(*t - *base.middle) > 100 * kBenchMaxAgeSeconds) {
fleet-node-group-unset	src/check/fleet_compare.cpp	      report.nodes[i].group = group.id;	      (void)group.id;
fleet-json-run-junk-present	src/model/json_codec.cpp	    if (!j->is_object()) return note_mistyped();	    if (!j->is_object()) note_mistyped();
verify-kernel-unchecked	src/gpu/verify_steps.cpp	    if (!(out[i] == want) && wrong++ == 0) first = i;	    if (false && !(out[i] == want) && wrong++ == 0) first = i;
verify-roundtrip-unchecked	src/gpu/verify_steps.cpp	  if (differ != 0 || sent != got) {	  if (false) {
verify-bound-loose	src/gpu/verify_math.cpp	    double bound = 2.0 * terms * unit_roundoff * ref.magnitude[i] + 1e-30;	    double bound = 200.0 * terms * unit_roundoff * ref.magnitude[i] + 1e-30;
verify-conv-backward-unchecked	src/gpu/verify_steps.cpp	  else if (!bwd.passed)	  else if (false)
verify-nccl-unchecked	src/gpu/verify_steps.cpp	    if (got[i] != want) {	    if (false && got[i] != want) {
verify-all-skipped-passes	src/model/verify_report.cpp	  return ran;\n}	  return ran || true;\n}
verify-problems-ignored	src/model/verify_report.cpp	  if (!report.problems.empty()) return false;	  if (false) return false;
verify-child-deadline-ignored	src/gpu/isolated_child.cpp	    if (waiting.empty() || Clock::now() >= end) break;	    if (waiting.empty() || Clock::now() >= end + std::chrono::hours(1)) break;
verify-child-output-unbounded	src/gpu/isolated_child.cpp	  append_bounded(r.outcome.output, r.process->take_output(ChildStream::out), max_output_bytes);	  append_bounded(r.outcome.output, r.process->take_output(ChildStream::out), max_output_bytes * 1000000);
bench-problems-ignored	src/model/bench_report.cpp	  if (!report.problems.empty()) return false;	  if (false) return false;
bench-unchecked-passes	src/model/bench_report.cpp	    if (m.status == BenchStatus::ok && !m.check_passed) return false;	    if (false) return false;
bench-busbw-factor	src/gpu/bench_math.cpp	  return ranks > 0 ? algbw * 2.0 * (ranks - 1) / ranks : 0;	  return ranks > 0 ? algbw * (ranks - 1) / ranks : 0;
bench-median-even-upper	src/gpu/bench_math.cpp	  return v.size() % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2.0;	  return v[mid];
bench-spread-scale	src/gpu/bench_math.cpp	  s.spread_pct = s.median > 0 ? s.mad / s.median * 100.0 : 0;	  s.spread_pct = s.median > 0 ? s.mad / s.median * 10.0 : 0;
bench-rate-min-from-fastest	src/gpu/bench_math.cpp	  m.min = work / stats.max / scale;	  m.min = work / stats.min / scale;
bench-scaling-not-per-gpu	src/gpu/bench_math.cpp	  return one > 0 && n > 0 ? many / (n * one) : 0;	  return one > 0 && n > 0 ? many / one : 0;
bench-gemm-check-loose	src/gpu/bench_math.cpp	              (terms_factor * k * u + 2 * input_u) * d.magnitude	              (100 * terms_factor * k * u + 2 * input_u) * d.magnitude
bench-compare-noise-floor-only	src/model/bench_report.cpp	    c.noise_pct = std::max({floor_pct, 3.0 * spread, 3.0 * between_runs});	    c.noise_pct = std::max({floor_pct, 0.0 * spread, 3.0 * between_runs});
bench-compare-direction	src/model/bench_report.cpp	    else if (c.change_pct < -c.noise_pct)	    else if (c.change_pct < c.noise_pct)
fleet-outlier-z-cut	src/check/fleet_compare.cpp	      if (std::fabs(z) > 3.5 && std::fabs(off) >= 0.10) {	      if (std::fabs(z) > 35 && std::fabs(off) >= 0.10) {
fleet-outlier-min-off	src/check/fleet_compare.cpp	      if (std::fabs(z) > 3.5 && std::fabs(off) >= 0.10) {	      if (std::fabs(z) > 3.5 && std::fabs(off) >= 0.0) {
fleet-gpu-missing-dropped	src/check/fleet_compare.cpp	      } else if (n.facts.gpus.size() < usual) {	      } else if (false) {
fleet-nccl-slowest-fastest	src/check/fleet_compare.cpp	    if (first || n.nccl.busbw_gbps < f.busbw_gbps) {	    if (first || n.nccl.busbw_gbps > f.busbw_gbps) {
fleet-majority-half	src/check/fleet_compare.cpp	report.groups[0].nodes.size() * 2 > reporting	report.groups[0].nodes.size() * 2 >= reporting
prometheus-label-quote-raw	src/render/prometheus.cpp	      out += "\\\"";	      out += "\"";
watch-thermal-any-sample	src/monitor/diagnoses.cpp	  if (thermal * 2 > known) {	  if (thermal > 0) {
html-control-chars-raw	src/render/html_report.cpp	    out += terminal_safe(line);	    out += std::string(line);
bench-ilp64-config-ignored	src/gpu/cpu_bench.cpp	  if (config.find("USE64BITINT") != std::string::npos) {	  if (false && config.find("USE64BITINT") != std::string::npos) {
bench-sgemm64-not-preferred	src/gpu/cpu_bench.cpp	  if (api.sgemm64 != nullptr) return Sgemm{.lp64 = nullptr, .ilp64 = api.sgemm64};	  if (false && api.sgemm64 != nullptr) return Sgemm{.lp64 = nullptr, .ilp64 = api.sgemm64};
bench-ilp64-called-lp64	src/gpu/cpu_bench.cpp	    if (ilp64 != nullptr) {	    if (false && ilp64 != nullptr) {
bench-width-unknown-called	src/gpu/cpu_bench.cpp	  if (api.sgemm == nullptr || api.get_config == nullptr) return std::nullopt;	  if (api.sgemm == nullptr) return std::nullopt;
bench-absent-counts-broken	src/gpu/cpu_bench.cpp	      if (loaded.error().kind == ErrorKind::not_found && candidate.kind != Kind::named) continue;	      if (loaded.error().kind == ErrorKind::not_found) continue;
bench-bundled-load-failure-fails	src/gpu/cpu_bench.cpp	      named_one_broken = named_one_broken || candidate.kind != Kind::bundled;\n      continue;	      named_one_broken = true;\n      continue;
bench-no-sgemm-stops-search	src/gpu/cpu_bench.cpp	      raw_config = std::move(config);\n      break;\n    }	      raw_config = std::move(config);\n      break;\n    }\n    if (candidate.kind != Kind::bundled) break;
bench-broken-reported-skipped	src/gpu/cpu_bench.cpp	    m.status = named_one_broken ? BenchStatus::failed : BenchStatus::skipped;	    m.status = BenchStatus::skipped;
bench-ilp64-not-named	src/gpu/cpu_bench.cpp	(sgemm->ilp64 != nullptr ? ", ILP64" : "")	(sgemm->ilp64 == nullptr ? "" : "")
bundled-refused-offered	src/gpu/cpu_bench.cpp	        if (!why.empty() && sibling_why.empty()) sibling_why = why;	        (void)why;
bundled-any-file	src/gpu/cpu_bench.cpp	        if (!is_library(lower)) continue;\n        const std::string why	        const std::string why
bundled-scipy-first	src/gpu/cpu_bench.cpp	  constexpr const char* kFolders[] = {"numpy.libs", "numpy/.libs", "scipy.libs", "scipy/.libs"};	  constexpr const char* kFolders[] = {"scipy.libs", "scipy/.libs", "numpy.libs", "numpy/.libs"};
chosen-sites-every-env	src/gpu/cpu_bench.cpp	  return std::any_of(env.found_via.begin(), env.found_via.end(), chosen_via);	  return true;
chosen-sites-pep514-dropped	src/gpu/cpu_bench.cpp	    return via.starts_with("PEP 514 ") || via.starts_with("Microsoft Store package") ||	    return via.starts_with("Microsoft Store package") ||
owner-ancestors-unchecked	src/platform/host_fs_posix.cpp	    if (std::string why = others_can_write(dir, st); !why.empty()) return why;	    (void)others_can_write;
owner-link-not-resolved	src/platform/host_fs_posix.cpp	  char* real = ::realpath(path.c_str(), nullptr);	  char* real = ::strdup(path.c_str());
owner-sticky-ignored	src/platform/host_fs_posix.cpp	  const bool sticky = dir && (st.st_mode & S_ISVTX) != 0;	  const bool sticky = false;
owner-any-group-trusted	src/platform/host_fs_posix.cpp	    if (!private_group_of_user(st.st_gid)) return path	    if (!private_group_of_user(st.st_gid) && false) return path
owner-other-uid-allowed	src/platform/host_fs_posix.cpp	  if (st.st_uid != 0 && st.st_uid != ::geteuid()) return	  if (false) return
owner-acl-ignored	src/platform/host_fs_posix.cpp	    if (::getxattr(path.c_str(), "system.posix_acl_access", nullptr, 0) >= 0)	    if (false)
owner-link-folder-unchecked	src/platform/host_fs_posix.cpp	  if (folder == real.substr(0, real.rfind('/')) || (folder == "/" && real.rfind('/') == 0)) return {};	  return {};
nvcc-arch-suffix-floor-ignored	src/explain/explain_machine.cpp	  if (t.suffix == 'a') raise("12.0");	  (void)0;
compare-library-version-kept	src/model/bench_report.cpp	    if (last[i] < '0' || last[i] > '9') {	    if (true) {
compare-library-ignored	src/model/bench_report.cpp	    const bool other_library = !before_file.empty() && !now_file.empty() && before_file != now_file;	    const bool other_library = false && !before_file.empty() && !now_file.empty() && before_file != now_file;
signal-groups-not-killed	src/platform/child_process_posix.cpp	    if (group > 0) ::kill(-group, SIGKILL);	    if (false && group > 0) ::kill(-group, SIGKILL);
signal-group-never-forgotten	src/platform/child_process_posix.cpp	    pid_t expected = group;\n    if (slot.compare_exchange_strong(expected, 0)) return;	    pid_t expected = group;\n    if (false && slot.compare_exchange_strong(expected, 0)) return;
signal-others-handler-replaced	src/platform/child_process_posix.cpp	      if ((current.sa_flags & SA_SIGINFO) != 0 || current.sa_handler != SIG_DFL) continue;	      if (false && ((current.sa_flags & SA_SIGINFO) != 0 || current.sa_handler != SIG_DFL)) continue;
nvcc-arch-dropped-as-newer	src/explain/explain_machine.cpp	  } else if (*last + 1 == rows.size()) {	  } else if (true) {
cuda-h-whole-file-read	src/probe/toolkit_probe.cpp	system.read_head(system.join(system.join(tk.path, "include"), "cuda.h"), 256 * 1024)	system.read_file(system.join(system.join(tk.path, "include"), "cuda.h"))
conv-heuristic-ignored	src/gpu/gpu_bench.cpp	  if (api.fwd_algorithms != nullptr) {	  if (false && api.fwd_algorithms != nullptr) {
conv-no-nhwc-fallback	src/gpu/gpu_bench.cpp	    if (layout == kCudnnTensorNhwc && !half) break;	    if (layout == kCudnnTensorNhwc) break;
conv-nhwc-output-not-laid-back	src/gpu/gpu_bench.cpp	    if (nhwc) hy = permute_nchw(hy, sh.n, sh.k, sh.out_h(), sh.out_w(), false);	    if (false) hy = permute_nchw(hy, sh.n, sh.k, sh.out_h(), sh.out_w(), false);
gemm-bf16-output-rounding-unallowed	src/gpu/gpu_bench.cpp	  return c_type == kCudaR16BF ? 1.0 / (1 << 8) : c_type == kCudaR16F ? 1.0 / (1 << 11) : 0.0;	  return c_type == kCudaR16BF ? 0.0 : c_type == kCudaR16F ? 1.0 / (1 << 11) : 0.0;
watch-own-children-judged	src/monitor/diagnoses.cpp	    if (kind == BusyProcess::own_task) continue;	    if (false && kind == BusyProcess::own_task) continue;
watch-python-advice-for-all	src/monitor/diagnoses.cpp	    const bool python = kind == BusyProcess::python;	    const bool python = true || kind == BusyProcess::python;
framework-batch-not-in-mode	src/cli/cmd_bench.cpp	    if (run.gpu_batch > 0 && run.gpu_batch != config.gpu_batch && report.mode.find(scaled) == std::string::npos) {	    if (false && !scaled.empty()) {
bench-wall-seconds-unset	src/gpu/cpu_bench.cpp	  m.wall_seconds = static_cast<double>(outcome.elapsed.count()) / 1000.0;\n  mark_child_failure	  (void)outcome.elapsed;\n  mark_child_failure
bench-check-panel-offset	src/gpu/bench_math.cpp	      const float* row = b + i * cols + first;	      const float* row = b + i * cols;
bench-e4m3-ties-up	src/gpu/bench_math.cpp	(mag + 0x7FFFFU + ((mag >> 20) & 1U)) >> 20	(mag + 0x80000U) >> 20
half-decode-mantissa-shift	src/gpu/verify_math.cpp	bits = ((exp + 112U) << 23) | (mant << 13);	bits = ((exp + 112U) << 23) | (mant << 12);
bench-tf32-before-ampere-measured	src/gpu/gpu_bench.cpp	  if (precision == "tf32" && r.cc_major < 8) {	  if (precision == "tf32" && r.cc_major < 7) {
bench-bf16-note-from-volta	src/gpu/gpu_bench.cpp	  if (precision == "bf16" && cc_major < 8) {	  if (precision == "bf16" && cc_major < 7) {
bench-claim-skipped-as-failed	src/model/bench_report.cpp	               : m->status == BenchStatus::skipped ? " was skipped (" + m->detail + ")"	               : m->status == BenchStatus::failed ? " was skipped (" + m->detail + ")"
framework-oom-not-retried	src/gpu/framework_bench.cpp	            if per_gpu_batch and out_of_memory(e) and cfg["gpu_batch"] >= 8:	            if per_gpu_batch and out_of_memory(e) and cfg["gpu_batch"] >= 128:
framework-oom-batch-not-followed	src/gpu/framework_bench.cpp	                f["batch"] = cfg["gpu_batch"]	                f["batch"] = f["batch"]
bench-triad-fits-two-arrays	src/gpu/gpu_bench.cpp	  bytes = array_bytes_that_fit(bytes, triad ? 3 : 2, usable);	  bytes = array_bytes_that_fit(bytes, 2, usable);
bench-gemm-not-shrunk	src/gpu/bench_math.cpp	  if (need(n) <= static_cast<double>(usable)) return n;	  if (need(n) <= static_cast<double>(usable) * 4) return n;
bench-conv-workspace-unbounded	src/gpu/gpu_bench.cpp	        if (ws_bytes <= workspace_limit) {	        if (ws_bytes <= workspace_limit + (1ULL << 30)) {
peak-laptop-matches-desktop	src/kb/knowledge_base.cpp	  if (board.laptop) return nullptr;	  if (board.laptop && key.empty()) return nullptr;
peak-memory-size-ignored	src/kb/knowledge_base.cpp	    if (p.memory_gb && board.memory_gb && *board.memory_gb != *p.memory_gb) continue;	    if (p.memory_gb && board.memory_gb && *board.memory_gb == 0) continue;
nvlink-enum-as-generation	src/gpu/bench_math.cpp	    case 7:\n      return 50;  // B200: 1800/18	    case 7:\n      return 0;  // B200: 1800/18
bench-gemm-not-supported-fails	src/gpu/gpu_bench.cpp	    if (last == kCublasStatusNotSupported) {	    if (last == kCublasStatusNotSupported && r.cc_major < 0) {
framework-watchdog-spares-children	src/gpu/framework_bench.cpp	    for p in children:	    for p in children[:0]:
framework-timeout-as-failed	src/gpu/framework_bench.cpp	      m.status = error.starts_with("TimeoutError") ? BenchStatus::timeout : BenchStatus::failed;	      m.status = BenchStatus::failed;
bench-allreduce-not-shrunk	src/gpu/gpu_bench.cpp	  max_bytes = array_bytes_that_fit(max_bytes, 2, smallest);	  max_bytes = array_bytes_that_fit(max_bytes, 2, smallest * 4);
bench-watchdog-not-capped	src/gpu/bench_math.cpp	  return watchdog ? std::min(n, 4096) : n;	  return watchdog ? std::min(n, 8192) : n;
bench-tf32-override-ignored	src/gpu/gpu_bench.cpp	std::string_view(off) == "0") {	std::string_view(off) == "off") {
fw-claim-tf32-ignored	src/model/bench_report.cpp	    const bool tf32 = one != nullptr && one->tf32.value_or(false);	    const bool tf32 = one != nullptr && false;
fw-scaling-unlike-gpus	src/model/bench_report.cpp	unlike_gpus(many->gpus); !models.empty()) {	unlike_gpus(many->gpus); models.empty() && false) {
fw-parse-tf32-dropped	src/gpu/framework_bench.cpp	      m.tf32 = f["tf32"].get<bool>();	      m.tf32 = false;
fw-script-torch-tf32-any-cc	src/gpu/framework_bench.cpp	    tf32 = cc is not None and cc[0] >= 8 and allowed is True	    tf32 = cc is not None and allowed is True
fw-script-jax-precision-ignored	src/gpu/framework_bench.cpp	    tf32 = cc is not None and cc >= 8 and not fp32_asked and not tf32_overridden()	    tf32 = cc is not None and cc >= 8 and not tf32_overridden()
fw-script-tf-cc-ignored	src/gpu/framework_bench.cpp	cc[0] >= 8 and tf.config.experimental.tensor_float_32_execution_enabled()	cc[0] >= 7 and tf.config.experimental.tensor_float_32_execution_enabled()
kb-no-tc-any-device	src/kb/knowledge_base.cpp	    if (c == nullptr) return {};  // a board of that name has them, or may	    if (c == nullptr) continue;  // a board of that name has them, or may
kb-no-tc-chip-unchecked	src/kb/kb_validate.cpp	        kb.pci_names.empty() || std::any_of(kb.pci_names.begin(), kb.pci_names.end(),	        true || std::any_of(kb.pci_names.begin(), kb.pci_names.end(),
bench-no-tc-note-dropped	src/cli/cmd_bench.cpp	        gpu.empty() ? std::vector<const ChipWithoutTensorCores*>{} : kb.without_tensor_cores("", gpu);	        gpu.empty() || true ? std::vector<const ChipWithoutTensorCores*>{} : kb.without_tensor_cores("", gpu);
pcie-gen6-unknown	src/gpu/bench_math.cpp	{0, 2.5, 5.0, 8.0, 16.0, 32.0, 64.0}	{0, 2.5, 5.0, 8.0, 16.0, 32.0}
bench-integrated-note-dropped	src/gpu/gpu_bench.cpp	  if (r.integrated != 0) {\n    r.m.detail +=	  if (r.integrated != 0 && false) {\n    r.m.detail +=
fw-script-jax-high-as-fp32	src/gpu/framework_bench.cpp	    fp32_asked = level in ("highest", "float32") or level.startswith("f32_f32")	    fp32_asked = level in ("highest", "float32", "high", "bfloat16") or level.startswith("f32_f32")
fw-script-torch-new-api-ignored	src/gpu/framework_bench.cpp	        allowed = precision == "tf32" if precision in ("tf32", "ieee") else bool(torch.backends.cudnn.allow_tf32)	        allowed = bool(torch.backends.cudnn.allow_tf32)
fw-script-torch-read-unguarded	src/gpu/framework_bench.cpp	    except Exception:\n        allowed = None	    except ImportError:\n        allowed = None
kb-no-tc-devices-ignored	src/kb/knowledge_base.cpp	      if (chip.starts_with(c.chip) && (c.devices.empty() || listed)) return &c;	      if (chip.starts_with(c.chip) && (c.devices.empty() || listed || true)) return &c;
compare-tf32-change-judged	src/model/bench_report.cpp	    const bool other_tf32 = before->tf32 && now.tf32 && *before->tf32 != *now.tf32;	    const bool other_tf32 = before->tf32 && now.tf32 && false;
fp8-one-pass-relative-dropped	src/gpu/bench_math.cpp	  relative_error = relative_error_of(dots, c);	  relative_error = 0;
jax-plugin-version-truncated	src/probe/python/site_packages.cpp	jax_order(q->version, jaxlib->version) != 0) {	q->version.truncated(3) != jaxlib->version.truncated(3)) {
jaxlib-newer-unchecked	src/probe/python/site_packages.cpp	  if (jax_order(jaxlib.version, jax.version) > 0) {	  if (false) {
jaxlib-minimum-unchecked	src/probe/python/site_packages.cpp	jax_order(jaxlib.version, *minimum) >= 0) return;	true) return;
jax-pjrt-alone-usable	src/probe/python/site_packages.cpp	jax_order(r->version, kPjrtNeedsPluginFrom) >= 0) {	false) {
jax-plugin-without-pjrt-usable	src/probe/python/site_packages.cpp	      ok = false;\n    } else if (pjrt != nullptr	    } else if (pjrt != nullptr
record-first-piece-only	src/probe/python/site_packages.cpp	    if (last || (out.libs.size() >= kMaxRecordLibs && out.cuda_major)) return out;\n    carry = text.substr(cut);	    return out;\n    carry = text.substr(cut);
torch-cudnn-minor-unchecked	src/check/compat_checks.cpp	        runtime->minor() < compiled->minor()) {	        false) {
torch-cudnn-skip-ignored	src/check/compat_checks.cpp	return e.name == "PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK" && e.value == "1";	return e.name == "PYTORCH_SKIP_CUDNN_COMPATIBILITY_CHECK" && e.value == "never";
torch-cudnn-cc-rule-dropped	src/check/compat_checks.cpp	if (g.cc < rule.below_cc) old.push_back(	if (false) old.push_back(
torch-cudnn-cc-torch-range-ignored	src/check/compat_checks.cpp	if (!rule.torch.contains(fw.version) || !rule.cudnn.contains(*runtime)) continue;	if (!rule.cudnn.contains(*runtime)) continue;
torch-cudnn-fix-pin-rebuilt	src/check/compat_checks.cpp	      if (r.name.starts_with("nvidia-cudnn") && r.specifier.starts_with("==")) {\n        pin_name = r.name;	      if (false) {\n        pin_name = r.name;
numpy-major-crossing-warned	src/check/requirement_checks.cpp	.severity = crosses ? Severity::error : Severity::warning,	.severity = Severity::warning,
numpy-requires-not-probed	src/probe/python/site_packages.cpp	} else if (req && req->name == "numpy" && fw.numpy_requires.size() < 8) {	} else if (false) {
numpy-marker-ignored	src/check/requirement_checks.cpp	      if (req.specifier.empty() || evaluate_marker(req.marker, menv) != true) continue;\n      auto spec = VersionSpec::parse(req.specifier);\n      if (!spec || spec->contains(numpy->version)) continue;	      if (req.specifier.empty() || evaluate_marker(req.marker, menv) == std::nullopt) continue;\n      auto spec = VersionSpec::parse(req.specifier);\n      if (!spec || spec->contains(numpy->version)) continue;
shadow-loads-ignored	src/check/toolkit_checks.cpp	const bool nobody_misled = misled.empty() && !unaffected.empty();	const bool nobody_misled = false;
shadow-copy-path-ignored	src/check/toolkit_checks.cpp	            const bool from_copy = load.via == "LD_LIBRARY_PATH" && load.dir() == lib.path;	            const bool from_copy = load.via == "LD_LIBRARY_PATH" && false;
tf-runpath-any-version	src/probe/framework_libraries.cpp	if (fw.version >= Version::of({2, 14}) && !fw.location.empty()) {	if (!fw.location.empty()) {
tf-conda-lib-always	src/probe/framework_libraries.cpp	if (env.kind == "conda" && conda_installed(env, "tensorflow")) {	if (env.kind == "conda") {
tf-dirs-envwide	src/probe/framework_libraries.cpp	fw.name == "tensorflow" ? tensorflow_dirs(env, fw) : own_dirs(env, fw, first_dirs);	own_dirs(env, fw, first_dirs);
companion-version-py-ignored	src/probe/python/site_packages.cpp	      if (fw.variant.empty()) {\n        const std::string version_py	      if (false) {\n        const std::string version_py
companion-stable-abi-ignored	src/check/compat_checks.cpp	const bool stable_newer = fw.stable_abi && fw.requires_torch && installed > fw.requires_torch->truncated(3);	const bool stable_newer = false;
companion-stable-abi-backwards	src/check/compat_checks.cpp	const bool stable_newer = fw.stable_abi && fw.requires_torch && installed > fw.requires_torch->truncated(3);	const bool stable_newer = fw.stable_abi && fw.requires_torch && installed != fw.requires_torch->truncated(3);
elf-weak-import-counted	src/probe/elf_symbols.cpp	if (binding == kStbGlobal) out.undefined.emplace_back(name);	if (binding != 0) out.undefined.emplace_back(name);
elf-runpath-ignored	src/probe/elf_symbols.cpp	if (tag == kDtRunpath) runpath = value;	if (false) runpath = value;
imports-missing-never-kept	src/probe/framework_libraries.cpp	if (m.symbols.empty()) return std::nullopt;	if (true) return std::nullopt;
nccl-pin-gate-any-version	src/probe/framework_libraries.cpp	if (pinned && !(w.version < *pinned)) return true;	if (pinned) return true;
unreadable-elf-silent	src/probe/framework_libraries.cpp	fw.problems.push_back("the dynamic symbols of "	if (false) fw.problems.push_back("the dynamic symbols of "
import-fix-pin-dropped	src/check/requirement_checks.cpp	requirement = r.name + r.specifier;	requirement = r.name;
nvjitlink-fix-floor-dropped	src/check/requirement_checks.cpp	requirement = package + ">=" + wanted->str();	requirement = package;
numpy-abi-same-major	src/check/requirement_checks.cpp	numpy->version.major() <= row.built_for	numpy->version.major() < row.built_for
kb-numpy-abi-built-for	src/kb/kb_loader.cpp	row.built_for = built_for->major();	row.built_for = 2;
cudnn-wheel-other-major-first	src/check/compat_checks.cpp	cudnn_wheel(facts, env, want_major)	cudnn_wheel(facts, env)
keras3-tf215-error	src/check/tensorflow_companion_checks.cpp	keras3_on_old_tf && tf->version >= Version::of({2, 15})	keras3_on_old_tf && tf->version >= Version::of({2, 16})
tfa-keras3-ignored	src/check/tensorflow_companion_checks.cpp	k.version.major() < 3) continue;	k.version.major() < 4) continue;
elf-rpath-wins	src/probe/elf_symbols.cpp	for (std::string_view rest = runpath.empty() ? rpath : runpath; !rest.empty();) {	for (std::string_view rest = rpath.empty() ? runpath : rpath; !rest.empty();) {
tfp-init-module-boundary	src/probe/python/tfp_import_checks.cpp	return rest.empty() || rest.front() == ' '	return true || rest.front() == ' '
tfp-init-floor-dropped	src/probe/python/site_packages.cpp	fw.requires_tensorflow = checks.tensorflow_floor;	fw.requires_tensorflow = std::nullopt;
tfp-loose-version-order	src/check/tensorflow_companion_checks.cpp	return std::lexicographical_compare(a.parts().begin(), a.parts().end(), b.parts().begin(), b.parts().end());	return a < b;
tfp-tf-keras-ignored	src/check/tensorflow_companion_checks.cpp	if (needs_tf_keras && tf_keras_in(env) == nullptr) {	if (needs_tf_keras && tf_keras_in(env) == nullptr && false) {
tfp-table-fallback	src/check/tensorflow_companion_checks.cpp	if (!from_install && row == nullptr) return;	if (!from_install) return;
tf-legacy-keras-values	src/check/tensorflow_companion_checks.cpp	return value == "true" || value == "True" || value == "1";	return to_lower(value) == "true" || value == "1";
tf-legacy-keras-routes	src/check/tensorflow_companion_checks.cpp	if (legacy_keras() && tf_keras_in(env) != nullptr) return false;	if (tf_keras_in(env) != nullptr) return false;
tf-keras-install-no-deps	src/check/tensorflow_companion_checks.cpp	const bool other_dist = tf.package != "tensorflow" && tf.package != "tensorflow-intel";	const bool other_dist = false;
cudnn-load-real-dir-ignored	src/check/compat_checks.cpp	      if (!l.soname.starts_with("libcudnn.so.") || l.path.empty()) continue;\n      const std::string dir = l.dir();	      if (!l.soname.starts_with("libcudnn.so.") || l.path.empty()) continue;\n      const std::string dir = l.named_dir();
load-real-dir-unset	src/probe/framework_libraries.cpp	real && *real != dir) load.real_dir = *real;	real && *real != dir && false) load.real_dir = *real;
tf-plugin-so-n-names	src/probe/python/tf_plugins.cpp	return at != std::string_view::npos && at + 4 < name.size() && name[at + 4] >= '0' && name[at + 4] <= '9';	return at != std::string_view::npos && at + 4 < name.size() && name[at + 4] >= '0' && name[at + 4] <= '9' && false;
tf-plugin-record-owner	src/probe/python/tf_plugins.cpp	for (const std::string& listed : plugins_in_record(*record)) owner_of.emplace(listed, &d);	for (const std::string& listed : plugins_in_record(*record)) owner_of.emplace(listed + "~", &d);
tf-plugin-requirer-lookup	src/probe/python/tf_plugins.cpp	if (r.requires_owner && !r.tensorflow.empty()) {	if (false && r.requires_owner && !r.tensorflow.empty()) {
tf-plugin-elf-class	src/probe/python/tf_plugins.cpp	if (h[4] != 2) return	if (h[4] != 2 && false) return
tf-plugin-empty-file	src/probe/python/tf_plugins.cpp	if (h.empty()) return	if (false) return
tf-plugin-so-dot-name	src/probe/python/tf_plugins.cpp	    if (name.ends_with(".so.")) {\n      return "named	    if (false) {\n      return "named
tf-plugin-device-var	src/probe/python/tf_plugins.cpp	if (named.empty()) return;	if (true) return;
tf-plugin-user-scheme-folder	src/probe/python_probe.cpp	    add(user, enabled ? "user site" : "user scheme");	    add(user, enabled ? "user site" : "user site");
tf-plugin-venv-system-site	src/probe/python_probe.cpp	const bool enabled = !no_user_site && (!is_venv || venv_sees_system_site);	const bool enabled = !no_user_site && (!is_venv || !venv_sees_system_site);
tf-plugin-nousersite	src/probe/python_probe.cpp	const bool no_user_site = system_.env("PYTHONNOUSERSITE").value_or("") != "";	const bool no_user_site = system_.env("PYTHONNOUSERSITE").value_or("") == "never";
tf-plugin-pythonpath	src/probe/python_probe.cpp	if (contains(entry, "site-packages")) add(std::string(entry), "PYTHONPATH");	if (contains(entry, "site-packages") && false) add(std::string(entry), "PYTHONPATH");
tf-plugin-userbase	src/probe/python_probe.cpp	if (auto b = system_.env("PYTHONUSERBASE"); b && !b->empty()) return *b;	if (auto b = system_.env("PYTHONUSERBASE"); b && b->empty()) return *b;
tf-plugin-schemes-from	src/check/tensorflow_plugin_checks.cpp	if (p.reached_via == "user scheme") return known && (tf < kUserSiteGatedFrom || !(tf < kSchemesFrom));	if (p.reached_via == "user scheme") return known && (tf < kUserSiteGatedFrom || !(tf < Version::of({2, 0})));
tf-plugin-marker-ignored	src/check/tensorflow_plugin_checks.cpp	if (req.specifier.empty() || evaluate_marker(req.marker, menv) != true) continue;	if (req.specifier.empty() || menv.platform_system == "never") continue;
tf-plugin-system-user-site	src/check/tensorflow_plugin_checks.cpp	if (outside_the_environment(p) && env.kind != "system" && env.kind != "pyenv") {	if (outside_the_environment(p) && env.kind != "pyenv") {
tf-plugin-device-var-unowned	src/check/tensorflow_plugin_checks.cpp	if (p.owner.empty() && p.owner_known && p.reached_via != kDeviceVariable) {	if (p.owner.empty() && p.owner_known) {
tf-plugin-owner-known-ignored	src/check/tensorflow_plugin_checks.cpp	if (p.owner.empty() && p.owner_known && p.reached_via != kDeviceVariable) {	if (p.owner.empty() && p.reached_via != kDeviceVariable) {
tf-plugin-read-budget	src/probe/python/tf_plugins.cpp	  if (text->size() >= cap) whole = false;	  if (text->size() > cap) whole = false;
tf-plugin-unloadable-once	src/check/tensorflow_plugin_checks.cpp	          .source = source});\n      return;\n    }\n    if (outside_the_environment(p)	          .source = source});\n    }\n    if (outside_the_environment(p)
tf-plugin-user-site-before-2-5	src/check/tensorflow_plugin_checks.cpp	return known && (tf < kUserSiteGatedFrom || !(tf < kSchemesFrom));	return known && (tf < Version::of({1, 0}) || !(tf < kSchemesFrom)) && kUserSiteGatedFrom.major() > 0;
tf-plugin-device-var-from	src/check/tensorflow_plugin_checks.cpp	if (p.reached_via == kDeviceVariable) return known && !(tf < kDeviceVariableFrom);	if (p.reached_via == kDeviceVariable) return known && kDeviceVariableFrom.major() > 0;
tf-plugin-unknown-version	src/check/tensorflow_plugin_checks.cpp	if (tf.version.parts().empty()) return nullptr;	if (tf.version.parts().empty() && false) return nullptr;
tf-plugin-mismatch-first	src/check/tensorflow_plugin_checks.cpp	if (const DistRequirement* unmet = unmet_requirement(env, tf, p)) {	if (const DistRequirement* unmet = p.problem.empty() ? unmet_requirement(env, tf, p) : nullptr) {
tf-plugin-folder-rank	src/probe/python_probe.cpp	} else if (rank(via) < rank(folders[it->second].reached_via)) {	} else if (rank(via) > rank(folders[it->second].reached_via)) {
tf-plugin-folder-canonical	src/probe/python_probe.cpp	auto [it, inserted] = by_real.emplace(*real, folders.size());	auto [it, inserted] = by_real.emplace(dir, folders.size());
tf-plugin-base-site	src/probe/python_probe.cpp	        add(dir, "system site-packages");	        add(dir + "-none", "system site-packages");
tf-plugin-folder-entry	src/probe/python/tf_plugins.cpp	  if (stat && stat->is_dir) return "a folder	  if (stat && stat->is_dir && false) return "a folder
tf-plugin-pie	src/probe/python/tf_plugins.cpp	if (tag == 0x6ffffffb) return (elf_le(*dynamic, d + 8, 8) & 0x08000000U) != 0;	if (tag == 0x6ffffffb) return (elf_le(*dynamic, d + 8, 8) & 0x04000000U) != 0;
tf-plugin-arch	src/probe/python/tf_plugins.cpp	if (want != 0 && machine != want) {	if (want != 0 && machine != want && false) {
tf-headers-not-read	src/probe/python/site_packages.cpp	  if (info.is_cuda_build.value_or(false) &&\n      (!fw.cuda_version	  if (false && info.is_cuda_build.value_or(false) &&\n      (!fw.cuda_version
tf-headers-cuda-over-build-info	src/probe/python/site_packages.cpp	    if (field && field->parts().size() >= 2) return;	    if (field && false) return;
tf-headers-cuda-define	src/probe/python/site_packages.cpp	  fill(fw.cuda_version, "cuda", "cuda.h", parse_cuda_h);	  fill(fw.cuda_version, "cuda", "cuda.h", parse_cudnn_header);
unknown-tf-loads-skipped	src/check/compat_checks.cpp	    if (resolved) missing_loads(env, fw, display, fix, fw.evidence);	    if (!resolved) missing_loads(env, fw, display, fix, fw.evidence);
unknown-tf-cudnn-skipped	src/check/compat_checks.cpp	    if (cudnn && seen.version) {\n      tf_cudnn_mismatch(	    if (cudnn && seen.version && false) {\n      tf_cudnn_mismatch(
unknown-tf-driver-skipped	src/check/compat_checks.cpp	    driver_for_framework(env, fw, display, *cuda);\n    const std::string arch_fix =	    const std::string arch_fix =
unknown-tf-and-cuda-extra	src/check/compat_checks.cpp	[](const DistRequirement& r) { return contains(r.marker, "and-cuda"); });	[](const DistRequirement& r) { return contains(r.marker, "and_cuda"); });
tf-cudnn-older-minor	src/check/compat_checks.cpp	    const bool older = !major_differs && want.parts().size() >= 2 && seen.version->minor() < want.minor();	    const bool older = !major_differs && want.parts().size() >= 2 && seen.version->minor() > want.minor();
version-dev-dot	src/core/version.cpp	  if (pre_.starts_with("dev")) out += '.';	  if (pre_.starts_with("xdev")) out += '.';
version-dev-rank	src/core/version.cpp	  k.rank = tag == "dev"	  k.rank = tag == "Dev"
elf-load-phnum-cap	src/probe/python/tf_plugins.cpp	  const std::uint64_t phnum = std::min<std::uint64_t>(elf_le(h, 56, 2), 256);	  const std::uint64_t phnum = elf_le(h, 56, 2);
elf-load-dynamic-cap	src/probe/python/tf_plugins.cpp	std::min<std::uint64_t>(elf_le(*phdrs, at + 32, 8), 64 * 1024)	elf_le(*phdrs, at + 32, 8)
tf-headers-cudnn-minor	src/probe/python/site_packages.cpp	    if (field && field->parts().size() >= 2) return;	    if (field) return;
tf-headers-other-major	src/probe/python/site_packages.cpp	if (!v || (field && field->major() != v->major())) return;	if (!v) return;
and-cuda-versions-skipped	src/probe/python/site_packages.cpp	    if (!fw.cuda_version || !fw.cudnn_version) and_cuda_versions(fw, metadata, notes);	    if (false) and_cuda_versions(fw, metadata, notes);
tf-needs-cuda13	src/probe/framework_libraries.cpp	  if (cuda_major == 13) {\n    return {"libcudart.so.13", "libcublas.so.13",   "libcublasLt.so.13",	  if (cuda_major == 1300) {\n    return {"libcudart.so.13", "libcublas.so.13",   "libcublasLt.so.13",
unknown-tf-unresolved-skipped	src/check/compat_checks.cpp	      tf_unresolved_libraries(env, fw, display, cudnn, seen.version.has_value(), cuda, and_cuda, fw.evidence);	      (void)and_cuda;
unknown-tf-arch-neighbour	src/check/compat_checks.cpp	doubtful_by(env, fw, *like, arch_fix, [](const KnownGpu&) { return true; });	doubtful_by(env, fw, *like, arch_fix, [](const KnownGpu&) { return false; });
unknown-tf-cudnn-range-wording	src/check/compat_checks.cpp	and_cuda_fix(env, fw, *cudnn, seen, false)	and_cuda_fix(env, fw, *cudnn, seen, true)
tf-rocm-dist	src/probe/python/site_packages.cpp	"tensorflow-rocm"};	"tensorflow-rocm-x"};
version-tag-case	src/core/version.cpp	  const std::string tag = to_lower(pre.substr(0, letters));	  const std::string tag = std::string(pre.substr(0, letters));
version-dev-after	src/core/version.cpp	  k.dev_after = rest.empty() ? 1 : k.rank != 0 && to_lower(rest).starts_with("dev") ? 0 : 2;	  k.dev_after = rest.empty() ? 1 : 2;
version-number-length	src/core/version.cpp	  k.digits = number.size();	  k.digits = 0;
tf-dist-intel	src/check/compat_checks.cpp	  return fw.package.starts_with("tf-nightly") ? "tf-nightly" : "tensorflow";	  return fw.package.empty() ? "tensorflow" : fw.package;
decoder-cr-ends-line	src/explain/log_decoder.cpp	    if (stop == nl) {\n      emit_line();	    if (stop != nullptr) {\n      emit_line();
decoder-part-number	src/explain/log_decoder.cpp	  deliver(stats_.lines + 1);	  deliver(stats_.lines);
decoder-part-twice	src/explain/log_decoder.cpp	  if (!parts_emitted_ || !line_.empty()) deliver(stats_.lines);	  if (true) deliver(stats_.lines);
session-part-numbering	src/explain/explain_session.cpp	  if (decoder_no != last_no) ++lines_;	  ++lines_;
log-event-ignored	src/explain/explain_machine.cpp	        log.events.insert(event);	        log.events.insert(std::string(capture));
cublas-not-demoted	data/explain/memory.toml	when = ["!device-assert"]\ncause = "cuBLAS failed	cause = "cuBLAS failed
jaxlib-not-demoted	data/explain/framework-build.toml	when = ["!jax-plugin-failed"]\ncause = "Only the CPU jaxlib	cause = "Only the CPU jaxlib
xla-ptxas-under-triton	data/explain/ptxas-xla.toml	when = ["!triton-ptxas"]\ncause = "The ptxas found	cause = "The ptxas found
triton-gcc-claims-libcuda	data/explain/extension-packages.toml	priority = 56\n	priority = 90\n
truncation-note-beside	src/render/explain_text.cpp	  out += truncation_note(report) +	  out += std::string() +
sharing-fix-one	src/check/python_checks.cpp	                   : !fw.sharing.empty()	                   : false
sharing-ort	src/probe/python/site_packages.cpp	        fw.sharing = ort_names;	        fw.sharing = {};
keras-by-metadata-skipped	src/check/tensorflow_companion_checks.cpp	        keras_by_metadata(env, fw, *tf);\n	        if (false) keras_by_metadata(env, fw, *tf);\n
keras-by-metadata-severity	src/check/tensorflow_companion_checks.cpp	      const bool other_major = low && keras.version.major() < low->major();	      const bool other_major = false;
keras-requires-unread	src/probe/python/site_packages.cpp	(req->name == "keras" || req->name == "keras-nightly")	(req->name == "keras")
nvjitlink-missing-ignored	src/probe/framework_libraries.cpp	    if (provider.path.empty()) return *soname;	    if (provider.path.empty()) return std::nullopt;
nvjitlink-cusolver-unchecked	src/probe/framework_libraries.cpp	{"libcusparse.so.", "libcusolver.so."}	{"libcusparse.so."}
missing-dependency-unsaid	src/check/compat_checks.cpp	        if (!l.via.empty()) {\n          dependencies +=	        if (false) {\n          dependencies +=
visible-uuid-any	src/check/env_checks.cpp	      valid = matches == 1;	      valid = matches < 2;
visible-stop-at-invalid	src/check/env_checks.cpp	      c.first_invalid = e;\n      break;	      c.first_invalid = e;\n      continue;
visible-index-bound	src/check/env_checks.cpp	std::stoul(e) < gpus.size()	std::stoul(e) <= gpus.size()
jax-fix-plugin-major	src/check/python_checks.cpp	other.variant.starts_with("cuda")) extra = other.variant;	other.variant.starts_with("cuda")) extra = "cuda12";
cudnn-fix-any-older	src/check/compat_checks.cpp	|| !cudnn_serves(b, g)) continue;	|| (false && !cudnn_serves(b, g))) continue;
cudnn-fix-oldest	src/check/compat_checks.cpp	      if (best == nullptr || *best->cudnn.lowest() < *low) best = &b;	      if (best == nullptr || *low < *best->cudnn.lowest()) best = &b;
cudnn-fix-no-other-major	src/check/compat_checks.cpp	        if (other == cuda_major) continue;	        if (true) continue;
pins-extra-ignored	src/check/requirement_checks.cpp	if (evaluate_marker(r.marker, menv) == false && !contains(r.marker, "extra")) continue;	if (evaluate_marker(r.marker, menv) == false) continue;
pins-conflict-unused	src/check/requirement_checks.cpp	          against.empty()\n	          true\n
cudnn-major-fix-adds	src/check/compat_checks.cpp	    if (lib.origin == "pip-wheel" && l.via == "pip wheel") {	    if (false && l.via == "pip wheel") {
cudnn-major-fix-no-pin	src/check/compat_checks.cpp	      spec = r.specifier;  // the first: one line per platform marker may repeat the pin	      spec = "";  // the first: one line per platform marker may repeat the pin
ld-linked-dir-named	src/check/toolkit_checks.cpp	load.via == "LD_LIBRARY_PATH" && load.dir() == lib.path	load.via == "LD_LIBRARY_PATH" && load.named_dir() == lib.path
ld-linked-fix-real	src/check/toolkit_checks.cpp	if (from_copy) named = load.named_dir();	if (from_copy) named = lib.path;
cudnn-major-linked-dir	src/check/compat_checks.cpp	if (lib.name != "cudnn" || lib.path != dir || !lib.cuda_major	if (lib.name != "cudnn" || lib.path != l.named_dir() || !lib.cuda_major
codepage-not-recoded	src/explain/log_decoder.cpp	  if (auto text = converter_->to_utf8(line)) {	  if (auto text = converter_->to_utf8(line); false && text) {
codepage-no-korean	src/explain/log_decoder.cpp	    if (only_hangul_rows) return Codepage::uhc;	    if (false && only_hangul_rows) return Codepage::uhc;
utf16-bomless-cjk-missed	src/explain/log_decoder.cpp	  } else if (const int u = bomless_utf16(h); u != 0) {	  } else if (const int u = bomless_utf16(h); false && u != 0) {
long-line-tail-dropped	src/explain/log_decoder.cpp	        keep_tail(std::string_view(p + room, seg - room));	        if (false) keep_tail(std::string_view(p + room, seg - room));
cut-utf8-recoded	src/explain/log_decoder.cpp	  if (cut == Cut::head && cut_utf8_tail(line, bad)) {	  if (false && cut_utf8_tail(line, bad)) {
plan-driver-not-ranked	src/kb/resolver.cpp	const bool as_is = !has_issue(o, "driver-too-old") && !o.python_change && arch_risk <= 1;	const bool as_is = !o.python_change && arch_risk <= 1;
plan-wsl-windows-python	src/kb/resolver.cpp	  if (req.os == Platform::windows) r.python = Version::parse(kWslPython);	  if (false) r.python = Version::parse(kWslPython);
plan-tf-conda-no-libpath	src/kb/resolver.cpp	    std::string paths = "$CONDA_PREFIX/lib/";	    std::string paths = "";
plan-jax-pin-not-shown	src/kb/resolver.cpp	if (std::optional<Version> exact = exact_pin(fr); exact && KnowledgeBase::in_release_run(rel->versions, *exact)) {	if (std::optional<Version> exact = exact_pin(fr); false && exact) {
jax-plugin-coverage-ignored	src/check/compat_checks.cpp	      if (c == ArchCoverage::native || c == ArchCoverage::unknown) continue;	      if (c != ArchCoverage::none || true) continue;
ps-exit-unchecked	src/render/plan_script.cpp	(bash ? c.line : checked_powershell(c.line))	(bash || true ? c.line : checked_powershell(c.line))
ps-exit-no-reset	src/render/plan_script.cpp	out += "$global:LASTEXITCODE = 0	out += "$global:LASTEXITCODE_ = 0
ps-quote-undoubled	src/render/plan_script.cpp	    if (safe[i] == '\'') {	    if (false) {
ps-smart-quote-undoubled	src/render/plan_script.cpp	static_cast<unsigned char>(safe[i + 2]) >= 0x98 &&	static_cast<unsigned char>(safe[i + 2]) >= 0x9C &&
script-other-shell-unsaid	src/render/plan_script.cpp	  if (own || !other) return nullptr;	  if (true) return nullptr;
tv-warning-as-error	data/explain/framework-build.toml	severity = "warning"\npriority = 45\ntailor = "framework-build"	severity = "error"\npriority = 45\ntailor = "framework-build"
tv-quoted-error-answered	data/explain/framework-build.toml	supersedes = ["windows-dll-procedure-not-found", 	supersedes = [
jax-floor-said-no-kernels	src/kb/resolver.cpp	      } else if (below_floor && plugin != nullptr &&	      } else if (false && below_floor && plugin != nullptr &&
tf-windows-unversioned-unlikely	src/explain/explain_machine.cpp	    return windows && !machine.log.versions.contains("tensorflow") ? Truth::yes : exact;	    return windows && false ? Truth::yes : exact;
codepage-cut-lead-kept	src/explain/log_decoder.cpp	    if (cut == Cut::head && ends_in_lone_lead(line, *rules)) {	    if (false && ends_in_lone_lead(line, *rules)) {
codepage-cut-guess-strict	src/explain/log_decoder.cpp	    Codepage page = guess_codepage(line, cut == Cut::head);	    Codepage page = guess_codepage(line, false);
codepage-tail-unaligned	src/explain/log_decoder.cpp	               fit(std::string_view(line).substr(1), *rules).valid) {	               fit(std::string_view(line).substr(1), *rules).valid && false) {
bench-lost-unjudged	src/model/bench_report.cpp	      if (!m.ok() || *m.value <= 0 || !selected(m.key) || ok_measurement(current, m.key) != nullptr) continue;	      if (!m.ok() || *m.value <= 0 || !selected(m.key) || true) continue;
bench-lost-not-regression	src/model/bench_report.cpp	  return change.verdict == "regression" || change.verdict == "not measured";	  return change.verdict == "regression";
bench-selection-ignored	src/cli/cmd_bench.cpp	    return o.gpu && (o.only.empty() ||	    return (o.only.empty() ||
bench-noise-between-runs-ignored	src/model/bench_report.cpp	3.0 * spread, 3.0 * between_runs});	3.0 * spread, 0.0 * between_runs});
bench-previous-latest-only	src/model/bench_report.cpp	    c.previous = median_of(values);	    c.previous = values.front();
history-linked-dir-refused	src/platform/bench_history.cpp	    if (!ec) file = real / file.filename();	    if (false) file = real / file.filename();
history-error-fails-run	src/cli/cmd_bench.cpp	      report.notes.push_back("this run was not saved in the bench history: " + history.error().message);	      report.problems.push_back("this run was not saved in the bench history: " + history.error().message);
serve-failure-hidden	src/monitor/sampler.cpp	      if (next < now) next = failed ? now + interval : now;	      if (next < now) next = failed && false ? now + interval : now;
serve-failures-uncounted	src/monitor/sampler.cpp	      if (failed) ++failed_samples_;	      if (false) ++failed_samples_;
report-mistyped-ignored	src/cli/cmd_report.cpp	  if (mistyped.paths().empty()) return false;	  if (true) return false;
report-absurd-figure	src/cli/cmd_report.cpp	  return value >= 0 && value < 1e12;	  return value >= 0;
codec-field-unnoted	src/model/json_codec.cpp	      if (!decode(*j, v)) note_mistyped();	      if (!decode(*j, v)) (void)0;
codec-element-unnoted	src/model/json_codec.cpp	        v.push_back(std::move(inner));\n      else\n        note_mistyped();	        v.push_back(std::move(inner));\n      else\n        (void)0;
csv-time-seconds	src/render/monitor_text.cpp	  if (!t.empty() && t.back() == 'Z') t.insert(	  if (false && t.back() == 'Z') t.insert(
bench-busy-unsaid	src/model/bench_report.cpp	  if (load < std::max(1.0, 0.1 * cpus)) return std::nullopt;	  if (load < 1e9 * std::max(1.0, 0.1 * cpus)) return std::nullopt;
explain-trt-fatal-line-harmless	data/explain/libraries.toml	supersedes = ["tensorrt-library-missing"]	supersedes = []
explain-ort-trt-fallback-harmless	data/explain/onnxruntime.toml	severity = "warning"\npriority = 50	severity = "info"\nharmless = true\npriority = 50
explain-ct2-cuda-prefix-dropped	data/explain/error-codes.toml	(?:CUDA error: |CUDA failed with error |CUDA failure \d+: |THCudaCheck(?:Warn)? FAIL\b.*\berror=\d+ : |cuda runtime error \(\d+\) : )out of memory(?:	(?:CUDA error: )out of memory(?:
explain-cuda-error-event-unread	src/explain/explain_machine.cpp	{"cuda_error", "cuda-error"},	{"cuda_error_unread", "cuda-error"},
explain-ct2-float16-cpu-leads	data/explain/extension-packages.toml	when = ["cuda-error"]	when = ["device-assert"]
explain-ort-extras-version-unsaid	data/explain/onnxruntime.toml	with pip on onnxruntime-gpu 1.21 and later, `pip install \"onnxruntime-gpu[cuda,cudnn]\"` brings it as	with pip, `pip install \"onnxruntime-gpu[cuda,cudnn]\"` brings it as
explain-bnb-cpu-torch-not-read	data/explain/extension-packages.toml	priority = 60\nwhen = ["framework-cpu-build"]\ncause = "This is a CPU build of PyTorch (the log shows a `+cpu` version or a build without CUDA), so `torch.cuda.is_available()`	priority = 60\nwhen = ["platform-wsl2"]\ncause = "This is a CPU build of PyTorch (the log shows a `+cpu` version or a build without CUDA), so `torch.cuda.is_available()`
explain-bnb-false-claim-back	data/explain/extension-packages.toml	Then upgrade bitsandbytes if it is older than 0.43	Then upgrade it (`pip install -U bitsandbytes`: 0.43 and later ship CUDA binaries for Linux and Windows across CUDA 11.x-12.x) if it is older than 0.43
explain-xformers-probe-not-harmless	data/explain/performance.toml	harmless = true\n# 58:	harmless = false\n# 58:
explain-vllm-infer-device-missed	data/explain/no-gpu.toml	'''RuntimeError: Failed to infer device type''',	'''RuntimeError: Failed to infer the device type''',
explain-min-capability-three-digits	data/explain/gpu-arch.toml	Minimum capability: (?P<need_major>\d)(?P<need_minor>\d)\.	Minimum capability: (?P<need_major>\d)(?P<need_minor>\d)\d\.
explain-mmcv-ext-missed	data/explain/extension-packages.toml	No module named '(?P<module>(?P<package>mmcv|	No module named '(?P<module>(?P<package>mmcvx|
explain-cmake-toolkit-below-pip	data/explain/toolkit.toml	priority = 80\ntailor = "cuda-runtime"\npatterns = [\n  '''Could NOT find CUDAToolkit	priority = 30\ntailor = "cuda-runtime"\npatterns = [\n  '''Could NOT find CUDAToolkit
explain-deepspeed-ninja-missed	data/explain/extension-packages.toml	'''due to ninja not being installed'''	'''due to ninja not installed'''
explain-fa2-toggled-missed	data/explain/extension-packages.toml	FlashAttention2 has been toggled on, but it cannot be used due to the following error: (?P<reason>	FlashAttention2 has been turned on, but it cannot be used due to the following error: (?P<reason>
explain-vllm-zero-blocks-context-fix	data/explain/memory.toml	patterns = ['''No available memory for the cache blocks''']	patterns = ['''No available memory for the cache blockz''']
explain-vllm-fork-generic	data/explain/framework-messages.toml	supersedes = ["torch-cuda-in-forked-subprocess"]	supersedes = []
explain-log-refuted-candidate-listed	src/explain/explain_session.cpp	      if (log_refutes(c, h) && (k > 0 || !keep_own)) continue;	      if (false && log_refutes(c, h) && (k > 0 || !keep_own)) continue;
explain-explains-ignored	src/explain/explain_session.cpp	    if (explained.contains(rule.id)) continue;	    if (false && explained.contains(rule.id)) continue;
explain-tf-host-oom-gpu-kept	data/explain/memory.toml	when = ["!host-oom"]	when = []
explain-torch-oom-1eb-missed	data/explain/memory.toml	'''Tried to allocate (?P<size>more than 1EB) memory'''	'''Tried to allocate (?P<size>more than 1EiB) memory'''
explain-torch-cublas-create-missed	data/explain/memory.toml	when calling `cublas(?:Lt)?Create\(	when calling `cublasLtCreate\(
explain-ecc-cuda-error-generic	data/explain/xid.toml	'''\buncorrectable ECC error encountered\b''',	'''\buncorrectable ECC error encountred\b''',
explain-amp-cpu-fallback-missed	data/explain/no-gpu.toml	'''GradScaler is enabled, but CUDA is not available\.\s+Disabling'''	'''GradScaler is enabled, but CUDA is not available\.\s+Disabled'''
explain-gradscaler-fp16-missed	data/explain/training-libraries.toml	patterns = ['''Attempting to unscale FP16 gradients''']	patterns = ['''Attempting to unscale FP32 gradients''']
explain-smi-thermal-any-state	data/explain/xid.toml	Thermal Slowdown)\s*:\s*Active\s*$'''	Thermal Slowdown)\s*:\s*(?:Not )?Active\s*$'''
explain-smi-ecc-zero-counts	data/explain/xid.toml	(?P<counter>Uncorrectable Error)\s*:\s*(?P<count>[1-9]\d*)	(?P<counter>Uncorrectable Error)\s*:\s*(?P<count>\d+)
explain-same-lib-not-superseded	src/explain/explain_session.cpp	(lines_covered(h, it->second) || same_libraries(h, rule.id))	(lines_covered(h, it->second) || (false && same_libraries(h, rule.id)))
explain-log-torch-cuda-unused	src/explain/explain_session.cpp	  out.try_emplace("torch_cuda", std::vector<std::string>{major + "." + digits.back()});	  (void)major;
explain-ct2-cublas-generic	data/explain/extension-packages.toml	  '''\bLibrary (?P<lib>libcublas(?:Lt)?\.so\.(?P<major>\d+)) is not found or cannot be loaded''',	  '''\bLibrary (?P<lib>libcublas(?:Lt)?\.so\.(?P<major>\d+)) is never printed''',
explain-llama-runtime-generic	data/explain/extension-packages.toml	supersedes = ["python-import-cuda-lib-version-missing", "cudart-missing", "cuda-library-missing"]	supersedes = []
win-dll-cuda13-unmodelled	src/probe/windows_dll_search.cpp	    out = cuda_dlls_of_major(major, {"cufft"});	    return out;
ort-driver-floor-unchecked	src/check/compat_checks.cpp	          driver_for_framework(env, fw, "ONNX Runtime", *fw.cuda_version);	          (void)0;
ort-preload-any-version	src/model/framework.cpp	  return fw.version >= Version::of({1, 21});	  return fw.version >= Version::of({1, 0});
ort-wheels-serve-without-preload	src/probe/framework_libraries.cpp	      n.wheels_unreachable = !n.wheels_need_preload;	      n.wheels_need_preload = true;
jax-windows-cpu-plugin-fix	src/check/compat_checks.cpp	if (facts_.platform == Platform::windows && (v != nullptr || !gpus_.empty() || !facts_.gpus.empty())) {	if (facts_.platform == Platform::windows && v != nullptr) {
tf-windows-kernels-release-fix	src/check/compat_checks.cpp	        facts_.platform == Platform::windows\n            ? "Use a newer TensorFlow in WSL2	        facts_.platform == Platform::wsl2\n            ? "Use a newer TensorFlow in WSL2
tf-cudnn-linux-name-on-windows	src/check/compat_checks.cpp	? "cudnn64_" + std::to_string(want.major()) + ".dll"	? "libcudnn.so." + std::to_string(want.major())
windows-bare-pip	src/check/which_pip.cpp	  if (facts.platform != Platform::windows || facts.python_envs.size() < 2) return "";	  return "";
explain-nccl-heartbeat-as-timeout	data/explain/nccl.toml	supersedes = ["nccl-timeout"]	supersedes = []
explain-nccl-oom-last-error-missed	data/explain/nccl.toml	'''^(?:Last error: ?)?Cuda failure (?:\d+ )?'	'''^Cuda failure (?:\d+ )?'
explain-cublas-exec-after-assert-kept	data/explain/program-errors.toml	when = ["device-assert"]\ncause = "A GPU kernel's assertion failed earlier in this log (its own answer comes first). From then on the process's CUDA context is unusable and every CUDA call fails, so the cuBLAS routine	when = []\ncause = "A GPU kernel's assertion failed earlier in this log (its own answer comes first). From then on the process's CUDA context is unusable and every CUDA call fails, so the cuBLAS routine
explain-misaligned-address-generic	data/explain/program-errors.toml	'''CUDA (?:driver )?error: misaligned address''',	'''CUDA (?:driver )?error: misaligned addresses''',
watch-absurd-sample-drawn	src/monitor/watch_summary.cpp	|| !snapshot_from_json(j, s) || !a_gpu_could_report(s)) {	|| !snapshot_from_json(j, s) || (false && !a_gpu_could_report(s))) {
win-dll-torch-cuda13-unmodelled	src/probe/windows_dll_search.cpp	  if (major >= 13) return cuda_dlls_of_major(major, {"cufft", "cusolver", "cusparse"});	  if (major >= 13) return {};
explain-triton-path-not-the-culprit	data/explain/ptxas-xla.toml	when = ["triton-ptxas", "!triton-ptxas-path", "!triton-ptxas-legacy"]	when = ["triton-ptxas", "!triton-ptxas-legacy"]
explain-triton-ptxas-path-fact-missed	data/explain/log-facts.toml	(?i:cuda)[^/\\\s]*(?:[/\\]v?\d+	(?i:cudax)[^/\\\s]*(?:[/\\]v?\d+
explain-triton31-codegen-error-not-triton	data/explain/log-facts.toml	'''\b(?P<triton_ptxas>Internal Triton PTX codegen error)\b''',	'''\b(?P<triton_ptxas>Internal Triton PTX codegen errors)\b''',
explain-torch-cudnn-not-supported-generic	data/explain/cudnn.toml	CUDNN_STATUS_NOT_SUPPORTED\. This error may appear	CUDNN_STATUS_NOT_SUPPORTEDX\. This error may appear
explain-torch-cudnn-execution-failed-generic	data/explain/cudnn.toml	CUDNN_STATUS_EXECUTION_FAILED\b'''	CUDNN_STATUS_EXECUTION_FAILEDX\b'''
explain-transformers-bnb-latest-version-missed	data/explain/extension-packages.toml	requires the latest version of bitsandbytes'''	requires the latest version of bitsandbytesX'''
explain-bnb-dispatched-on-cpu-missed	data/explain/memory.toml	Make sure you have enough GPU RAM to fit'''	Make sure you have enough GPU RAM to fitX'''
explain-vllm-memory-profiling-missed	data/explain/memory.toml	Error in memory profiling\. Initial	Error in memory profilingX\. Initial
explain-openmmlab-range-keeps-the-full-stop	data/explain/extension-packages.toml	(?:, ?<=?\d+(?:\.\w+)*)?)	(?:, ?<=?[\w.]+)?)
pe-imports-delay-dir-skipped	src/probe/pe_imports.cpp	  if (auto ok = r.directory(PeDirectory::delay_imports, kDelayDescriptorBytes, 4, true); !ok) return ok.error();	  if (false) (void)r.directory(PeDirectory::delay_imports, kDelayDescriptorBytes, 4, true);
pe-imports-dup-kept	src/probe/pe_imports.cpp	    if (!seen) out_.push_back(PeImport{dll, delay});	    (void)seen;\n    out_.push_back(PeImport{dll, delay});
pe-imports-va-not-rebased	src/probe/pe_imports.cpp	        rva -= h_.image_base;	        (void)0;
pe-imports-any-name	src/probe/pe_imports.cpp	    if (!plausible_dll_name(n)) return bad("an imported DLL's name is not a file name");	    if (n.empty() && !plausible_dll_name(n)) return bad("an imported DLL's name is not a file name");
pe-imports-cut-name-kept	src/probe/pe_imports.cpp	    if (end == std::string::npos) return bad("an imported DLL's name is not terminated");	    if (end == std::string::npos && bytes->empty()) return bad("an imported DLL's name is not terminated");
pe-imports-unbounded-room	src/probe/pe_imports.cpp	std::min<std::uint64_t>(h_.raw_bytes_from(dir->rva), (kMaxPeImports + 1) * stride)	std::max<std::uint64_t>(dir->size, (kMaxPeImports + 1) * stride)
dll-imports-windows-own-searched	src/probe/windows_dll_search.cpp	        if (provided_by_windows(i.dll)) continue;	        if (false && provided_by_windows(i.dll)) continue;
dll-imports-beside-searched	src/probe/windows_dll_search.cpp	        if (const std::string beside = system_.join(folder, i.dll); system_.is_file(beside)) {	        if (const std::string beside = system_.join(folder, i.dll); false && system_.is_file(beside)) {
dll-imports-known-not-annotated	src/probe/windows_dll_search.cpp	          if (known->needed_by.empty() || (known->delay_loaded && !i.delay_loaded)) {	          if (false) {
dll-imports-torch-lib-unread	src/probe/windows_dll_search.cpp	        imports(files_in(lib, ".dll"), "torch-dll-loader", fw, env, dirs, out);	        if (false) imports(files_in(lib, ".dll"), "torch-dll-loader", fw, env, dirs, out);
dll-imports-ort-provider-unread	src/probe/windows_dll_search.cpp	          imports({system_.join(capi, "onnxruntime_providers_cuda.dll")}, "onnxruntime-provider-bridge", fw, env, dirs,	          if (false) imports({system_.join(capi, "onnxruntime_providers_cuda.dll")}, "onnxruntime-provider-bridge", fw, env, dirs,
dll-imports-delay-not-kept	src/probe/windows_dll_search.cpp	            known->delay_loaded = i.delay_loaded;	            known->delay_loaded = false;
msvc-missing-importer-unnamed	src/check/windows_checks.cpp	      if (importer.empty() && !l->needed_by.empty()) importer = file_name(l->needed_by);	      (void)file_name;
msvc-missing-later-dll-unexplained	src/check/windows_checks.cpp	    if (beyond_self_check && !importer.empty()) {	    if (false) {
dll-missing-delay-unsaid	src/check/windows_checks.cpp	    s += l.delay_loaded ? " (delay-loaded by "	    s += false ? " (delay-loaded by "
explain-oom-other-share-ignored	src/explain/rule_matcher.cpp	                    (share.at_most < 0 || sum <= share.at_most * *whole);	                    (share.at_most < 0 || true);
explain-oom-other-share-bound	data/explain/memory.toml	# Others hold at least a quarter of the card, and the request fits beside this process alone.\nrequire_share = [\n  { sum = ["free", "self"], of = "total", at_most = 0.75 },	# Others hold at least a quarter of the card, and the request fits beside this process alone.\nrequire_share = [\n  { sum = ["free", "self"], of = "total", at_most = 1.0 },
explain-oom-other-missed	data/explain/memory.toml	Process \d+ has [\d.]+ (?:bytes|[KMGT]iB) memory in use)*)\. Including non-PyTorch memory, this process has	Process \d+ has [\d.]+ (?:bytes|[KMGT]iB) memory in use)*)\. Including non-PyTorch memory, the process has
explain-version-part-kept	src/explain/explain_session.cpp	      return OpenedPart{colon + 1, label, !known || spec->contains(v->second), known};	      return OpenedPart{colon + 1, label, true, known};
explain-oom-old-torch-expandable	data/explain/memory.toml	fix = "Reduce the batch size or input size; use mixed precision (torch.autocast) or gradient checkpointing; free other GPU processes (nvidia-smi). {?torch>=2.1:	fix = "Reduce the batch size or input size; use mixed precision (torch.autocast) or gradient checkpointing; free other GPU processes (nvidia-smi). {?torch>=1.0:
explain-triton-legacy-missed	data/explain/log-facts.toml	  '''\b(?P<triton_ptxas_legacy>Internal Triton PTX codegen error):(?:\s|$)''',	  '''\b(?P<triton_ptxas_legacy>Internal Triton PTX codegen error)xx:(?:\s|$)''',
explain-size-units-ignored	src/explain/rule_matcher.cpp	      if (u == unit.front()) break;	      if (u == unit.front() || true) break;
explain-r37-extension-event-dropped	src/explain/explain_machine.cpp	{"compiled_extension", "compiled-extension"},	{"compiled_extension_none", "compiled-extension"},
explain-r37-extension-alt-unconditional	data/explain/gpu-arch.toml	when = ["compiled-extension"]	when = []
explain-r37-extension-torch-c-counted	data/explain/log-facts.toml	'''(?:^|[\s(=,])(?P<compiled_extension>_C)\.[A-Za-z]\w*\('''	'''(?P<compiled_extension>_C)\.\w+\('''
explain-r37-nccl-not-superseding	data/explain/nccl.toml	supersedes = ["undefined-symbol-wrong-library"]	supersedes = []
explain-r37-nccl-any-symbol	data/explain/nccl.toml	'''undefined symbol: (?P<symbol>nccl[A-Z]	'''undefined symbol: (?P<symbol>[A-Za-z_]
explain-r37-split-libtorch-any	data/explain/runtime-abi.toml	libtorch_cuda_(?:cu|cpp)\.so): cannot	libtorch_cuda\w*\.so): cannot
explain-r37-cublas-bf16-any-half	data/explain/program-errors.toml	\bCUDA_R_16BF\b	\bCUDA_R_16B?F\b
explain-r37-ort-full-path-missed	data/explain/onnxruntime.toml	Failed to load library (?:\S*/)?(?P<provider>libonnxruntime_providers_cuda\.so) with error: (?:(?P<lib>	Failed to load library (?P<provider>libonnxruntime_providers_cuda\.so) with error: (?:(?P<lib>
explain-r37-ort-toolkit-tf-kept	data/explain/libraries.toml	when = ["!toolkit-present", "!nvidia-wheels", "!onnxruntime-log", "!jetson"]	when = ["!toolkit-present", "!nvidia-wheels", "!jetson"]
explain-r37-ort-generic-own-kept	data/explain/libraries.toml	when = ["!onnxruntime-log", "!jetson"]\ncause = "{lib|A CUDA library} was not found.	when = ["!jetson"]\ncause = "{lib|A CUDA library} was not found.
explain-r37-soname-is-toolkit	data/explain/libraries.toml	libnvrtc.so.11.2 is the NVRTC of CUDA 11.2 to 11.8, libcufft.so.10 the cuFFT of CUDA 11): the package	.so.{version|N} = CUDA {version|of that version}): the package
explain-r37-trt7-magic-missed	data/explain/extension-packages.toml	Magic tag does not match'''	Magic tag does not matchX'''
explain-torch-cxx11-abi-from-28	src/explain/explain_machine.cpp	  if (*v >= Version::of({2, 7})) return Truth::yes;	  if (*v >= Version::of({2, 8})) return Truth::yes;
explain-fbgemm-libomp-any-release	src/explain/explain_machine.cpp	  return truth(v->same_series(Version::of({2, 4, 0}), 3));	  return Truth::yes;
explain-gpu-selection-event-lost	src/explain/explain_machine.cpp	{"gpu_selection", "gpu-selection"},	{"gpu_selection_unused", "gpu-selection"},
explain-cuda-ld-path-event-lost	src/explain/explain_machine.cpp	{"cuda_ld_path", "cuda-ld-path"},	{"cuda_ld_path_unused", "cuda-ld-path"},
explain-fbgemm-general-kept	data/explain/libraries.toml	supersedes = ["framework-native-library-missing"]\nwhen = ["torch-fbgemm-needs-libomp"]	when = ["torch-fbgemm-needs-libomp"]
explain-fbgemm-version-ignored	data/explain/libraries.toml	when = ["torch-fbgemm-needs-libomp"]\n	\n
explain-jax-wheels-ignored	data/explain/framework-build.toml	when = ["nvidia-wheels"]\ncause = "The nvidia-* wheels are installed	when = ["container"]\ncause = "The nvidia-* wheels are installed
explain-jax-ld-path-ignored	data/explain/framework-build.toml	when = ["!cuda-ld-path"]\n	\n
explain-uv-wheels-unread	data/explain/log-facts.toml	(?:\+ )?(?P<nvidia_wheel>nvidia-[a-z0-9-]+-cu\d+)(?:==|\s+)	(?:\+ )?(?P<nvidia_wheel>nvidia-[a-z0-9-]+-cu\d+)(?:===|\s+)
explain-cxx11-abi-no-supersede	data/explain/runtime-abi.toml	\w*__cxx11\w*)''',\n]\nsupersedes = ["torch-extension-abi-mismatch", "undefined-symbol-wrong-library"]	\w*__cxx11\w*)''',\n]\nsupersedes = ["undefined-symbol-wrong-library"]
explain-cxx11-new-abi-ignored	data/explain/runtime-abi.toml	priority = 78\nwhen = ["torch-cxx11-abi"]	priority = 78
explain-program-picks-gpu-always	data/explain/no-gpu.toml	priority = 60\nwhen = ["gpu-selection"]	priority = 60
explain-set-device-unread	data/explain/log-facts.toml	(?P<gpu_selection>torch\.cuda\.set_device)\(	(?P<gpu_selection>torch\.cuda\.set_devicex)\(
explain-k8s-nodes-uncaptured	data/explain/container.toml	(?P<nodes>\d+) Insufficient	(?P<nodesx>\d+) Insufficient
explain-k8s-gpu-unmatched	data/explain/container.toml	  '''\bInsufficient (?P<resource>nvidia\.com/(?:gpu|mig-[\w.-]+))''',	  '''\bInsufficient (?P<resource>nvidia\.com/(?:gpux|mig-[\w.-]+))''',
explain-numba-nvvm-unmatched	data/explain/toolkit.toml	  '''libNVVM cannot be found\.''',	  '''libNVVM cannot be foundx\.''',
explain-oom-held-elsewhere-share-bound	data/explain/memory.toml	# request would fit beside PyTorch's reserve alone.\nrequire_share = [\n  { sum = ["free", "self"], of = "total", at_most = 0.75 },	# request would fit beside PyTorch's reserve alone.\nrequire_share = [\n  { sum = ["free", "self"], of = "total", at_most = 0.99 },
explain-oom-held-elsewhere-cached-missed	data/explain/memory.toml	(?:reserved in total by PyTorch|cached)\)'''	(?:reserved in total by PyTorch)\)'''
explain-oom-held-elsewhere-fit-ignored	data/explain/memory.toml	# request would fit beside PyTorch's reserve alone.\nrequire_share = [\n  { sum = ["free", "self"], of = "total", at_most = 0.75 },\n  { sum = ["size", "self"], of = "total", at_most = 1.0 },	# request would fit beside PyTorch's reserve alone.\nrequire_share = [\n  { sum = ["free", "self"], of = "total", at_most = 0.75 },
dll-imports-python-process-searched	src/probe/windows_dll_search.cpp	        if (loaded_by_python(i.dll)) continue;	        if (false && loaded_by_python(i.dll)) continue;
dll-imports-record-ignored	src/probe/windows_dll_search.cpp	      if (missing(l)) l.in_wheel = shipped.contains(to_lower(l.dll));	      if (missing(l)) l.in_wheel = true;
dll-imports-record-folder-any	src/probe/windows_dll_search.cpp	      if (path.starts_with("torch/lib/")) shipped.insert(path.substr(10));	      if (path.find('/') != std::string::npos) shipped.insert(path.substr(path.rfind('/') + 1));
dll-outside-wheel-as-reinstall	src/check/windows_checks.cpp	                  : !l.in_wheel.value_or(true)                         ? outside_wheel	                  : false && !l.in_wheel.value_or(true)                ? outside_wheel
dll-outside-wheel-libomp-generic	src/check/windows_checks.cpp	      libomp140 = libomp140 || to_lower(l->dll).starts_with("libomp140");	      libomp140 = false;
ort-cudart-not-gated	data/explain/libraries.toml	require = { lib = '(?i)^(?:lib)?cudart' }\nwhen = ["!onnxruntime-log", "!jetson"]	require = { lib = '(?i)^(?:lib)?cudart' }\nwhen = ["!jetson"]
ort-cudnn-not-gated	data/explain/libraries.toml	split_by = ["tf_dso_loader"]\nwhen = ["!onnxruntime-log", "!paddle-log", "!torch-log"]	split_by = ["tf_dso_loader"]\nwhen = ["!paddle-log", "!torch-log"]
ort-python-import-not-gated	data/explain/libraries.toml	# with the provider's own install (session 38).\nwhen = ["!onnxruntime-log", "!jetson"]	# with the provider's own install (session 38).\nwhen = ["!jetson"]
refuted-own-answer-kept	src/explain/explain_session.cpp	    refuted_only[i] = keeps_own(rule, h) && log_refutes(rule.candidates.front(), h);	    refuted_only[i] = false && keeps_own(rule, h) && log_refutes(rule.candidates.front(), h);
negated-event-unknown-counts	src/explain/explain_session.cpp	if (t == Truth::unknown && cond.starts_with('!') && is_log_event_condition(std::string_view(cond).substr(1))) {	if (false && t == Truth::unknown && cond.starts_with('!') && is_log_event_condition(std::string_view(cond).substr(1))) {
old-abi-not-conditioned	data/explain/runtime-abi.toml	when = ["torch-cxx11-abi"]\ncause = "The missing PyTorch function takes a std::string in the old	cause = "The missing PyTorch function takes a std::string in the old
old-abi-any-Ss	data/explain/runtime-abi.toml	(?P<symbol>_ZNK?(?:2at|3c10|5torch)\w*?(?:[EKROPI]|_)Ss\w*)''',\n  '''undefined symbol: (?P<symbol>_ZNK?(?:2at|3c10|5torch)\w*?(?:[EKROPI]|_)Ss\w*)'''	(?P<symbol>_ZNK?(?:2at|3c10|5torch)\w*?Ss\w*)''',\n  '''undefined symbol: (?P<symbol>_ZNK?(?:2at|3c10|5torch)\w*?Ss\w*)'''
cupy-keeps-python-import	data/explain/toolkit.toml	supersedes = ["python-import-cuda-lib-version-missing", "cuda-library-missing", "cudart-missing"]	supersedes = ["cuda-library-missing", "cudart-missing"]
pathfinder-unmatched	data/explain/toolkit.toml	patterns = ['''DynamicLibNotFoundError: Failure finding	patterns = ['''DynamicLibNotFoundError: NEVER Failure finding
nvrtc-half-raw-unmatched	data/explain/toolkit.toml	  '''identifier "__half_raw" is undefined''',\n	  # mutated away\n
nvrtc-load-builtins-unmatched	data/explain/framework-messages.toml	  '''nvrtc: error: failed to load builtins''',\n	  # mutated away\n
oom-outside-share-off	data/explain/memory.toml	{ sum = ["free", "allocated", "unallocated"], of = "total", at_most = 0.75 }	{ sum = ["free", "allocated", "unallocated"], of = "total", at_most = 1.0 }
win-dep-not-followed	src/probe/windows_dll_search.cpp	        dependencies("tensorflow-dso-loader", fw, env, dso, out);	        if (false) dependencies("tensorflow-dso-loader", fw, env, dso, out);
win-dep-torch-not-followed	src/probe/windows_dll_search.cpp	        dependencies("torch-dll-loader", fw, env, dirs, out);	        if (false) dependencies("torch-dll-loader", fw, env, dirs, out);
win-dep-known-list-taken	src/probe/windows_dll_search.cpp	          if (!own) continue;	          if (false && !own) continue;
win-dep-wheel-marked	src/probe/windows_dll_search.cpp	             to_lower(l.needed_by).starts_with(own);	             (true || to_lower(l.needed_by).starts_with(own));
win-dep-grouped-as-cuda	src/check/windows_checks.cpp	imported_from_elsewhere(l, fw->location, fw->name) ? dependency	(false && imported_from_elsewhere(l, fw->location, fw->name)) ? dependency
win-dep-zlib-generic	src/check/windows_checks.cpp	      zlib = zlib || iequals(l->dll, "zlibwapi.dll");	      zlib = zlib && iequals(l->dll, "zlibwapi.dll");
nccl-timeout-no-op	data/explain/nccl.toml	OpType=(?P<op>\w+)	OpType=(?:\w+)
nccl-timeout-no-busy-rank	data/explain/nccl.toml	(typically rank 0 alone running validation or evaluation, generating samples or saving a checkpoint)	(for a while)
cublas-no-library-bug	data/explain/program-errors.toml	with valid inputs and the right library it is cuBLAS itself: update to a PyTorch built with a newer CUDA (fp16 tensor-op GEMMs, cublasGemmEx with CUDA_R_16F, failed in the cuBLAS of CUDA 10.0 and 10.1 until cuBLAS 10.2.0.186 of CUDA 10.1 Update 2).	that is all.
r38b-tfgpu-quotes-missed	data/explain/install.toml	The "?(?P<pkg>tensorflow-gpu|tf-nightly-gpu)"? package	The (?P<pkg>tensorflow-gpu|tf-nightly-gpu) package
r38b-tfgpu-deprecated-missed	data/explain/install.toml	package has been (?:removed|deprecated)''',	package has been removed''',
r38b-tfgpu-sdist-missed	data/explain/install.toml	  '''\b(?P<pkg>tensorflow[-_]gpu|tf[-_]nightly[-_]gpu)-(?P<version>\d[\w.]*)\.tar\.gz\b''',\n	\n
r38b-tfgpu-explains-dropped	data/explain/install.toml	explains = ["pip-wheel-build-failed"]\n	\n
r38b-tfgpu-notfound-paraphrase	data/explain/install.toml	  '''(?i)\bno (?:matching )?version (?:[\w.]+ )?of (?:the )?tensorflow-gpu\b''',\n	\n
r38b-conda-cpu-build-string	data/explain/install.toml	(?P<build>py\d\.?\d+_cpu(?:_\d+)?)\b''',	(?P<build>py\d\.?\d+_XXcpu(?:_\d+)?)\b''',
r38b-conda-cuda-build-counted	data/explain/install.toml	(?P<build>py\d\.?\d+_cpu(?:_\d+)?)\b''',	(?P<build>py\d\.?\d+_(?:cpu|cuda)\S*)''',
r38b-conda-mutex-missed	data/explain/install.toml	\bpytorch-mutex(?:-|\s+)1\.0(?:\s*\|\s*|-|\s+)(?P<build>cpu)\b	\bpytorch-mutex(?:-|\s+)1\.0(?:\s*\|\s*|-|\s+)(?P<build>XXcpu)\b
r38b-conda-cpuonly-plan-missed	data/explain/install.toml	  '''pytorch/noarch::(?P<pkg>cpuonly)-\d[\d.]*-\d+''',\n	\n
r38b-conda-cpuonly-anchored	data/explain/install.toml	'''\b(?P<pkg>cpuonly)(?:-	'''^\s*(?P<pkg>cpuonly)(?:-
r38b-condaforge-generic-missed	data/explain/install.toml	(?P<build>cpu_(?:(?:mkl|generic)_)?(?:py\d+_?)?h	(?P<build>cpu_(?:mkl_)?(?:py\d+_?)?h
r38b-condaforge-old-form-missed	data/explain/install.toml	(?P<build>cpu_(?:(?:mkl|generic)_)?(?:py\d+_?)?h	(?P<build>cpu_(?:mkl|generic)_(?:py\d+_?)?h
r38b-msvc-year-list-missed	data/explain/toolkit.toml	unsupported Microsoft Visual Studio version! (?P<limit>Only the versions (?:between \d+ and \d+(?: \(inclusive\))?|\d{4}(?:, \d{4})*,? and \d{4}) are supported)	unsupported Microsoft Visual Studio version! (?P<limit>Only the versions (?:between \d+ and \d+(?: \(inclusive\))?) are supported)
r38b-msvc-driver-missed	data/explain/toolkit.toml	'''nvcc cannot find a supported version of Microsoft Visual Studio	'''XXnvcc cannot find a supported version of Microsoft Visual Studio
r38b-msvc-v1411-dropped	data/explain/toolkit.toml	build from a prompt set up with `vcvarsall.bat x64 -vcvars_ver=14.11`	build from a prompt set up with `vcvarsall.bat x64`
r38b-msvc-1940-dropped	data/explain/toolkit.toml	CUDA 11.x to 12.3 refuse `_MSC_VER` 1940 and later, so VS 2022 from 17.10 (MSVC 14.40) fails although the message names 2022; 	 
r38b-msvc-in-gcc-rule	data/explain/toolkit.toml	  '''unsupported clang version! (?P<limit>clang version must be less than \d+ and greater than [\d.]+)''',\n]	  '''unsupported clang version! (?P<limit>clang version must be less than \d+ and greater than [\d.]+)''',\n  '''unsupported Microsoft Visual Studio version! (?P<limit>Only the versions between \d+ and \d+(?: \(inclusive\))? are supported)''',\n]
r38b-longpath-doubled-missed	data/explain/windows.toml	'(?P<path>[A-Za-z]:\\\\(?:\\\\|[^'\\]){245,})'''	'(?P<path>[A-Za-z]:XX\\\\(?:\\\\|[^'\\]){245,})'''
r38b-longpath-counts-printed	data/explain/windows.toml	'(?P<path>[A-Za-z]:\\\\(?:\\\\|[^'\\]){245,})'''	'(?P<path>[A-Za-z]:\\\\(?:\\\\|[^'\\]|\\){245,})'''
r38b-longpath-single-missed	data/explain/windows.toml	'(?P<path>[A-Za-z]:\\[^'\\][^']{244,})'''	'(?P<path>[A-Za-z]:XX\\[^'\\][^']{244,})'''
r38b-longpath-single-counts-doubled	data/explain/windows.toml	'(?P<path>[A-Za-z]:\\[^'\\][^']{244,})'''	'(?P<path>[A-Za-z]:[^']{245,})'''
r38b-longpath-206-missed	data/explain/windows.toml	\[WinError 206\]	\[WinError 2066\]
r38b-zlib-supersedes-dropped	data/explain/libraries.toml	supersedes = ["windows-dll-bad-format"]\n	\n
r38b-zlib-any-dll	data/explain/libraries.toml	'''Could not load library (?P<lib>zlibwapi\.dll)\. Error code 193\b'''	'''Could not load library (?P<lib>[\w.+-]+\.dll)\. Error code 193\b'''
r38b-asm-explains-dropped	data/explain/harmless.toml	explains = ["xla-ptx-compiled-by-driver"]\n	\n
r38b-asm-not-harmless	data/explain/harmless.toml	harmless = true\npriority = 10\nframeworks = ["tensorflow"]\npatterns = ['''Invoking GPU asm	harmless = false\npriority = 10\nframeworks = ["tensorflow"]\npatterns = ['''Invoking GPU asm
r38a-version-line-explains	data/explain/cudnn.toml	# support, so every cuDNN op fails) is this answer's, not a second problem.\nexplains = ["dnn-library-not-found", "tf-failed-convolution-algorithm", "dnn-initialization-failed"]	# support, so every cuDNN op fails) is this answer's, not a second problem.
r38a-conda-path-fact	data/explain/log-facts.toml	  '''[/\\](?P<conda_env>(?:ana|mini)conda\d?|miniforge\d?|mambaforge|micromamba)[/\\](?:envs|lib|pkgs|bin)[/\\]''',\n	\n
r38a-tf-below-2-11-fact	data/explain/log-facts.toml	  '''(?:^|[\s\]'"(:\\])(?P<tf_below_2_11>tensorflow[/\\]stream_executor[/\\])''',\n	\n
r38a-tf-range-unread	src/explain/explain_machine.cpp	return *machine.log.tf_below <= *bound ? Truth::yes : Truth::unknown;	return Truth::unknown;
r38a-pip-own-not-gated	data/explain/cudnn.toml	when = ["!tensorflow<2.14", "!conda-env", "!colab"]	when = ["!conda-env", "!colab"]
r38a-tf-log-alt-ungated	data/explain/cudnn.toml	id = "tensorflow"\ncategory = "memory-growth/allocator"\npriority = 84\nwhen = ["tf-log"]	id = "tensorflow"\ncategory = "memory-growth/allocator"\npriority = 84
r38a-jax-log-fact	data/explain/log-facts.toml	  '''\b(?P<jax_log>jaxlib|jax_plugins|jax_cuda\d+_plugin|XlaRuntimeError|xla_bridge)\b''',\n	\n
r38a-pip-install-fact	data/explain/log-facts.toml	  '''\bpip3?\s+install\b.*?[\s'"](?P<tf_pip_install>tensorflow(?:-gpu)?)(?:(?:[=<>~!]=|[<>])[\w.*]+|\[[\w,-]+\])?['"]?(?:\s|$)''',\n	\n
r38a-reinstalled-without-pip-evidence	data/explain/memory.toml	id = "reinstalled"\ncategory = "cudnn-version-mismatch"\npriority = 90\nwhen = ["tf-pip-install", "!colab"]	id = "reinstalled"\ncategory = "cudnn-version-mismatch"\npriority = 90\nwhen = ["!colab"]
r38a-fail-find-dnn-unread	data/explain/cudnn.toml	patterns = ['''DNN library is not found''', '''Fail to find the dnn implementation''']	patterns = ['''DNN library is not found''']
r38a-handle-mismatch-first	data/explain/cudnn.toml	id = "cudnn-mismatch"\ncategory = "cudnn-version-mismatch"\npriority = 74\nwhen = ["!colab", "!tf-pip-install"]	id = "cudnn-mismatch"\ncategory = "cudnn-version-mismatch"\npriority = 94\nwhen = ["!colab", "!tf-pip-install"]
r38a-stale-driver-reads-cudnn-line	data/explain/framework-messages.toml	patterns = ['''cuLinkAddData fails\. This is usually caused by stale driver version''', '''Invoking the PTX->SASS JIT from driver version''']	patterns = ['''cuLinkAddData fails\. This is usually caused by stale driver version''', '''Possibly insufficient driver version''', '''Invoking the PTX->SASS JIT from driver version''']
r38a-driver-cuda12-any-tf	data/explain/cudnn.toml	patterns = ['''(?i:possibly insufficient driver version):?\s*(?P<driver>(?:4[5-9]\d|5[01]\d|52[0-4])\.\d+(?:\.\d+)*)''']\nwhen = ["!tensorflow<2.15"]	patterns = ['''(?i:possibly insufficient driver version):?\s*(?P<driver>(?:4[5-9]\d|5[01]\d|52[0-4])\.\d+(?:\.\d+)*)''']
r38a-ptxas-own-not-gated	data/explain/ptxas-xla.toml	when = ["!tensorflow<2.14", "!conda-env"]	when = ["!conda-env"]
r38a-ptxas-conda-ungated	data/explain/ptxas-xla.toml	id = "conda"\npriority = 87\nwhen = ["conda-env"]	id = "conda"\npriority = 87
r38a-dropped-arch-not-superseding	data/explain/ptxas-xla.toml	supersedes = ["ptxas-too-old-for-gpu"]\npatterns = [	patterns = [
r38a-dropped-arch-kepler-missed	data/explain/ptxas-xla.toml	sm_(?:2[01]|3[057]|5[023]|6[012]|7[02])	sm_(?:2[01]|30|5[023]|6[012]|7[02])
r38a-cuinit-bug-not-superseding	data/explain/framework-messages.toml	priority = 80\nframeworks = ["jax"]\nsupersedes = ["jax-cuda-backend-failed"]	priority = 80\nframeworks = ["jax"]
r38a-jax-cudnn-load-not-superseding	data/explain/cudnn.toml	frameworks = ["jax"]\nsupersedes = ["jax-cuda-backend-failed"]\npatterns = ['''Unable to load cuDNN'''	frameworks = ["jax"]\npatterns = ['''Unable to load cuDNN'''
joiner-slog-head-joined	src/explain/line_joiner.cpp	(indent == 0 && (starts_structured_record(body) || starts_package_row(body)))	(false && (starts_structured_record(body) || starts_package_row(body)))
joiner-any-word-colon-head	src/explain/line_joiner.cpp	(body[n] == ':' && underscore)	(body[n] == ':')
jax-pjrt-generic-kept	data/explain/runtime-abi.toml	supersedes = ["jax-backend-init-failed", "jax-cuda-backend-failed"]	supersedes = []
jax-older-lib-generic-kept	data/explain/framework-build.toml	supersedes = ["jax-backend-init-failed", "jax-cuda-backend-failed"]	supersedes = []
d38c-gloo-loopback-pair	data/explain/distributed.toml	'''pair\.cc:\d+\]\s*connect \[(?P<address>127\.	'''pair\.cc:\d+\]\s*connect \[(?P<address>128\.
d38c-gloo-loopback-soerror	data/explain/distributed.toml	remote=\[(?P<address>127\.\d+\.\d+\.\d+)\]''',	remote=\[(?P<address>128\.\d+\.\d+\.\d+)\]''',
d38c-gloo-loopback-explains	data/explain/distributed.toml	explains = ["gloo-connect-failed", "gloo-hostname-loopback-fallback"]	explains = ["gloo-hostname-loopback-fallback"]
d38c-gloo-fullmesh	data/explain/distributed.toml	Gloo connectFullMesh failed with (?P<error>	Gloo connectFullMesh failed WITH (?P<error>
d38c-gloo-fallback-pattern	data/explain/distributed.toml	Unable to resolve hostname to a \(local\) address\.	Unable to resolve hostnames to a \(local\) address\.
d38c-gloo-fallback-severity	data/explain/distributed.toml	severity = "warning"\npriority = 40	severity = "error"\npriority = 90
d38c-c10d-frame-json	data/explain/distributed.toml	c10d_rendezvous_backend\.py\\?", line	c10d_rendezvous_backend\.py", line
d38c-c10d-explains	data/explain/distributed.toml	explains = ["torch-dist-store-unreachable"]	explains = []
d38c-port-explains-c10d	data/explain/distributed.toml	explains = ["torch-elastic-c10d-store-not-hosted"]	explains = []
d38c-nccl-shmem-pattern	data/explain/nccl.toml	ncclMaxSharedMem (?P<need>\d+) exceeds	ncclMaxSharedMem (?P<need>\d+) exceeded
d38c-nccl-shmem-arch	data/explain/nccl.toml	'''(?:cudaArch (?P<arch>\d+) )?ncclMaxSharedMem	'''ncclMaxSharedMem
d38c-nccl-shmem-harmless	data/explain/nccl.toml	severity = "error"\npriority = 88	severity = "info"\nharmless = true\npriority = 88
d38c-p2p-cumem	data/explain/nccl.toml	via P2P/(?P<mode>IPC|CUMEM|direct pointer)	via P2P/(?P<mode>IPC|direct pointer)
d38c-p2p-harmless	data/explain/nccl.toml	harmless = true\npriority = 12	harmless = false\npriority = 12
r38c-apps-F1	data/explain/extension-packages.toml	'''Required library version not found: (?P<binary>libbitsandbytes_cuda	'''Required library version NOT found: (?P<binary>libbitsandbytes_cuda
r38c-apps-F2	data/explain/extension-packages.toml	explains = ["bitsandbytes-libcudart-not-found"]\ncause = "This bitsandbytes release	cause = "This bitsandbytes release
r38c-apps-F3	data/explain/extension-packages.toml	explains = ["bitsandbytes-libcudart-not-found"]\ncause = "bitsandbytes' search	cause = "bitsandbytes' search
r38c-apps-F4	data/explain/extension-packages.toml	require = { libdir = '(?i)(?:cuda|rocm)[^/\\]*$' }	require = { libdir = '(?i)(?:vulkan)[^/\\]*$' }
r38c-apps-F5	data/explain/extension-packages.toml	supersedes = ["ollama-llm-library-skips-gpu"]	supersedes = []
r38c-apps-F6	data/explain/gpu-arch.toml	in function (?P<function>\w+) at (?P<file>\S*ggml-cuda\S*)	in function (?P<function>\w+) at (?P<file>\S*ggml-cudnn\S*)
r38c-apps-F7	data/explain/gpu-arch.toml	supersedes = ["no-kernel-image"]\ncause = "ggml's	cause = "ggml's
r38c-apps-F8	data/explain/ptxas-xla.toml	but got CUDA version: (?P<cuda>\d+\.\d+)'''	but got CUDA version: (?P<cuda>\d+\.\d+\.\d+)'''
r38c-apps-F9	data/explain/program-errors.toml	found at least two devices, (?P<device_a>cuda:\d+) and (?P<device_b>cuda:\d+)	found at least two devices, (?P<device_a>cuda:\d+) and (?P<device_b>cpu)
r38c-apps-F10	data/explain/program-errors.toml	supersedes = ["torch-tensors-on-different-devices"]	supersedes = []
r38c-apps-F11	data/explain/gpu-arch.toml	do not replace torch inside it	keep torch inside it
r38c-driver-E1	data/explain/driver.toml	libraries are one release: `sudo apt update && sudo apt install --fix-broken` (restore the driver's repository first if it is gone), 	libraries are one release: `sudo apt update`, 
r38c-driver-E2	data/explain/driver.toml	NVIDIA (?P<chipset>\w+) \([0-9a-fA-F]{8}\)	NVIDIA (?P<chipset>\w+) NEVER\([0-9a-fA-F]{8}\)
r38c-driver-E3	data/explain/driver.toml	'''^\s*Kernel driver in use: nouveau\s*$'''	'''^\s*Kernel driver in use: nouveau NEVER\s*$'''
r38c-driver-E4	data/explain/driver.toml	`rd.driver.blacklist=nouveau` on the kernel command line only keeps it out of the initramfs (dracut); udev loads it after the switch to the real root: add `modprobe.blacklist=nouveau` too (Fedora: `sudo grubby --update-kernel=ALL --args=modprobe.blacklist=nouveau`).	Reboot.
r38c-driver-E5	data/explain/kernel-module.toml	require = { driver = '(?i)^nova' }	require = { driver = '(?i)^nouveau' }
r38c-driver-E6	data/explain/kernel-module.toml	explains = ["kernel-module-no-device", "nvidia-installer-module-load-failed"]	explains = ["nvidia-installer-module-load-failed"]
r38c-driver-E7	data/explain/kernel-module.toml	(?P<driver>another driver|[\w-]+)	(?P<driver>another driver|[\w.-]+)
r38c-driver-E8	data/explain/kernel-module.toml	/build/\S+?:\d+(?::\d+)?: (?:fatal )?error: 	/build/\S+?:\d+(?::\d+)?: (?:fatal )?NEVER: 
r38c-driver-E9	data/explain/kernel-module.toml	priority = 83\ntailor = "driver"\nexplains = ["kernel-module-build-failed"]	priority = 83\ntailor = "driver"\nexplains = []
r38c-driver-E10	data/explain/kernel-module.toml	/build/\S+?:\d+(?::\d+)?: error: (?P<api>	/build/\S+?:\d+(?::\d+)?: error: NEVER(?P<api>
r38c-driver-E11	data/explain/kernel-module.toml	NVIDIA-Linux-\w+-(?P<module_version>	NVIDIA-Linux-\w+-NEVER(?P<module_version>
r38c-driver-E12	data/explain/container.toml	Windows itself must be Windows 11 or Windows 10 21H2 (build 19044) or later (`winver`), with a current	with a current
r38c-driver-E13	data/explain/driver.toml	 With CDI, regenerate the spec on the host after every driver change: `sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml`, then restart the container.	 Then restart the container.
r38c-driver-E14	data/explain/driver.toml	'''(?:^|\()\s*NVML library version: (?P<library>	'''(?:^|\()\s*NVML library NEVER version: (?P<library>
r38c-driver-E15	data/explain/driver.toml	 In a container the host's driver is the one that counts: if `nvidia-smi` on the host already shows a new enough CUDA version, the container got no (or a stale) driver library, the container cause below.	 
tf-parts-follow-machine	src/explain/explain_session.cpp	if (std::string_view(key) == "tensorflow" && machine.log.tf_below && !machine.log.versions.contains(key)) continue;	if (false && std::string_view(key) == "tensorflow" && machine.log.tf_below && !machine.log.versions.contains(key)) continue;
cudnn-handle-390-leads	data/explain/cudnn.toml	# handle failure (session 38 re-read).\npriority = 80	# handle failure (session 38 re-read).\npriority = 88
joiner-indented-kv-split	src/explain/line_joiner.cpp	(indent == 0 && (starts_structured_record(body) || starts_package_row(body)))	((starts_structured_record(body) || starts_package_row(body)))
decoder-recoded-cap-dropped	src/explain/log_decoder.cpp	  if (line.size() <= kMaxLineBytes) return;	  if (true) return;
decoder-recoded-whole-line-end-lost	src/explain/log_decoder.cpp	    overflow_.assign(line, head);\n    keep_utf8_end(overflow_);	    overflow_.clear();\n    keep_utf8_end(overflow_);
s39-refuted-counted-as-answer	src/explain/explain_session.cpp	    if (h.rule_index >= base.rules.size() || refuted_only[i]) continue;\n    const Rule& rule = base.rules[h.rule_index];\n    if (rule.catalog || rule.fact) continue;	    if (h.rule_index >= base.rules.size()) continue;\n    const Rule& rule = base.rules[h.rule_index];\n    if (rule.catalog || rule.fact) continue;
s39-superseded-counted-as-answer	src/explain/explain_session.cpp	it != superseded_lines.end() && lines_covered(h, it->second)) {\n      continue;\n    }\n    answered_lines.insert	it != superseded_lines.end() && lines_covered(h, it->second)) {\n      (void)0;\n    }\n    answered_lines.insert
s39-refuted-never-dropped	src/explain/explain_session.cpp	    if (refuted_only[static_cast<size_t>(hp - hits.data())] && lines_covered(h, answered_lines)) continue;	    if (false && refuted_only[static_cast<size_t>(hp - hits.data())] && lines_covered(h, answered_lines)) continue;
s39-keras-any-path-tf	data/explain/log-facts.toml	(?P<tf_log>tensorflow|tf_keras)[/\\]''',	(?P<tf_log>tensorflow|tf_keras|keras)[/\\]''',
s39-keras-src-counted-as-dir	data/explain/log-facts.toml	s(?:[a-qs-z]\w*|r(?:[a-bd-z]\w*|c\w+)?)?	s\w*
s39-keras-init-counted	data/explain/log-facts.toml	)?[a-z]\w*\.py\b''',	)?\w+\.py\b''',
s39-keras2-dirs-dropped	data/explain/log-facts.toml	(?P<tf_log>keras)[/\\](?:(?:[a-rt-z]	(?P<tf_log>keras)[/\\]NEVER(?:(?:[a-rt-z]
s39-keras2-src-engine-dropped	data/explain/log-facts.toml	src[/\\](?:engine[/\\]|	src[/\\](?:NEVER[/\\]|
s39-keras3-tf-backend-dropped	data/explain/log-facts.toml	|backend[/\\]tensorflow[/\\])''',	|NEVER[/\\]tensorflow[/\\])''',
s39-ptxas-dropped-any-release	src/explain/explain_machine.cpp	    return std::all_of(releases.begin(), releases.end(), [&](const Version& v) { return v >= dropped; })	    return std::any_of(releases.begin(), releases.end(), [&](const Version& v) { return v >= dropped; })
s39-ptxas-predates-always	src/explain/explain_machine.cpp	[&](const Version& v) { return v < first; })	[&](const Version& v) { return v < first || true; })
s39-cuda-release-fact-ignored	src/explain/explain_machine.cpp	h->captures.find("cuda_release"); c != h->captures.end()	h->captures.find("cuda_release_none"); c != h->captures.end()
s39-cuda-path-pattern-dropped	data/explain/log-facts.toml	'''[/\\]cuda-(?P<cuda_release>	'''[/\\]cudaNEVER-(?P<cuda_release>
s39-ptxas-own-unconditional	data/explain/ptxas-xla.toml	when = ["!triton-ptxas", "!ptxas-cuda-dropped-arch", "!ptxas-cuda-predates-arch"]	when = ["!triton-ptxas"]
s39-ptxas-too-old-always	data/explain/ptxas-xla.toml	when = ["ptxas-cuda-predates-arch", "!triton-ptxas"]	when = ["!triton-ptxas"]
s39-ptxas-dropped-alt-always	data/explain/ptxas-xla.toml	when = ["ptxas-cuda-dropped-arch", "!triton-ptxas"]	when = ["!triton-ptxas"]
s39b-vllm-prefix	data/explain/log-facts.toml	(?P<vllm_log>(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d	(?P<vllm_log>(?:NOLEVEL) \d\d-\d\d
s39b-vllm-sitepackages	data/explain/log-facts.toml	'''(?:site|dist)-packages[/\\](?P<vllm_log>vllm)[/\\]'''	'''(?:site|dist)-packages[/\\](?P<vllm_log>vllmx)[/\\]'''
s39b-vllm-when	data/explain/gpu-arch.toml	priority = 92\nwhen = ["vllm-log", "!compiled-extension"]	priority = 92\nwhen = ["vllm-log", "!compiled-extension", "colab"]
s39b-nv-procfs	data/explain/log-facts.toml	NVIDIA UNIX (?:Open Kernel Module for \w+|\w+ Kernel Module)\s+(?P<nv_module_version>	NVIDIA UNIX (?:Open Kernel Module for \w+|\w+ Kernel NoModule)\s+(?P<nv_module_version>
s39b-nv-dpkg	data/explain/log-facts.toml	(?:nvidia-smi|nvidia-utils-\d+[\w-]*|libnvidia-(?:ml1|compute-\d+[\w-]*))	(?:nvidia-smix)
s39b-nv-joined	data/explain/log-facts.toml	'''has the version (?P<nv_library_version>	'''has the versionX (?P<nv_library_version>
s39b-nv-rm-client	data/explain/log-facts.toml	'''(?:the client|NVRM:) has the version	'''(?:the client) has the version
s39b-nv-other-branch-code	src/explain/explain_machine.cpp	  if (other_branch) return "nvidia-module-other-branch";	  if (other_branch && false) return "nvidia-module-other-branch";
s39b-nv-release-code	src/explain/explain_machine.cpp	if (mp[i] != lp[i]) other_release = true;	if (false) other_release = true;
s39b-nv-when-other	data/explain/driver.toml	when = ["nvidia-module-other-branch"]	when = ["nvidia-module-other-branch", "colab"]
s39b-km-newfmt-client	data/explain/kernel-module.toml	'''NVRM: has the version (?P<client>	'''NVRM: has the versionX (?P<client>
s39b-cdi-fact	data/explain/log-facts.toml	(?P<cdi_error>failed to inject CDI devices|unresolvable CDI devices|failed to stat CDI host device|setting up CDI devices:)	(?P<cdi_error>NOCDI)
s39b-cdi-when	data/explain/driver.toml	when = ["cdi-error"]	when = ["cdi-error", "colab"]
s39b-torchcap-vllm-when	data/explain/gpu-arch.toml	priority = 94\nwhen = ["vllm-log"]	priority = 94\nwhen = ["vllm-log", "colab"]
c01	data/explain/onnxruntime.toml	'''(?i:LoadLibrary) failed with error (?P<code>\d+)(?: "[^"]*")? when trying to load "?[^"]*?(?P<provider>onnxruntime_providers_cuda\.dll)''',	'''LoadLibrary failed with error (?P<code>\d+) "[^"]*" when trying to load "[^"]*?(?P<provider>onnxruntime_providers_cuda\.dll)"''',
c02	data/explain/onnxruntime.toml	supersedes = ["onnxruntime-cuda-provider-not-loaded"]\nwhen = ["cudnn-other-major"]	when = ["cudnn-other-major"]
c03	data/explain/gpu-arch.toml	  '''CUDA kernel (?P<kernel>\w+) has no device code compatible with CUDA arch (?P<arch>\d+)\. ggml-cuda\.cu was compiled for: (?P<compiled>\d+(?:[ ,;]+\d+)*)''',	  '''CUDA kernel (?P<kernel>\w+) has no device code compatible with CUDA arch (?P<arch>\d+)\. ggml-cuda\.cuh was compiled for: (?P<compiled>\d+(?:[ ,;]+\d+)*)''',
c04	data/explain/toolkit.toml	  '''Could not find nvcc, please set CUDAToolkit_ROOT''',	  '''Could not find nvcc, please set CUDAToolkit_ROOT\b.*\bCMAKE_CUDA_COMPILER''',
c05	data/explain/distributed.toml	  '''DEADLINE_EXCEEDED: Barrier timed out\. Barrier_id: (?P<barrier>[^\s.]+(?:\.[^\s.]+)*)''',	  '''DEADLINE_EXCEEDED: Barrier timeout\. Barrier_id: (?P<barrier>[^\s.]+(?:\.[^\s.]+)*)''',
c06	data/explain/ptxas-xla.toml	  '''Profiling failure on cuDNN engine (?P<engine>\S+): (?:\w+: )?(?P<status>CUDNN_STATUS_\w+)''',	  '''Profiling failed on cuDNN engine (?P<engine>\S+): (?:\w+: )?(?P<status>CUDNN_STATUS_\w+)''',
c07	data/explain/framework-build.toml	  '''CUDA backend failed to initialize: Unable to load (?P<library>cuSOLVER|cuSPARSE)\.(?:\s*\(|\s*$)''',	  '''CUDA backend failed to initialize: Unable to load (?P<library>cuSOLVER|cuSPARSE)\. Is it installed\?''',
c08	data/explain/ptxas-xla.toml	priority = 88\nframeworks = ["pytorch"]\nsupersedes = ["triton-ptxas-failed"]	priority = 48\nframeworks = ["pytorch"]
c09	src/render/explain_text.cpp	m.facts_from_log ? "what the log shows" : "what is known of this machine"	m.facts_from_log ? "what is known of this machine" : "what is known of this machine"
c10	data/explain/memory.toml	  '''NVML_SUCCESS == r INTERNAL ASSERT FAILED at "[^"]*CUDACachingAllocator\.cpp"''',	  '''NVML_SUCCESS == [^\n]*INTERNAL ASSERT FAILED at "[^"]*CUDACachingAllocator\.cpp"''',
c11	data/explain/log-facts.toml	  '''^\|\s+\|\s+\|\s+(?P<mig_enabled>Enabled)\s+\|\s*$''',	  '''^\|\s+\|\s+\|\s+(?P<mig_enabled>\w*abled)\s+\|\s*$''',
c12	data/explain/container.toml	priority = 45\nwhen = ["platform-linux", "!macos-log"]	priority = 72\nwhen = ["platform-linux", "!macos-log"]
c13	data/explain/extension-packages.toml	so `pip uninstall mmcv` and `mim install mmcv-full` (or	so `pip install mmcv` (or
c14	data/explain/program-errors.toml	keep the split and pass `no_split_module_classes=[\"<the model's decoder layer class>\"]` (e.g. LlamaDecoderLayer)	keep the split
c15	data/explain/onnxruntime.toml	if only cuDNN 9 is installed and this onnxruntime-gpu is 1.18.0 or older, upgrade it to 1.18.1 or later (a CUDA 12 build), or install cuDNN 8 for CUDA 12 beside cuDNN 9. Check with	Check with
c16	data/explain/toolkit.toml	priority = 76\nwhen = ["mig-enabled"]	priority = 76\nwhen = ["multi-gpu"]
s39d-cudnn-paddle-when	data/explain/libraries.toml	priority = 82\nwhen = ["paddle-log"]	priority = 82\nwhen = ["paddle-log", "colab"]
s39d-cudnn-own-when	data/explain/libraries.toml	when = ["!onnxruntime-log", "!paddle-log", "!torch-log"]	when = ["!onnxruntime-log"]
s39d-msstore-when	data/explain/libraries.toml	priority = 88\nwhen = ["msstore-python"]	priority = 88\nwhen = ["msstore-python", "colab"]
s39d-msstore-fact	data/explain/log-facts.toml	  '''(?i)(?P<msstore_python>WindowsApps[/\\]PythonSoftwareFoundation)''',\n  '''(?P<msstore_python>PythonSoftwareFoundation\.Python\.3\.\d+_qbz5n2kfra8p0)''',	  '''(?i)(?P<msstore_python>WindowsAppsx[/\\]PythonSoftwareFoundation)''',\n  '''(?P<msstore_python>PythonSoftwareFoundationx\.Python\.3\.\d+_qbz5n2kfra8p0)''',
s39d-paddle-event	src/explain/explain_machine.cpp	{"paddle_log", "paddle-log"}	{"paddle_logx", "paddle-log"}
s39d-torch-when	data/explain/libraries.toml	when = ["torch-log", "!paddle-log", "!ctranslate2-log", "!tf-dso-loader"]	when = ["torch-log", "colab"]
s39d-paddle-dll-list	data/explain/libraries.toml	(?:;(?P<also>[\w.;+-]+))?	(?:,(?P<also>[\w.;+-]+))?
s39d-paddle-restart	data/explain/libraries.toml	then restart the terminal or IDE, which keeps the PATH it was started with	then continue
s39d-paddle-cudnn-linux	data/explain/libraries.toml	{?linux: (Paddle looks for libcudnn.so by that name, which cuDNN's runtime package alone does not provide)}	 (Paddle looks for libcudnn.so by that name, which cuDNN's runtime package alone does not provide)
s39d-paddle-cudnn-major	data/explain/libraries.toml	{?windows: (the number in the DLL's name is the cuDNN major it needs: cudnn64_7.dll is cuDNN 7, cudnn64_8.dll cuDNN 8)}	{?windows: (the number in the DLL's name is the major)}
s39d-not-compiled	data/explain/paddle.toml	AssertionError: (?P<what>Not compiled with CUDA)	AssertionError: (?P<what>Not compiled with CUDAx)
s39d-pip-paddle	data/explain/install.toml	(?P<pkg>paddlepaddle(?:-gpu)?)(?:[=<>!~]=?=?(?P<version>[\w.*+]+))? \(from versions: none\)	(?P<pkg>paddlepaddlex(?:-gpu)?)(?:[=<>!~]=?=?(?P<version>[\w.*+]+))? \(from versions: none\)
s39d-torch-32bit	data/explain/install.toml	\(from versions: 0\.1\.2(?:, 0\.1\.2\.post\d+)*\)	\(from versions: 0\.1\.3(?:, 0\.1\.2\.post\d+)*\)
s39d-torch-32bit-explains	data/explain/install.toml	(?:, 0\.1\.2\.post\d+)*\)''',\n]\nexplains = ["pip-no-matching-framework"]	(?:, 0\.1\.2\.post\d+)*\)''',\n]\nexplains = ["pip-no-matching-frameworkx"]
s39d-general-example	data/explain/install.toml	`conda create -n gpu python=3.X` or `py -3.X -m venv venv`, X from the range	`conda create -n tf python=3.11` or `py -3.11 -m venv venv`
s39d-cpu-version-line	data/explain/framework-build.toml	'''^\s*(?P<version>\d+\.\d+\.\d+)\+cpu\s*$'''	'''^\s*(?P<version>\d+\.\d+\.\d+)\+cpux\s*$'''
s39d-msvc-when	data/explain/windows.toml	priority = 72\nwhen = ["msvc-build", "platform-windows"]	priority = 72\nwhen = ["platform-windows"]
s39d-msvc-session	src/explain/explain_session.cpp	return !cond.starts_with('!') && is_log_event_condition(cond) &&	return false && !cond.starts_with('!') && is_log_event_condition(cond) &&
s39d-msvc-fact-vs	data/explain/log-facts.toml	(?P<msvc_build>visual studio\s*(?:20	(?P<msvc_build>visual studiox\s*(?:20
s39d-193-explains	data/explain/paddle.toml	explains = ["windows-dll-bad-format"]	explains = ["windows-dll-bad-formatx"]
s39d-template-windows	data/explain/log-facts.toml	(?:OS platform(?: and distribution)?|	(?:OS platformx(?: and distribution)?|
s39d-template-tf	data/explain/log-facts.toml	TensorFlow version:?\s*tf\s*(?P<tf_version>	TensorFlow version:?\s*tfx\s*(?P<tf_version>
s39d-log-platform	src/explain/explain_session.cpp	    known = Platform::windows;\n  }	    known = std::nullopt;\n  }
s39d-container-when	data/explain/driver.toml	priority = 70\n# Containers run Linux: no cause of a native-Windows log's lines (session 39 review B, log 18).\nwhen = ["!platform-windows"]	priority = 70
s39d-fits-not-windows	src/explain/explain_session.cpp	    if (cond == "!platform-windows" && *log == Platform::windows) return false;  // a container, Linux's wheels\n	    // removed\n
s39-reread-other-branch-reboot-later	data/explain/driver.toml	fix = "If the machine has not been rebooted since the driver changed: reboot, and check `cat /proc/driver/nvidia/version` against `nvidia-smi`. If the mismatch survives the reboot, list what	fix = "List what
s39-reread-api-other-branch-reboot-later	data/explain/kernel-module.toml	fix = "If the machine has not been rebooted since the driver changed: reboot. If the mismatch survives the reboot: list what	fix = "List what
s39-reread-vllm-over-extension	data/explain/gpu-arch.toml	when = ["vllm-log", "!compiled-extension"]	when = ["vllm-log"]
s39-reread-dpkg-removed-counted	data/explain/log-facts.toml	'''^(?:ii|hi|iU|iF|iW|iH|it|hU|hF)R?\s+(?:nvidia-smi	'''^[a-zA-Z]{2,3}R?\s+(?:nvidia-smi
s39-reread-recoded-middle-uncounted	src/explain/log_decoder.cpp	if (line.size() > 2 * kMaxLineBytes) ++stats_.lines_truncated;	if (false) ++stats_.lines_truncated;
s39-reread-dpkg-row-joined	src/explain/line_joiner.cpp	(starts_structured_record(body) || starts_package_row(body))	(starts_structured_record(body) || (false && starts_package_row(body)))
s39-rr2-pytorch-over-ctranslate2	data/explain/libraries.toml	when = ["torch-log", "!paddle-log", "!ctranslate2-log", "!tf-dso-loader"]	when = ["torch-log", "!paddle-log", "!tf-dso-loader"]
s39-rr2-msvc-any-cpp-extension	data/explain/log-facts.toml	'''(?P<msvc_build>torch\\utils\\cpp_extension)'''	'''(?P<msvc_build>torch[/\\.]utils[/\\.]cpp_extension)'''
s39-rr2-msvc-not-windows-gated	data/explain/windows.toml	when = ["msvc-build", "platform-windows"]	when = ["msvc-build"]
s39-rr2-template-wsl-as-windows	data/explain/log-facts.toml	(?:\s*(?:x64|64-bit|64位|home|pro|professional|enterprise|专业版|家庭版|2[234]H2))*\s*(?:[.,;，。、]\s*(?:(?:python|py|cuda|cudnn|gpu|显卡|x64|64).*)?)?$'''	\b'''
s39-rr2-container-log-as-windows	src/explain/explain_session.cpp	!machine.log.posix && !machine.log.container) {	!machine.log.posix) {
s39-rr2-no-probe-as-machine	src/explain/explain_session.cpp	!m.facts_verdict.empty() && ((machine.facts == nullptr && !machine.platform) || !machine_decided);	!m.facts_verdict.empty() && !machine_decided;
r40-tfdso-pattern	data/explain/libraries.toml	  '''(?P<tf_dso_loader>Could not load dynamic library) '(?P<lib>	  '''(?P<tf_dso_loader_gone>Could not load dynamic library) '(?P<lib>
r40-tfdso-torch-gate	data/explain/libraries.toml	"!ctranslate2-log", "!tf-dso-loader"]	"!ctranslate2-log"]
r40-tfdso-condition	src/explain/explain_machine.cpp	first_capture(captures, "tf_dso_loader").empty() ? Truth::unknown : Truth::yes	Truth::unknown
r40-fleet-incomplete-text	src/render/fleet_report.cpp	  if (!r.incomplete.empty())\n    out.insert(	  if (false)\n    out.insert(
r40-fleet-incomplete-json	src/model/json_codec.cpp	  GPUDOCTOR_FIELDS_EMPTY(io, r, Empty::omit, incomplete);  // only in a report of an ended job	  // (incomplete not written)
r40-fleet-incomplete-html	src/render/html_report.cpp	               {"is_incomplete", !r.incomplete.empty()},	               {"is_incomplete", false},
K1	src/kb/knowledge_base.cpp	  if (release && oldest != nullptr) return ArchCoverage::unknown;	  if (false && release && oldest != nullptr) return ArchCoverage::unknown;
K2	src/kb/resolver.cpp	        release_unknown = true;	        release_unknown = false;
K3	src/check/compat_checks.cpp	      jax_not_in_kb(env, fw, *v, release, own_cudnn.has_value());	      (void)own_cudnn;
K4	src/check/compat_checks.cpp	            cudnn = &*own_cudnn;	            (void)cudnn;
K5	data/compat/jax.toml	extras = ["cuda13"]\ncuda13_cudnn = ">=9.12.0.46,<10.0"\nsource = "[artefact] jax-0.12.1	extras = ["cuda12", "cuda13"]\ncuda12_cudnn = ">=9.10.2.21,<10.0"\ncuda13_cudnn = ">=9.12.0.46,<10.0"\nsource = "[artefact] jax-0.12.1
K6	data/compat/jax.toml	versions = ">=0.7.2,<=0.12.1"	versions = ">=0.7.2,<=0.12.0.1"
K7	src/kb/resolver.cpp	      const bool unrecorded = c == ArchCoverage::unknown && !kb.is_jetson(req.gpu_name, req.cc);	      const bool unrecorded = false;
K8	data/compat/jax.toml	versions = ">=0.12.1,<=0.12.1"\npython = "3.12-3.15"	versions = ">=0.12.1,<=0.12.1"\npython = "3.11-3.15"
r40a-old-busy	data/explain/driver.toml	  '''\ball CUDA-capable devices are busy or unavailable''',	  '''\ball CUDA-capable devices are busy or unavailableXX''',
r40a-thc	data/explain/error-codes.toml	|THCudaCheck(?:Warn)? FAIL\b.*\berror=\d+ : |cuda runtime error \(\d+\) : )invalid pitch argument	|THCudaCheckX FAIL\b.*\berror=\d+ : |cuda runtime error \(\d+\) : )invalid pitch argument
r40a-name-beats	src/explain/explain_session.cpp	    if (na != nb) return na;	    if (na != nb) return false;
r40a-cupy-text	data/explain/error-codes.toml	needs CuPy v11 or later	needs a newer CuPy
r40a-jetson-fact	data/explain/log-facts.toml	(?P<jetson>\bl4t-(?:r\d+	(?P<jetson>\bl4t-(?:rX\d+
r40a-jetson-not-x86	data/explain/libraries.toml	when = ["!onnxruntime-log", "!jetson"]\nrequire = { lib = '(?i)^lib(?:cudart|cublas	when = ["!onnxruntime-log"]\nrequire = { lib = '(?i)^lib(?:cudart|cublas
r40a-nvvm-dlerror	data/explain/toolkit.toml	  '''\blibnvvm\.so[\d.]*: cannot open shared object file''',	  '''\blibnvvm\.so[\d.]*: cannot open shared object fileXX''',
r40a-rapids	data/explain/wsl2.toml	]*: cudaErrorNotSupported\b'''	]*: cudaErrorNotSupportedXX\b'''
r40a-libcuda-so	data/explain/libraries.toml	require = { lib = '^libcuda\.so$' }	require = { lib = '^libcuda\.soX$' }
r40a-nccl-ifs	data/explain/log-facts.toml	(?:docker\d|br-[0-9a-f]|veth|virbr)	(?:dockerX\d|brX-[0-9a-f]|vethX|virbrX)
r40a-caffe-check	data/explain/log-facts.toml	(?P<source_built_cuda>Check failed: error == cudaSuccess	(?P<source_built_cuda>Check failed: errorX == cudaSuccess
r40a-lightning-slurm	data/explain/toolkit.toml	when = ["lightning-ddp", "slurm", "lightning-rank0-repeated", "!lightning-other-rank", "lightning-multi-process"]	when = ["lightning-ddp", "lightning-rank0-repeated", "!lightning-other-rank", "lightning-multi-process"]
r40a-name-beats2	src/explain/explain_session.cpp	    if (na != nb) return na;	    if (na != nb) return nb;
r40b-turbomind	data/explain/extension-packages.toml	(?P<module>_turbomind)\b'''	(?P<module>_turbomindX)\b'''
r40b-mmcv-ext	data/explain/extension-packages.toml	while importing (?P<module>_ext): (?P<reason>	while importing (?P<module>_extX): (?P<reason>
r40b-zh127	data/explain/libraries.toml	?: 找不到指定的程序''',	?: 找不到指定的程序X''',
r40b-macos-own	data/explain/container.toml	priority = 96\nwhen = ["macos-log"]	priority = 96\nwhen = ["macos-log", "colab"]
r40b-macos-fact	data/explain/log-facts.toml	(?:在|用|我的)(?P<macos_log>[Mm]ac)	(?:在|用|我的)(?P<macos_log>[Mm]acX)
r40b-whisper	data/explain/framework-messages.toml	patterns = ['''FP16 is not supported on CPU; using FP32 instead''']	patterns = ['''FP16 is not supported on CPU; using FP32 insteadX''']
r40b-cublaslt	data/explain/program-errors.toml	`cublasLtMatmulAlgoGetHeuristic\(''']	`cublasLtMatmulAlgoGetHeuristicX\(''']
r40b-bnb-windows	data/explain/extension-packages.toml	id = "windows"\ncategory = "wrong-framework-build"\npriority = 75	id = "windows"\ncategory = "wrong-framework-build"\npriority = 5
r40b-posix-not-windows	src/explain/explain_session.cpp	if (!log && cond == "platform-windows" && machine.log.posix	if (false && cond == "platform-windows" && machine.log.posix
r40b-cuda-config	data/explain/gpu-arch.toml	'''\bconfigurations:\s+(?P<cuda_major>	'''\bconfigurationsX:\s+(?P<cuda_major>
r40b-ort-both	data/explain/log-facts.toml	(?P<ort_cpu_package>onnxruntime)(?:	(?P<ort_cpu_package>onnxruntimeX)(?:
r40b-portable-fact	data/explain/log-facts.toml	(?P<portable_python>python_embeded)	(?P<portable_python>python_embededX)
r40b-portable-render	src/explain/explain_session.cpp	  if (text.starts_with("pip ")) {	  if (text.starts_with("pipX ")) {
r40c-wsl2-words	data/explain/log-facts.toml	{0,40}?\b(?P<wsl2_words>WSL ?2)	{0,40}?\b(?P<wsl2_words>WSL ?9)
r40c-rm-init-event	src/explain/explain_machine.cpp	{"rm_init_failed", "rm-init-failed"}	{"rm_init_failedx", "rm-init-failed"}
r40c-during-init-when	data/explain/xid.toml	when = ["rm-init-failed", "!xid-process"]	when = ["mig-enabled", "!xid-process"]
r40c-talos-event	src/explain/explain_machine.cpp	{"talos", "talos"}	{"talosx", "talos"}
r40c-sb-talos-when	data/explain/kernel-module.toml	priority = 90\nwhen = ["talos"]	priority = 90\nwhen = ["colab"]
r40c-sb-any-module	data/explain/kernel-module.toml	could not insert '(?P<module>[\w-]+)': (?:Key	could not insert '(?P<module>nvidia[\w-]*)': (?:Key
r40c-sb-kernel-notice	data/explain/kernel-module.toml	Loading of (?:unsigned module|module with unavailable key|module with unsupported crypto) is rejected	Loading of unsigned module is rejected
r40c-sb-installer	data/explain/kernel-module.toml	'''The kernel module failed to load, because it was not signed by a key that is trusted by the kernel''',\n	'''Loading of unsigned driver X''',\n
r40c-sb-explains	data/explain/kernel-module.toml	explains = ["nvidia-installer-module-load-failed"]\npatterns	explains = ["kernel-module-no-device"]\npatterns
r40c-cc-check	data/explain/kernel-module.toml	'''^\s*(?:Warning: )?Compiler version check failed:\s*$''',	'''^\s*(?:Warning: )Compiler version check failed:\s*$''',
r40c-akmods	data/explain/kernel-module.toml	'''Building and installing (?P<kmod>[\w.-]+-kmod)\s+\[\s*FAILED\s*\]''',	'''Building and installing (?P<kmod>[\w.-]+-kmod)\s+\[\s*OK\s*\]''',
r40c-nvml-fnf	data/explain/driver.toml	patterns = ['''Failed to initialize NVML: Function Not Found''']	patterns = ['''Failed to initialize NVML: Function Not Found at all''']
r40c-nvidia-docker	data/explain/driver.toml	'''nvidia-docker \| .*Error: nvml: Driver/library version mismatch''',	'''nvidia-docker \| .*Error: nvml: Driver/library version mismatchX''',
r40c-stub	data/explain/driver.toml	(?P<path>/[^\s:'"]*/stubs)/libcuda\.so(?:\.1)?: (?:undefined symbol	(?P<path>/[^\s:'"]*/stubz)/libcuda\.so(?:\.1)?: (?:undefined symbol
r40c-talos-legacy-when	data/explain/driver.toml	priority = 94\nwhen = ["talos"]	priority = 94\nwhen = ["colab"]
r40c-nvcc-knows-when	data/explain/gpu-arch.toml	when = ["nvcc-cuda-knows-arch"]	when = ["gpu-present"]
r40c-nvcc-compute-norm	src/explain/explain_machine.cpp	if (arch.starts_with("compute_")) arch	if (arch.starts_with("computeX_")) arch
r40c-cuda-free-text	data/explain/log-facts.toml	(?i)^.*\bcuda (?:toolkit )?(?P<cuda_release>	(?i)^.*\bcudax (?:toolkit )?(?P<cuda_release>
r40c-nvml-fnf-priority	data/explain/driver.toml	title = "nvidia-smi loaded an older NVML library than its own release"\ncategory = "driver-missing"\nseverity = "error"\npriority = 86	title = "nvidia-smi loaded an older NVML library than its own release"\ncategory = "driver-missing"\nseverity = "error"\npriority = 70
r40c-run-no-kmod-event	src/explain/explain_machine.cpp	{"nv_run_no_kernel_modules", "nvidia-run-no-kernel-modules"}	{"nv_run_no_kernel_modulesx", "nvidia-run-no-kernel-modules"}
r40c-run-joined	data/explain/log-facts.toml	--no-kernel-modules?)\b.*\bopen-gpu-kernel-modules-	--no-kernel-modules?)\b.*\bopen-gpu-kernel-modulesX-
r40rr-wsl2-words-weak	src/explain/explain_machine.cpp	if (wsl2_words && !log.platform) {	if (wsl2_words) {
r40rr-macos-os-words	data/explain/log-facts.toml	'''(?P<macos_log>\b(?:macOS|Mac OS X) (?:\d+|Sonoma	'''(?P<macos_log>\b(?:macOS|Mac OS X)\b(?:\d+|Sonoma|
r40rr-docker-base-kept	data/explain/container.toml	'''unknown or invalid runtime name: nvidia''']\ncause = "Docker has no GPU support configured	'''unknown or invalid runtime name: nvidia''']\nwhen = ["!macos-log"]\ncause = "Docker has no GPU support configured
r40rr-tf-not-jax	data/explain/libraries.toml	"!paddle-log", "!jax-log"]	"!paddle-log"]
r40rr-stub-loaded	data/explain/driver.toml	/libcuda\.so(?:\.1)?: (?:undefined symbol|cannot open|wrong ELF|version `)'''	/libcuda\.so\b'''
r40rr-xid-process	data/explain/xid.toml	when = ["rm-init-failed", "!xid-process"]	when = ["rm-init-failed"]
r40rr-runtime-not-conda	data/explain/log-facts.toml	'''(?i)(?:^|[\s"]|[^s]\\|[^v]s\\|[^n]vs\\|[^e]nvs\\)(?P<portable_python>runtime)	'''(?i)(?:^|[\s"\\])(?P<portable_python>runtime)
r40rr-no-kernel-module	data/explain/log-facts.toml	--no-kernel-modules?)\b''',	--no-kernel-modules)\b''',
r40rr-whisper-mac	data/explain/framework-messages.toml	when = ["macos-log"]\ncause = "This is a Mac: no NVIDIA GPU	when = ["macos-log", "colab"]\ncause = "This is a Mac: no NVIDIA GPU
r40rr-nccl-bridge-only	data/explain/log-facts.toml	|veth|virbr))''',	|veth|virbr))''',\n  '''(?P<nccl_many_interfaces>NET/Socket : Using \[0\]\S+ \[1\])''',
r40rr-jax-run-exact	src/kb/knowledge_base.cpp	return (!lo || (version <=> *lo) >= 0) && (!hi || (version <=> *hi) <= 0);	return true;
r40rr-jax-pre	src/kb/knowledge_base.cpp	if (!version.pre().empty() || !run.contains(version)) return false;	if (!run.contains(version)) return false;
r40rr-jax-known-exact	src/kb/resolver.cpp	return exact ? KnowledgeBase::in_release_run(r.versions, *exact)\n                         : KnowledgeBase::jax_run_overlaps(r.versions, *fr.spec);	return KnowledgeBase::jax_run_overlaps(r.versions, *fr.spec);
s41a-01	src/explain/rule_matcher.cpp	RuleHits& h = hits_[{hit.rule_index, part}];	RuleHits& h = hits_[{hit.rule_index, 0}];
s41a-02	data/explain/libraries.toml	split_by = ["tf_dso_loader"]	split_by = []
s41a-03	src/explain/rule_loader.cpp	if (!string_list(v["split_by"], r.split_by, problem, "split_by")) return false;	if (false) return false;
s41a-04	src/explain/explain_session.cpp	return prints_its_message(a) && !prints_its_message(b);	return prints_its_message(a) && !prints_its_message(a);
s41a-05	data/explain/error-codes.toml	|cuda runtime error \(\d+\) : )invalid argument(?:	)invalid argument(?:
s41a-06	data/explain/error-codes.toml	)invalid argument(?:\s?[.;,]|\s*$|\s+CUDA kernel errors| at \S)	)invalid argument(?:\s?[.;,]|\s*$|\s+CUDA kernel errors)
s41a-07	src/explain/explain_session.cpp	      if (!machine.log.portable_python.empty() && platform != Platform::linux && platform != Platform::wsl2) {\n        out = with_portable_python(out, machine.log.portable_python);	      if (false && !machine.log.portable_python.empty()) {\n        out = with_portable_python(out, machine.log.portable_python);
s41a-08	src/explain/explain_session.cpp	.cause = render(c.cause),	.cause = render_fix(c.cause),
s41a-09	src/explain/explain_session.cpp	out.command = "uv pip " + std::string(sub) + " --python " + python +	out.command = "uv pip " + std::string(sub) +
s41a-10	src/explain/explain_session.cpp	cmd_piece += "set \"" + name + "=" + value + "\" && ";	cmd_piece += name + "=" + value + " ";
s41a-11	src/explain/explain_session.cpp	if (any_variables) out += " (PowerShell: `"	if (any_variables && false) out += " (PowerShell: `"
s41a-12	src/explain/explain_session.cpp	return h.rule_index < matcher_.base().rules.size() && h.count < matcher_.base().rules[h.rule_index].min_lines;	return h.count < 1;
s41a-13	data/explain/log-facts.toml	min_lines = 2	min_lines = 1
s41a-14	data/explain/toolkit.toml	when = ["lightning-ddp", "slurm", "lightning-rank0-repeated", "!lightning-other-rank", "lightning-multi-process"]	when = ["lightning-ddp", "slurm", "!lightning-other-rank", "lightning-multi-process"]
s41a-15	data/explain/toolkit.toml	when = ["lightning-ddp", "slurm", "lightning-rank0-repeated", "!lightning-other-rank", "lightning-multi-process"]	when = ["lightning-ddp", "slurm", "lightning-rank0-repeated", "lightning-multi-process"]
s41a-16	data/explain/log-facts.toml	(?P<lightning_other_rank>LOCAL_RANK: [1-9]	(?P<lightning_other>LOCAL_RANK: [1-9]
s41a-17	data/explain/nccl.toml	when = ["hang-reported"]	when = []
s41a-18	data/explain/log-facts.toml	'''(?P<hang_reported>卡住|卡死|卡在)''',	'''(?P<hang_other>卡住|卡死|卡在)''',
s41a-19	data/explain/log-facts.toml	{0,3}(?P<hang_reported>(?:it|this|	{0,3}(?P<hang_other>(?:it|this|
s41a-20	data/explain/log-facts.toml	{0,5}(?P<hang_reported>(?:stuck|hangs?	{0,5}(?P<hang_other>(?:stuck|hangs?
s41a-21	data/explain/log-facts.toml	'''(?P<hang_reported>Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=1,)''',	'''(?P<hang_reported>Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=\d+,)''',
s41a-22	data/explain/nccl.toml	id = "nccl-p2p-access-failed"\nexplains = ["nccl-hang-after-init"]	id = "nccl-p2p-access-failed"\nexplains = []
s41a-23	data/explain/nccl.toml	require = { nranks = '^(?:[2-9]|[1-9]\d+)$' }	require = { nranks = '.' }
s41a-24	src/explain/explain_machine.cpp	{"hang_reported", "hang-reported"},	{"hang_reported_x", "hang-reported"},
s41a-25	data/explain/xid.toml	split_by = ["xid_process"]	split_by = []
s41a-26	data/explain/xid.toml	name=(?:modprobe|insmod|nvidia-modprobe|	name=(?:modprobeX|insmodX|nvidia-modprobeX|
s41b-01	data/explain/nccl.toml	NCCL version (?P<nccl>2\.18\.[1-5])\b	NCCL version (?P<nccl>2\.1[89]\.\d)\b
s41b-02	data/explain/nccl.toml	priority = 88\nwhen = ["vllm-log"]	priority = 88\nwhen = ["jax-log"]
s41b-03	data/explain/log-facts.toml	|Worker|RayWorker(?:Vllm|Wrapper))	|Worker)
s41b-04	data/explain/nccl.toml	explains = ["nccl-unhandled-cuda-error"]	explains = []
s41b-05	data/explain/extension-packages.toml	returned non-zero exit\s+status (?P<code>	returned non-zero exit status (?P<code>
s41b-06	data/explain/extension-packages.toml	when = ["extension-build-failed"]	when = []
s41b-07	src/explain/explain_machine.cpp	{"extension_build_failed", "extension-build-failed"}	{"extension_build_failed_x", "extension-build-failed"}
s41b-08	data/explain/log-facts.toml	returned non-zero exit\s+status) \d	returned non-zero exit status) \d
s41b-09	data/explain/gpu-arch.toml	explains = ["code/cublas/CUBLAS_STATUS_EXECUTION_FAILED", 	explains = [
s41b-10	data/explain/gpu-arch.toml	ggml was not compiled with any CUDA arch <= (?P<arch>\d+)	ggml was not compiled with any CUDA arch < (?P<arch>\d+)
s41b-11	data/explain/gpu-arch.toml	patterns = ['''ggml-cuda was compiled without support for the current GPU architecture''']	patterns = ['''ggml-cuda was compiled without support for the current GPU arch\b''']
s41b-12	data/explain/driver.toml	(?P<call>cudaSetDevice|cuInit) err: 999\b	(?P<call>cudaSetDevice|cuInit) err: \d+\b
s41b-13	data/explain/extension-packages.toml	'''text_generation_launcher: Could not import Flash Attention enabled models(?::	'''Could not import Flash Attention enabled models(?::
s41b-14	data/explain/runtime-abi.toml	'''[/\\]vllm[/\\](?:vllm_flash_attn[/\\])?	'''[/\\]vllmx[/\\](?:vllm_flash_attn[/\\])?
s41b-15	data/explain/runtime-abi.toml	(?P<module>exllama_kernels|exllamav2_kernels	(?P<module>exllamav2_kernels
s41b-16	data/explain/runtime-abi.toml	explains = ["library-built-without-gpu"]	explains = []
s41b-17	data/explain/runtime-abi.toml	supersedes = ["torch-extension-abi-mismatch", "torch-extension-pre-cxx11-abi-mismatch", "undefined-symbol-wrong-library"]\ncause = "vllm/	supersedes = ["torch-extension-pre-cxx11-abi-mismatch", "undefined-symbol-wrong-library"]\ncause = "vllm/
s41b-18	data/explain/extension-packages.toml	GPU with CUDA capability (?P<major>\d+) (?P<minor>\d+) is not supported'''	GPU with CUDA capability (?P<major>\d+)\.(?P<minor>\d+) is not supported'''
s41b-19	data/explain/extension-packages.toml	supersedes = ["tgi-flash-models-unavailable"]\nexplains = ["tgi-flash-models-unavailable"]	supersedes = ["tgi-flash-models-unavailable"]\nexplains = []
s41c-01	data/explain/cudnn.toml	(?P<loaded>5\d{3})	(?P<loaded>\d{4})
s41c-02	data/explain/cudnn.toml	cuDNN {compiled} is {cmajor}.{cminor}.{cpatch}, so any {cmajor}.{cminor}.x	cuDNN 7004 is 7.0.4, so any 7.0.x
s41c-03	data/explain/log-facts.toml	kernel reported version is: (?P<kernel_module_loaded>	kernel reported version is: (?P<kernel_module_seen>
s41c-04	data/explain/libraries.toml	when = ["!kernel-module-loaded"]	when = []
s41c-05	data/explain/libraries.toml	explains = ["xla-libcuda-not-loaded", 	explains = [
s41c-06	data/explain/log-facts.toml	(?P<posix>lib[\w+-]+\.so(?:\.\d+)*)	(?P<posix_so>lib[\w+-]+\.so(?:\.\d+)*)
s41c-07	data/explain/framework-build.toml	when = ["platform-windows", "tf-windows-no-gpu-likely"]	when = ["tf-windows-no-gpu-likely"]
s41c-08	data/explain/cudnn.toml	the cuDNN loaded is not the one this TensorFlow release was built for (another copy comes first on the library path), or 	either 
s41c-09	data/explain/libraries.toml	supersedes = ["cuda-library-missing", "python-import-cuda-lib-version-missing"]	supersedes = ["python-import-cuda-lib-version-missing"]
s41c-10	data/explain/install.toml	that answer's pip reinstall is no fix in a conda env.\nexplains = ["torch-not-compiled-with-cuda"]	that answer's pip reinstall is no fix in a conda env.\nexplains = []
s41c-11	data/explain/install.toml	when = ["conda-not-found"]	when = []
s41c-12	data/explain/install.toml	explains = ["conda-package-unavailable"]\ncause = "conda found no cudatoolkit	explains = []\ncause = "conda found no cudatoolkit
s41c-13	data/explain/log-facts.toml	^Your python: (?P<conda_python_conflict>	^Your python: (?P<conda_python_seen>
s41c-14	data/explain/install.toml	python=X.Y ...`, with a Python the package's page lists)	python=3.11 ...`)
s41c-15	data/explain/libraries.toml	when = ["conda-env", "!pip-cuda-wheel", "!onnxruntime-log", "!jetson"]\ncause = "This is a conda environment (the paths in the log): conda's f	when = ["!conda-env", "!pip-cuda-wheel", "!onnxruntime-log", "!jetson"]\ncause = "This is a conda environment (the paths in the log): conda's f
s41c-16	data/explain/libraries.toml	when = ["conda-env", "!pip-cuda-wheel", "!onnxruntime-log", "!jetson"]\ncause = "This is a conda environment (the paths in the log): a conda p	when = ["!conda-env", "!pip-cuda-wheel", "!onnxruntime-log", "!jetson"]\ncause = "This is a conda environment (the paths in the log): a conda p
s41c-17	src/explain/explain_machine.cpp	{"kernel_module_loaded", "kernel-module-loaded"},	{"kernel_module_loaded_x", "kernel-module-loaded"},
s41c-18	data/explain/install.toml	(?P<needs>>=(?P<python_min>	(?P<needs>>=(?P<python_lo>
s41c-19	data/explain/libraries.toml	, "code/cuda-driver/CUDA_ERROR_SHARED_OBJECT_INIT_FAILED"]	]
s41d-01	data/explain/log-facts.toml	'''(?:^|\s)(?P<enroot_container>--container-image)[= ]''',	'''(?:^|\s)(?P<enroot_container>--container-imagex)[= ]''',
s41d-02	data/explain/driver.toml	priority = 90\nwhen = ["enroot"]	priority = 90\nwhen = ["container"]
s41d-03	data/explain/driver.toml	patterns = ['''NVIDIA-SMI couldn't find libnvidia-ml\.so library''']	patterns = ['''NVIDIA-SMI couldn't find libnvidia-ml\.so libraryX''']
s41d-04	data/explain/driver.toml	priority = 88\nwhen = ["enroot"]	priority = 88\nwhen = ["container"]
s41d-05	data/explain/container.toml	patterns = ['''Command not found: nvidia-container-cli''']	patterns = ['''Command not found: nvidia-container-clix''']
s41d-06	data/explain/nccl.toml	priority = 86\nwhen = ["horovod"]	priority = 86\nwhen = ["container"]
s41d-07	data/explain/log-facts.toml	'''\b(?P<horovod_log>Horovod)(?:Allreduce|	'''\b(?P<horovod_log>HorovodX)(?:Allreduce|
s41d-08	data/explain/nccl.toml	'''Call to ibv_modify_qp failed with (?:error |\d+ )	'''Call to ibv_modify_qpX failed with (?:error |\d+ )
s41d-09	data/explain/nccl.toml	local GID ::ffff:[\dx.]+, remote GID ::ffff:	local GID ::fffX:[\dx.]+, remote GID ::ffff:
s41d-10	data/explain/driver.toml	'''unsatisfied condition: cuda\s*>=\s*(?P<cuda>	'''unsatisfied condition: cuda>=(?P<cuda>
s41d-11	data/explain/driver.toml	 or later, skip the image's check with `docker run -e NVIDIA_DISABLE_REQUIRE=true ...` or pin the image's earlier digest.)	 or later, pin the image's earlier digest.)
s41d-12	data/explain/container.toml	'''nvidia-container-cli: error while loading shared libraries: (?P<lib>	'''nvidia-container-clix: error while loading shared libraries: (?P<lib>
s41d-13	data/explain/container.toml	'''failed to generate CDI spec:.*failed to locate (?P<lib>	'''failed to generate CDI spec:.*failed to locateX (?P<lib>
s41d-14	data/explain/kernel-module.toml	'''modpost: GPL-incompatible module (?P<module>	'''modpost: GPL-incompatible modulex (?P<module>
s41d-15	data/explain/distributed.toml	'''Requested (?:ReadyEvent|Join|device context manager) with GPU	'''RequestedX (?:ReadyEvent|Join|device context manager) with GPU
s41d-16	data/explain/container.toml	patterns = ['''no runtime for 	patterns = ['''no runtimeX for 
s41d-17	data/explain/nccl.toml	'''Call to shm_open failed ?: Permission denied''',	'''Call to shm_open failed ?: Permission deniedX''',
s41d-18	data/explain/nccl.toml	when = ["accelerate-multi-process", "!accelerate-device-nonzero"]	when = ["accelerate-multi-process"]
s41d-19	data/explain/nccl.toml	priority = 86\nwhen = ["ray"]	priority = 86\nwhen = ["container"]
s41d-20	data/explain/log-facts.toml	'''^\((?:\w+ )?(?P<ray_log>pid)=	'''^\((?:\w+ )?(?P<ray_log>pidx)=
s41d-21	data/explain/nccl.toml	per process. Start no more processes per node than it has GPUs: torchrun `--nproc_per_node`, accelerate `--num_processes` (or num_processes in its config), deepspeed `--num_gpus`; under Ray each worker's GPU is the one Ray assigns it (its CUDA_VISIBLE_DEVICES), and two workers on one GPU were traced to older Ray releases (verl: upgrade Ray).	per process.
s41d-22	data/explain/log-facts.toml	'''^(?P<accelerate_processes>Num processes): (?:[2-9]|\d\d+)\s*$''',	'''^(?P<accelerate_processes>Num processesX): (?:[2-9]|\d\d+)\s*$''',
s41d-23	data/explain/container.toml	patterns = ['''\[ERROR\] (?P<hook>/\S*/hooks\.d/	patterns = ['''\[ERRORX\] (?P<hook>/\S*/hooks\.d/
s41d-24	data/explain/container.toml	explains = ["enroot-hook-failed", "pyxis-container-start-failed"]\n	explains = []\n
s41d-25	data/explain/container.toml	patterns = ['''pyxis: container start failed with error code: 	patterns = ['''pyxis: container start failedX with error code: 
s41d-26	data/explain/container.toml	explains = ["enroot-hook-failed", "pyxis-container-start-failed"]\n	explains = ["enroot-hook-failed"]\n
s41e-01	data/explain/nccl.toml	# of a problem class with several causes, below the exact answers (session 41 re-read, item 1).\npriority = 40	# of a problem class with several causes, below the exact answers (session 41 re-read, item 1).\npriority = 74
s41e-02	data/explain/log-facts.toml	explains = ["nccl-hang-after-init"]\nexamples = ["[Rank 1] Watchdog	examples = ["[Rank 1] Watchdog
s41e-03	src/explain/explain_session.cpp	  explained.insert(machine.log.explains.begin(), machine.log.explains.end());	  (void)machine.log.explains;
s41e-04	data/explain/nccl.toml	id = "inter-node"\npriority = 42	id = "inter-node"\npriority = 38
s41e-05	data/explain/log-facts.toml	(?i:(?:(?:the|my|our|and|but|so|now|then|still|just|always|also|it|	(?i:(?:(?:if|when|may|the|my|our|and|but|so|now|then|still|just|always|also|it|
s41e-06	data/explain/nccl.toml	when = ["!nccl-cuda-failure-other"]	# when = ["!nccl-cuda-failure-other"]
s41e-07	data/explain/toolkit.toml	explains = ["extension-build-nvcc-release"]\n	# no explains\n
s41e-08	data/explain/extension-packages.toml	(session 41 re-read, item 1: gcc 13 refused by nvcc 12.1).\npriority = 34	(session 41 re-read, item 1: gcc 13 refused by nvcc 12.1).\npriority = 74
s41e-09	data/explain/toolkit.toml	"!lightning-other-rank", "lightning-multi-process"]	"!lightning-other-rank"]
s41e-10	data/explain/nccl.toml	`export VLLM_NCCL_SO_PATH=<dir>/lib/libnccl.so.2`	`pip install -U nvidia-nccl-cu12`
s41e-11	data/explain/install.toml	# Gated by its own log event (+40 when it answers): 26 + 40 = 66 (session 41 re-read, item 1).\npriority = 26\nframeworks = ["pytorch", "tensorflow", "jax"]	priority = 66\nframeworks = ["pytorch", "tensorflow", "jax"]
s41e-12	data/explain/install.toml	# Gated by its own log event (+40 when it answers): 26 + 40 = 66 (session 41 re-read, item 1).\npriority = 26\nframeworks = []	priority = 66\nframeworks = []
s41e-13	src/explain/explain_session.cpp	    if (h.rule_index >= base.rules.size() || refuted_only[i]) continue;\n    const auto& ids = base.rules[h.rule_index].explains;	    if (h.rule_index >= base.rules.size()) continue;\n    const auto& ids = base.rules[h.rule_index].explains;
s41f-01	src/explain/explain_session.cpp	    if (same == answers.end()) {	    if (true) {
s41f-02	data/explain/libraries.toml	when = ["conda-env", "!pip-cuda-wheel", "!onnxruntime-log", "!jetson"]\ncause = "This is a conda environment (the paths in the log): a conda package	when = ["conda-env", "!onnxruntime-log", "!jetson"]\ncause = "This is a conda environment (the paths in the log): a conda package
s41f-03	data/explain/install.toml	when = ["conda-python-conflict", "!conda-cuda-conflict"]	when = ["conda-python-conflict"]
s41f-04	data/explain/libraries.toml	when = ["!onnxruntime-log", "!jetson", "!cuda10-missing"]	when = ["!onnxruntime-log", "!jetson"]
s41f-05	data/explain/cudnn.toml	1.5 to 1.12 cuDNN 7 with CUDA 9.0 (`pip install tensorflow-gpu==1.5.0`, up to 1.12.x)	1.5 and later cuDNN 7
s41f-06	src/explain/rule_loader.cpp	    if (!named) {	    if (!named && false) {
s41f-07	src/explain/explain_session.cpp	    out.command = python + " -c " + cmd_quoted(text.substr(10));	    out.command = python + " -c " + (false ? cmd_quoted(text.substr(10)) : std::string(text.substr(10)));
s41f-08	src/explain/explain_session.cpp	(any_python ? " & " : "; ")	"; "
s41f-09	src/explain/explain_session.cpp	      const size_t semi_at = find_unquoted(span, "; ", part);	      const size_t semi_at = span.find("; ", part);
s41f-10	src/explain/explain_session.cpp	      m.cause = merged_render(c->cause);	      (void)0;
s41m-01	src/kb/resolver.cpp	  if (variant && o.variant != *variant) return false;	  if (false && variant) return false;
s41m-02	src/kb/resolver.cpp	        c.variant = variant;  // no option has it: nothing matches, and the plan says why	        // no option has it: nothing matches, and the plan says why
s41m-03	src/kb/resolver.cpp	      else if (!name.empty() && name.back() != '-')\n        name += '-';	      else\n        name += c;
s41m-04	src/kb/resolver.cpp	                            : !fp.alternatives.empty() ? "; see the alternatives."	                            : !fp.alternatives.empty() ? "; see the blockers below and the alternatives."
s41m-05	src/kb/resolver.cpp	    if (any) {\n      c.variant = e;	    if (any) {\n      (void)any;
s41m-06	src/kb/framework_request.cpp	    return extra.substr(0, extra.size() - 6);	    return extra;
s41m-07	src/kb/resolver.cpp	      c.notes.push_back(asked + ": torch's extras do not choose its CUDA build; the index URL in the steps does");	      (void)asked;
s41m-08	src/kb/resolver.cpp	    fr.extras = std::move(*extras);	    (void)extras;
s41m-09	src/core/version.cpp	    if (iv.low) add(*iv.low);	    if (false) add(*iv.low);
s41m-10	src/core/version.cpp	      ++parts[parts.size() - 1];	      parts[parts.size() - 1] += 0;
s41m-12	src/kb/resolver.cpp	      for (PlanCommand& c : step.commands) repin(c.line);	      for (PlanCommand& c : step.commands) (void)c;
s41m-13	src/kb/resolver.cpp	    } else if (!published) {	    } else if (false && !published) {
s41m-16	src/kb/resolver.cpp	      fr.local_label = std::move(*label);	      (void)label;
s41m-18	src/kb/data_files.cpp	        if (auto v = Version::parse(line.substr(11, line.size() - 12))) out.push_back(*v);	        (void)line;
s41m-11	src/kb/framework_request.cpp	  return std::any_of(rs.begin(), rs.end(), [&](const Version& r) { return fr->spec->contains(r); });	  return fr->spec->admits_series(series);
s41m-14	src/kb/framework_request.cpp	v && v->parts().size() >= 3) sr.pin = v;	v && v->parts().size() >= 2) sr.pin = v;
s41m-15	src/kb/resolver.cpp	      if (ac != nullptr && !ac->recommended.empty() && ac->recommended != target->str()) {	      if (false && ac != nullptr) {
s41m-19	src/kb/framework_request.cpp	  if (in.empty()) return std::nullopt;\n  // The whole series	  return std::nullopt;\n  // The whole series
s41m-20	src/kb/framework_request.cpp	  if (!fr.spec || !trim(fr.spec->text()).starts_with("==") ||	  if (!fr.spec ||
s41m-21	src/kb/resolver.cpp	      published = published || r == *target;	      published = published || (r == *target && r.str() == target->str());
s41m-22	src/kb/resolver.cpp	    if (!any_series && low && high) {	    if (false && low && high) {
s42-pep-le	src/core/version.cpp	b = make_bound(p.substr(2), true, Width::padded);\n        if (!b) return std::nullopt;\n        iv.high = b;	b = make_bound(p.substr(2), true);\n        if (!b) return std::nullopt;\n        iv.high = b;
s42-pep-gt	src/core/version.cpp	b = make_bound(p.substr(1), false, Width::padded);	b = make_bound(p.substr(1), false);
s42-pep-ne	src/core/version.cpp	b = make_bound(p.substr(2), true, Width::padded, true);	b = make_bound(p.substr(2), true, Width::written, true);
s42-pep-eq-series	src/core/version.cpp	b.width = std::max<size_t>(b.width, 2);	b.width = std::max<size_t>(b.width, 1);
s42-pep-wildcard	src/core/version.cpp	if (requirement && !wildcard && width == Width::padded)	if (requirement && width == Width::padded)
s42-pep-request	src/kb/resolver.cpp	auto spec = VersionSpec::parse_requirement(rest);	auto spec = VersionSpec::parse(rest);
s42a2-01	data/explain/extension-packages.toml	explains = ["xformers-no-operator"]	# explains = ["xformers-no-operator"]
s42a2-02	data/explain/extension-packages.toml	patterns = ['''\bbf16 is only supported on A100\+ GPUs\b''']	patterns = ['''\bbf16 is only supported on A100\+ GPUs\b''', '''requires device with capability > \(8, 0\)''']
s42a2-03	data/explain/program-errors.toml	_scaled_mm is only supported on (?:CUDA )?devices	_scaled_mm is only supported on CUDA devices
s42a2-04	data/explain/gpu-arch.toml	GPUs do not support bfloat16(?:$|[^,])'''	GPUs do not support bfloat16'''
s42a2-05	data/explain/program-errors.toml	CUBLAS_STATUS_NOT_SUPPORTED when calling `?(?P<call>	CUBLAS_STATUS_NOT_SUPPORTED when calling `(?P<call>
s42a2-06	data/explain/harmless.toml	harmless = true\npriority = 4\nframeworks = ["pytorch"]\npatterns = ['''You are using	harmless = false\npriority = 4\nframeworks = ["pytorch"]\npatterns = ['''You are using
s42a2-07	data/explain/training-libraries.toml	explains = ["deepspeed-overflow-skipped-step", "deepspeed-overflow-at-minimum-scale"]	# explains = ["deepspeed-overflow-skipped-step", "deepspeed-overflow-at-minimum-scale"]
s42a2-08	data/explain/training-libraries.toml	harmless = true\npriority = 6\nframeworks = ["pytorch"]\npatterns = ['''(?i:OVERFLOW)	harmless = false\npriority = 6\nframeworks = ["pytorch"]\npatterns = ['''(?i:OVERFLOW)
s42a2-09	data/explain/harmless.toml	harmless = true\npriority = 6\nframeworks = ["pytorch"]\npatterns = ['''\b1?Torch was not	harmless = false\npriority = 6\nframeworks = ["pytorch"]\npatterns = ['''\b1?Torch was not
s42a2-10	data/explain/log-facts.toml	'''(?:^|[^未没有不无需要请议])(?P<flash_attn_package>安装	'''(?P<flash_attn_package>安装
s42a2-11	data/explain/gpu-arch.toml	when = ["!flash-attn-package", "!torch-sdpa"]	when = ["!torch-sdpa"]
s42a2-12	src/explain/explain_machine.cpp	{"flash_attn_package", "flash-attn-package"},	{"flash_attn_packagex", "flash-attn-package"},
s42a2-13	src/explain/explain_machine.cpp	{"torch_sdpa", "torch-sdpa"},	{"torch_sdpax", "torch-sdpa"},
s42a2-14	src/explain/explain_machine.cpp	[&](const Version& v) { return own_arch(v) == ran; }	[&](const Version& v) { return own_arch(v) >= ran; }
s42a2-15	src/explain/explain_machine.cpp	return own_arch(v) != ran && runs(v) == ran;	return runs(v) == ran;
s42a2-16	data/explain/gpu-arch.toml	supersedes = ["ggml-no-device-code", "no-kernel-image", "ggml-no-kernel-image"]	supersedes = ["no-kernel-image", "ggml-no-kernel-image"]
s42a2-17	data/explain/gpu-arch.toml	supersedes = ["ggml-no-device-code", "no-kernel-image", "ggml-no-kernel-image"]\nwhen = ["!gpu-cc-is-arch", "!gpu-cc-above-arch"]	supersedes = ["ggml-no-device-code", "no-kernel-image", "ggml-no-kernel-image"]\nwhen = ["!gpu-cc-above-arch"]
s42a2-18	data/explain/gpu-arch.toml	# The guard traps after printing: the launch failure ggml reports next is that trap.\nexplains = [	# The guard traps after printing: the launch failure ggml reports next is that trap.\n# explains = [
s42a2-19	data/explain/gpu-arch.toml	'''CUDA kernel (?P<kernel>flash_attn\w*) has no	'''CUDA kernel (?P<kernel>flash_attn_vec\w*) has no
s42a1-01	data/explain/profilers.toml	'''does not have permission to access NVIDIA GPU Performance Counters''',	'''does not have permission to access NVIDIA GPU Performance CountersX''',
s42a1-02	data/explain/profilers.toml	does not have permission to profile'''	does not have permission to profileX'''
s42a1-03	data/explain/profilers.toml	severity = "warning"\npriority = 70	severity = "error"\npriority = 70
s42a1-04	data/explain/profilers.toml	)?failed with error CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\b'''	)?failed with error CUPTI_ERROR_\w*INSUFFICIENT_PRIVILEGES\b'''
s42a1-05	data/explain/profilers.toml	explains = ["kineto-cupti-init-failed"]	
s42a1-06	data/explain/profilers.toml	severity = "warning"\npriority = 62	severity = "error"\npriority = 62
s42a1-07	data/explain/profilers.toml	''':\d+: error: function (?P<call>	''':\d+: error: functionX (?P<call>
s42a1-08	data/explain/profilers.toml	'''\] Function (?P<call>	'''\] FunctionX (?P<call>
s42a1-09	data/explain/profilers.toml	supersedes = ["cupti-insufficient-privileges"]	
s42a1-10	data/explain/profilers.toml	severity = "error"\npriority = 86\nframeworks = ["paddle"]	severity = "warning"\npriority = 86\nframeworks = ["paddle"]
s42a1-11	data/explain/profilers.toml	'''CUPTI initialization failed - CUDA profiler activities will be missing''',	'''CUPTI initialization failed - CUDA profiler activities will be missingX''',
s42a1-12	data/explain/profilers.toml	init\.cpp:\d+\] function (?:cbapi	init\.cpp:\d+\] functionX (?:cbapi
s42a1-13	data/explain/profilers.toml	when = ["cuda-ld-path"]	when = []
s42a1-14	data/explain/profilers.toml	'''Could not find CUDA Debugger back-end	'''Could not find CUDA Debugger backend
s42a1-15	data/explain/profilers.toml	'''Internal Memcheck Error: Initialization failed'''	'''Internal Memcheck Error: '''
s42b-01	data/explain/toolkit.toml	'''\bIR version (?P<ir>\d+\.\d+) incompatible with current version	'''\bIR version (?P<ir>\d+\.\d+) incompatible with the current version
s42b-02	data/explain/toolkit.toml	'''\bNVVM_ERROR_IR_VERSION_MISMATCH\b''',	'''\bNVVM_ERROR_\w+\b''',
s42b-03	data/explain/gpu-arch.toml	'''Target GPU SM (?P<sm>\d+) is not supported by this TensorRT release''',	'''Target GPU SM (?P<sm>\d+) is not supported by this TensorRT version''',
s42b-04	data/explain/gpu-arch.toml	explains = ["tensorrt-engine-build-failed"]	explains = []
s42b-05	data/explain/gpu-arch.toml	  '''Unable to build the TensorRT engine''',	  '''Unable to build the TensorRT engines''',
s42b-06	data/explain/driver.toml	'''\bcuInit failed: unknown(?: error)?\b''',	'''\bcuInit failed: \w+''',
s42b-07	data/explain/driver.toml	, or there is no NVIDIA GPU, as in a virtual machine without one passed through.	.
s42b-08	data/explain/memory.toml	'''rmm/mr/(?:device/)?\w+\.hpp:\d+: cudaErrorMemoryAllocation''',	'''rmm/mr/(?:device/)?\w+\.hpp:\d+: cudaErrorMemoryAllocationX''',
s42b-09	data/explain/memory.toml	'''RMM failure at: ?	'''(?:RMM failure at: ?)?
s42b-10	data/explain/memory.toml	supersedes = ["cuda-out-of-memory"]\ncause = "RAPIDS'	supersedes = []\ncause = "RAPIDS'
s42b-11	data/explain/container.toml	(?:exec: )?(?P<option>--?[A-Za-z][\w-]*): not found	(?:exec: )?(?P<option>-*[A-Za-z][\w-]*): not found
s42b-12	data/explain/container.toml	'''FATAL: +"(?P<option>--?[A-Za-z][\w-]*)": executable file not found in \$PATH''',	'''FATAL: +"(?P<option>--?[A-Za-z][\w-]*)": executable file not found in \$PATHX''',
s42b-13	data/explain/container.toml	'''Could not find any nv (?P<what>files|libraries) on this host'''	'''Could not find any \w+ (?P<what>files|libraries) on this host'''
s42b-14	data/explain/container.toml	harmless = true\npriority = 12\npatterns = ['''Could not find any nv	harmless = false\npriority = 12\npatterns = ['''Could not find any nv
s42b-15	data/explain/driver.toml	patterns = ['''Call to cuInit results in CUDA_ERROR_NO_DEVICE''']	patterns = ['''CUDA_ERROR_NO_DEVICE''']
s42b-16	data/explain/driver.toml	priority = 70\nwhen = ["platform-wsl2"]\ncause = "Under WSL2 the GPU	priority = 90\nwhen = ["platform-wsl2"]\ncause = "Under WSL2 the GPU
s42b-17	data/explain/driver.toml	supersedes = ["cuinit-no-device"]	supersedes = []
s42b-18	data/explain/harmless.toml	patterns = ['''Your ONNX model has been generated with INT64 weights, while TensorRT does not natively support INT64\. Attempting to cast down to INT32''']	patterns = ['''INT32''']
s42b-19	data/explain/harmless.toml	(?:< 2 \* SM count|will likely result in GPU under.utilization)	(?:< 2 \* SM count)
s42b-20	data/explain/harmless.toml	'''NumbaPerformanceWarning: Grid size \(?\d+\)? (?:	'''Grid size \(?\d+\)? (?:|
s42b-21	data/explain/harmless.toml	harmless = true\npriority = 8\nframeworks = ["numba"]	harmless = false\npriority = 8\nframeworks = ["numba"]
s42c-01	data/explain/toolkit.toml	CUDA_HOME='(?P<cuda_home>[^']*)	CUDA_HOME='(?P<cuda_home>[^'\s]*)
s42c-02	data/explain/toolkit.toml	harmless = true\nframeworks = ["pytorch"]\npatterns = ['''No CUDA runtime	harmless = false\nframeworks = ["pytorch"]\npatterns = ['''No CUDA runtime
s42c-03	data/explain/log-facts.toml	torch\._dynamo\.convert_frame: \[WARNING\] [^	torch\._dynamo\.convert_frame: \[ERROR\] [^
s42c-04	data/explain/performance.toml	priority = 88\nwhen = ["!dynamo-suppressed"]	priority = 88
s42c-05	data/explain/extension-packages.toml	'''\bC1083: .*?\b(?P<header>Python	'''\bC1083: '(?P<header>Python
s42c-06	data/explain/windows.toml	  '''Command '\['where', 'cl(?:\.exe)?'\]' returned non-zero exit\s+status \d''',\n	
s42c-07	data/explain/windows.toml	'\s*->\s*'(?P<link>	(?P<link>
s42c-08	data/explain/log-facts.toml	  '''Looking in (?:indexes|links): (?:	  '''Looking nowhere (?:indexes|links): (?:
s42c-09	data/explain/install.toml	require_older = ["version", "first"]\n	
s42c-10	data/explain/install.toml	when = ["!pytorch-index"]\n	
s42c-11	src/explain/explain_machine.cpp	nccl_wheel_majors.begin() > 1) {	nccl_wheel_majors.begin() > 0) {
s42c-12	data/explain/log-facts.toml	  '''(?P<pip_build>Preparing metadata \((?:setup\.py|pyproject\.toml)\) \.\.\. error|python setup\.py (?:egg_info|bdist_wheel|develop) did not run successfully|<pip-setuptools-caller>)''',\n  '''(?P<pip_build>[/\\]pip-install-\w+[/\\][\w.-]+[/\\]setup\.py)''',\n	
s42c-13	data/explain/extension-packages.toml	priority = 76\nwhen = ["!pip-build"]	priority = 76
s42c-14	data/explain/log-facts.toml	(?P<macos_log>(?:Mac(?:Book(?: Pro| Air)?| ?mini| Studio)?|Apple) M[1-9])	(?P<macos_log>(?:MacBook(?: Pro| Air)?| ?mini| Studio|Apple) M[1-9])
s42c-15	data/explain/performance.toml	'''torch\._dynamo\.convert_frame: \[WARNING\] (?:torch\._dynamo\.exc\.)?BackendCompilerFailed	'''(?:torch\._dynamo\.exc\.)?BackendCompilerFailed
s42c-16	data/explain/nccl.toml	id = "two-cuda-majors"\nwhen = ["nccl-wheels-two-majors"]\n	id = "two-cuda-majors"\n
s42c-17	data/explain/log-facts.toml	requirement (?:torch|torchvision|torchaudio)\S* \(from versions: [^)]*?\d\+(?P<pytorch_index>	requirement (?:torch|torchvision|torchaudio)\S* \(from versions: [^)]*?\d\+(?P<pytorch_index_x>
s42c-18	data/explain/install.toml	explains = ["pip-pytorch-variant-not-published", "pip-no-matching-framework"]	explains = ["pip-no-matching-framework"]
s42-pep-pre	src/core/version.cpp	  if (!b.whole) return compare_on_width(v, b.version, b.width);	  if (true) return compare_on_width(v, b.version, b.width);
s42-pep-wild-refused	src/core/version.cpp	    if (requirement && wildcard && !wildcard_allowed) return std::nullopt;	    (void)wildcard_allowed;
s42-pep-later-patch	src/kb/framework_request.cpp	  if (in.size() == rs.size() && fr->spec->contains(later)) return std::nullopt;	  if (in.size() == rs.size()) return std::nullopt;
s42-jax-run-newest	src/kb/resolver.cpp	          if (KnowledgeBase::in_release_run(rel->versions, r) && fr.spec->contains(r)) o.version = r;	          if (false) o.version = r;
s42-jax-overlap-both	src/kb/knowledge_base.cpp	    if (bound && run.contains(*bound) && request.contains(*bound)) return true;	    if (bound && run.contains(*bound) && (request.contains(*bound) || true)) return true;
s42-arch-list-harmless	data/explain/harmless.toml	patterns = ['''TORCH_CUDA_ARCH_LIST is not set, all archs for visible cards are included''']	patterns = ['''TORCH_CUDA_ARCH_LIST is not set, all archs for visible cards are includedx''']
s42r1-01	data/explain/log-facts.toml	'''(?:^|\s)Device \d+: [^,]+, compute	'''^\s*Device \d+: [^,]+, compute
s42r1-02	src/explain/explain_machine.cpp	if (end > i && end - i <= 4) compiled.push_back(	if (false) compiled.push_back(
s42r1-03	src/explain/explain_machine.cpp	if (std::find(compiled.begin(), compiled.end(), own) != compiled.end()) return own;	
s42r1-04	src/explain/explain_machine.cpp	return !above && std::any_of(	return std::any_of(
s42r1-05	data/explain/extension-packages.toml	patterns = ['''\bbf16 is only supported on A100\+ GPUs\b''']	patterns = ['''^\s*bf16 is only supported on A100\+ GPUs\s*$''']
s42r1-06	data/explain/extension-packages.toml	when = ["!xformers-device-cpu"]\n	
s42r1-07	data/explain/log-facts.toml	(?P<xformers_device_cpu>device=cpu \(supported	(?P<xformers_device_cpu>device=cpux \(supported
s42r1-08	data/explain/log-facts.toml	|import flash_attn[\w.]*(?:\s+as\s+\w+)?\s*$)'''	|import flash_attn[\w.]*(?:\s+as\s+\w+)?)'''
s42r1-09	data/explain/log-facts.toml	[^未没有不无需要请议]	[^未没有不]
s42r1-10	data/explain/gpu-arch.toml	when = ["flash-attn-package", "!flash-attn-not-built"]	when = ["flash-attn-package"]
s42r1-11	data/explain/log-facts.toml	(?P<flash_attn_not_built>(?:Failed building wheel for|Failed to build|	(?P<flash_attn_not_built>(?:Failed building wheel for|
s42r1-12	src/explain/explain_machine.cpp	{"flash_attn_not_built", "flash-attn-not-built"},	{"flash_attn_not_builtx", "flash-attn-not-built"},
s42r1-13	src/explain/explain_machine.cpp	{"xformers_device_cpu", "xformers-device-cpu"}};	{"xformers_device_cpux", "xformers-device-cpu"}};
s42r1-14	data/explain/training-libraries.toml	Attempted loss scale: (?P<from>1(?:\.0+)?), reducing to	Attempted loss scale: (?P<from>\d+(?:\.0+)?), reducing to
s42r1-15	data/explain/training-libraries.toml	supersedes = ["deepspeed-overflow-skipped-step"]\n	
s42r1-16	data/explain/gpu-arch.toml	Ampere (sm80, sm86), Ada (sm89) and Hopper	Ampere (sm80, sm86, sm89) and Hopper
s42r1-17	data/explain/gpu-arch.toml	needs 8.0 or 9.0 exactly (A100/A800, H100: mha_bwd checks `is_sm80 || is_sm90`, so 8.6 and 8.9 cards fail it too)	needs 8.0 (A100)
s42r1-18	data/explain/gpu-arch.toml	or use a GPU that has this kernel: compute capability 7.0 (Volta) or newer for flash_attn_ext_f16, 6.0 or newer for the vector and tile kernels.	or use a GPU of compute capability 7.5 (Turing) or newer.
s42r1-19	data/explain/gpu-arch.toml	in which this kernel is compiled out (ggml compiles flash_attn_ext_f16 only for tensor cores, compute capability 7.0, and the vector and tile kernels for 6.0).	in which this kernel (tensor cores from 7.0) is compiled out.
s42-matrix-range	src/kb/matrix_query.cpp	  auto keep_series = [&](const Version& row) { return !f.versions || series.admits_released(row.truncated(2)); };	  auto keep_series = [&](const Version& row) { return !f.versions || true || series.admits_released(row.truncated(2)); };
s42-matrix-jax-range	src/kb/matrix_query.cpp	        if (f.versions && !KnowledgeBase::jax_run_overlaps(it->versions, *f.versions)) continue;	        if (false) continue;
s42-matrix-cli-range	src/cli/cmd_matrix.cpp	      f.versions = fr->spec;	      (void)fr->spec;
s42r2-01	data/explain/windows.toml	severity = "info"\nharmless = true\npriority = 6\nframeworks = ["pytorch"]\npatterns = ['''Error checking compiler	severity = "error"\npriority = 84\nframeworks = ["pytorch"]\npatterns = ['''Error checking compiler
s42r2-02	data/explain/log-facts.toml	'''Requirement already satisfied: nvidia-nccl-(?P<nccl_wheel>cu\d+)\b''',	'''Requirement already satisfied: nvidia-nccl-(?P<nccl_wheel>cu\d+)\b''', '''(?:^|\s)nvidia-nccl-(?P<nccl_wheel>cu\d+)==\d+\.\d+''',
s42r2-03	data/explain/log-facts.toml	'''Requirement already satisfied: nvidia-nccl-(?P<nccl_wheel>cu\d+)\b''',	
s42r2-04	data/explain/training-libraries.toml	reducing to (?P<to>1(?:\.0+)?)(?:[^\d.]|$)	reducing to (?P<to>[01](?:\.0+)?)(?:[^\d.]|$)
s42r2-05	src/explain/explain_machine.cpp	if (flash_attn_pip && !log.events.contains("flash-attn-not-built"))	if (flash_attn_pip)
s42r2-06	src/explain/explain_machine.cpp	return !label.empty() && label != first_capture(captures, "variant") ? Truth::yes : Truth::unknown;	return !label.empty() ? Truth::yes : Truth::unknown;
s42r2-07	data/explain/install.toml	when = ["pytorch-index", "pip-list-unlabelled", "!macos-log"]	when = ["pytorch-index", "!macos-log"]
s42r2-08	data/explain/install.toml	when = ["pytorch-index", "!pip-index-other-label", "!pip-list-unlabelled"]	when = ["pytorch-index", "!pip-list-unlabelled"]
s42r2-09	data/explain/install.toml	when = ["pytorch-index", "!pip-list-unlabelled", "!pip-index-other-label"]	when = ["pytorch-index", "!pip-index-other-label"]
s43-ggml-above-when	data/explain/gpu-arch.toml	priority = 88\nwhen = ["gpu-cc-above-arch"]	priority = 88\nwhen = ["!gpu-cc-above-arch"]
s43-ggml-isarch-when	data/explain/gpu-arch.toml	priority = 88\nwhen = ["gpu-cc-is-arch"]	priority = 88\nwhen = ["gpu-cc-above-arch"]
s43-ggml-base-when	data/explain/gpu-arch.toml	supersedes = ["no-kernel-image", "ggml-no-kernel-image"]\nwhen = ["!gpu-cc-is-arch", "!gpu-cc-above-arch"]	supersedes = ["no-kernel-image", "ggml-no-kernel-image"]
s43-bnb-path-space	data/explain/extension-packages.toml	found: (?P<path>\S.*?libcudart\.so(?:\.\d+)*|\S+)'''	found: (?P<path>\S+)'''
s43d1-01	data/explain/gpu-platforms.toml	supersedes = ["no-kernel-image"]	supersedes = []
s43d1-02	data/explain/framework-build.toml	when = ["!macos-log", "!xpu-log", "!rocm-log"]	when = ["!xpu-log", "!rocm-log"]
s43d1-03	data/explain/log-facts.toml	Arc(?:\(TM\))? [AB][3-9]\d0[A-Z]?\b)	Arc(?:\(TM\))? (?:[AB][3-9]\d0[A-Z]?\b)?)
s43d1-04	data/explain/log-facts.toml	ROCM used to build PyTorch: (?P<rocm_log>\d)	ROCM used to build PyTorch: (?P<rocm_log>\S)
s43d1-05	data/explain/log-facts.toml	(?P<macos_log>\bMPS backend\b|	(?P<macos_log>
s43d1-06	data/explain/gpu-platforms.toml	(?P<op>[\w:.]+)' is not currently supported on the MPS backend	(?P<op>[\w:.]+)' is not currently supported on the \w+ backend
s43d1-07	data/explain/driver.toml	when = ["!macos-log", "!xpu-log", "!rocm-log"]	when = ["!macos-log", "!xpu-log"]
s43d1-08	data/explain/gpu-platforms.toml	{?windows:this web UI has no AMD support on Windows, use lshqqytiger's fork (stable-diffusion-webui-amdgpu) started with `--use-directml` or `--use-zluda`}	this web UI has no AMD support on Windows, use lshqqytiger's fork (stable-diffusion-webui-amdgpu) started with `--use-directml` or `--use-zluda` or 
s43d1-09	data/explain/gpu-platforms.toml	'''\bHIP error: invalid device function'''	'''\bHIP error: invalid device functionX'''
s43d1-10	data/explain/gpu-platforms.toml	patterns = ['''MPS backend out of memory	patterns = ['''MPS backend out of memoryX
s43d1-11	src/explain/explain_machine.cpp	    {"rocm_log", "rocm-log"},\n	
s43d1-12	data/explain/gpu-platforms.toml	(?P<asic>[A-Z][A-Z0-9_]+)\s+(?:VF\s+)?not	(?P<asic>[A-Z][A-Za-z0-9_ ]+)\s+(?:VF\s+)?not
s43d1-13	src/explain/explain_machine.cpp	    {"xpu_log", "xpu-log"},\n	
s43a1-01	src/model/monitor_snapshot.cpp	    if (!g.lost.empty()) return true;	    if (!g.lost.empty()) return false;
s43a1-02	src/monitor/diagnoses.cpp	  gpu_lost(latest, out);\n	  if (false) gpu_lost(latest, out);\n
s43a1-03	src/render/prometheus.cpp	    if (!g.lost.empty()) continue;\n	
s43a1-04	src/render/prometheus.cpp	std::string uuid = g.uuid.empty() ? ""	std::string uuid = false ? ""
s43a1-05	src/monitor/diagnoses.cpp	last.ecc_uncorrected_volatile && *last.ecc_uncorrected_volatile > 0	last.ecc_uncorrected_volatile
s43a1-06	src/monitor/diagnoses.cpp	const bool act = new_retired > 0 || pending;	const bool act = true;
s43a1-07	src/render/monitor_text.cpp	g.remapping_pending.value_or(false) ? " (remap pending a reset)" : ""	""
s43a1-08	src/cli/serve_http.cpp	    if (left > Clock::duration::zero() &&\n        poll_socket(sock_, POLLIN, to_ms(std::min<Clock::duration>(left, read_timeout_))) > 0) {	    if (poll_socket(sock_, POLLIN, to_ms(read_timeout_)) > 0) {
s43a1-09	src/cli/serve_http.cpp	    stream.start_request(request_deadline_);	    if (left == keep_alive_max_count_) stream.start_request(request_deadline_);
s43a1-10	src/cli/serve_http.cpp	 || stream.past_deadline()) break;	) break;
s43b-01	src/cli/cmd_serve.cpp	      std::string json = render_doctor_json(facts, findings);\n      report.store(std::move(json), std::move(findings));	      report.store(render_doctor_json(facts, findings), std::move(findings));
s43b-02	src/check/fleet_compare.cpp	    if (unanswered.empty() || !listed_from_files(g)) ++models[gpu_model(g)];	    if (unanswered.empty() || !listed_from_files(g)) ++models[g.kb_name.empty() ? gpu_model(g) : g.kb_name];
s43b-03	src/check/fleet_compare.cpp	  return g.source == "pci" && !g.pci_device_id.empty() ? name + " (PCI device " + g.pci_device_id + ")" : name;	  return name;
s43b-04	src/model/json_codec.cpp	        note_mistyped();  // a bench figure "fast" was dropped without a word (review 43B, 03)	        (void)0;
s43b-05	src/model/json_codec.cpp	    PathPart part(key);  // so a field inside names its object: nccl.busbw_gbps	    
s43b-06	src/model/json_codec.cpp	    io.field("errors", count);	    
s43b-07	src/model/json_codec.cpp	    if (!j->is_object()) return note_mistyped();	    if (!j->is_object()) return;
s43b-08	src/render/html_report.cpp	static_cast<double>(chars) <= end;	static_cast<double>(chars) <= end + 10000;
s43b-09	src/render/html_report.cpp	constexpr int kChartBarWidth = 260;	constexpr int kChartBarWidth = 300;
s43b-10	src/check/fleet_compare.cpp	      if (!unanswered.empty() && counted >= usual) {	      if (false) {
s43b-11	src/check/fleet_compare.cpp	  if (!unanswered.empty()) {\n    gpus.push_back(	  if (false && !unanswered.empty()) {\n    gpus.push_back(
s43b-12	src/check/fleet_compare.cpp	  const char* how = d.nvml_status == LibraryStatus::timeout   ? "hung"	  const char* how = d.nvml_status != LibraryStatus::crashed   ? "hung"
s43b-13	src/render/templates/report.mustache	<td class="words">{{area}}</td>	<td>{{area}}</td>
s43b-14	src/cli/cmd_report.cpp	          if (!is_bench_rate(value))	          if (false)
s43c3-01	src/probe/python/site_packages.cpp	    if (!editable_install(system, dist_path)) fw.missing_package = folder;	    if (!editable_install(system, dist_path) && false) fw.missing_package = folder;
s43c3-02	src/probe/python/site_packages.cpp	  return contains(compact, "\"editable\":true");	  return false;
s43c3-03	src/probe/python/site_packages.cpp	  if (!registered("torch") && system.is_file(torch_py)) {	  if (system.is_file(torch_py)) {
s43c3-04	src/probe/python_probe.cpp	        if (system_.is_file(join(bin, e.name))) return {};  // one that starts is enough	        if (false) return {};
s43c3-05	src/probe/python_probe.cpp	      if (own.count(*real) != 0) {	      if (own.count(*real) != 0 && false) {
s43c3-06	src/check/python_checks.cpp	        .severity = gpu && loses_gpu ? Severity::error : Severity::warning,	        .severity = gpu && loses_gpu && false ? Severity::error : Severity::warning,
s43c3-07	src/check/python_checks.cpp	      if (!fw.reached_via.empty() && hides_cuda) cpu_only = false;	      if (!fw.reached_via.empty() && hides_cuda && false) cpu_only = false;
s43d2-01	data/explain/kernel-module.toml	NVRM: The NVIDIA probe routine was not called for (?P<count>	NVRM: The NVIDIA probe routine was never called for (?P<count>
s43d2-02	data/explain/kernel-module.toml	"nvidia-installer-module-load-failed", "nvidia-probe-not-called"]	"nvidia-installer-module-load-failed"]
s43d2-03	data/explain/kernel-module.toml	  '''NVRM: No NVIDIA graphics adapter probed''',\n	
s43d2-04	data/explain/driver.toml	id = "no-nvidia-gpu"\ncategory = "driver-missing"\npriority = 72	id = "no-nvidia-gpu"\ncategory = "driver-missing"\npriority = 60
s43d2-05	data/explain/driver.toml	priority = 72\nharmless = true\n	priority = 72\n
s43d2-06	data/explain/driver.toml	'''Unable to query CUDA driver version! Is an nVidia driver installed\?'''	'''Unable to query CUDA driver version!! Is an nVidia driver installed\?'''
s43d2-07	data/explain/driver.toml	when = ["platform-windows", "driver-loaded"]	when = ["platform-windows"]
s43d2-08	data/explain/libraries.toml	when = ["tf-cudart-stub", "!tf-gpu-found", 	when = ["tf-cudart-stub", 
s43d2-09	data/explain/libraries.toml	and the toolkit answer leads again.\npriority = 81	and the toolkit answer leads again.\npriority = 79
s43d2-10	data/explain/log-facts.toml	  '''\b(?P<tf_gpu_found>Found device \d+ with properties)''',\n	
s43d2-11	data/explain/log-facts.toml	Successfully opened (?:dynamic|CUDA) library (?P<tf_gpu_found>	Successfully opened (?:dynamic|CUDA) libraryX (?P<tf_gpu_found>
s43d2-12	data/explain/log-facts.toml	'''(?P<sgx_enclave>Gramine) is starting\. Parsing TOML manifest'''	'''(?P<sgx_enclave>Gramine) is starting\. Parsing YAML manifest'''
s43d2-13	data/explain/log-facts.toml	(?P<sgx_enclave>gramine-sgx|occlum run) \S	(?P<sgx_enclave>gramine-sgxx|occlum run) \S
s43d2-14	data/explain/driver.toml	OS call failed or operation not supported on this OS)'''	OS call failed or operation not supported on this XOS)'''
s43d2-16	data/explain/driver.toml	priority = 78\nwhen = ["sgx-enclave"]	priority = 78\nwhen = ["!sgx-enclave"]
s43d2-17	data/explain/driver.toml	'''XNVCtrl\b	'''\b
s43d2-18	data/explain/driver.toml	  '''Unable to find display on any available system''',\n	
s43d2-19	data/explain/kernel-module.toml	priority = 46\ntailor = "driver"\nwhen = ["nvidia-gpu-kernel"]\n	priority = 46\ntailor = "driver"\n
s43d2-20	data/explain/kernel-module.toml	'''\b(?:nvidia|nouveau|pci) (?P<pci>	'''\b(?:nvidia\S*|nouveau|pci) (?P<pci>
s43d2-21	data/explain/kernel-module.toml	explains = ["nvidia-smi-no-devices", "kernel-module-no-device", "gpu-init-failed"]	explains = ["kernel-module-no-device", "gpu-init-failed"]
s43d2-22	src/explain/explain_machine.cpp	{"tf_cudart_stub", "tf-cudart-stub"},	{"tf_cudart_stub_", "tf-cudart-stub"},
s43d2-23	data/explain/driver.toml	If that lists no NVIDIA GPU (a VM without passthrough, a CPU-only instance), there is no NVIDIA GPU here and no driver will help: the framework runs on the CPU. If it lists one, install/load the driver	If it fails, install/load the driver
s43a2-01	src/platform/bench_history.cpp	AND name NOT IN ('runs', 'figures') ORDER BY name	AND name NOT IN ('runs', 'figures', 'moz_places') ORDER BY name
s43a2-02	src/platform/bench_history.cpp	  (void)sqlite3_exec(raw, mark.c_str(), nullptr, nullptr, nullptr);	  (void)mark;
s43a2-03	src/gpu/numpy_bench.cpp	m.check_passed = checked > 0 && wrong == 0;	m.check_passed = checked > 0;
s43a2-04	src/gpu/numpy_bench.cpp	  if (numpy == nullptr || !numpy->ok()) return;	  if (numpy == nullptr) return;
s43a2-05	src/cli/cmd_bench.cpp	        gpu::hold_sgemm_against_numpy(report);	        (void)report;
s43a2-06	src/cli/cmd_bench.cpp	->check(CLI::Range(1, 256));	->check(CLI::Range(0, 256));
s43a2-07	src/cli/cmd_watch.cpp	*end == '\0' && v > 0 ?	*end == '\0' && v >= 0 ?
s43a2-08	src/render/bench_render.cpp	if (any_claim || c.basis.starts_with("cannot measure"))	if (c.basis.starts_with("cannot measure"))
s43a2-09	src/cli/cmd_bench.cpp	a.cpu_threads > cpus)	a.cpu_threads > cpus + 1)
s43c1-01	src/probe/python/site_packages.cpp	    if (system.exists(system.join(site, lib.path))) continue;	    if (true) continue;
s43c1-02	src/probe/python/site_packages.cpp	      if (a_fits > 0 && b_fits == 0) owner = &a;	      if (a_fits > 0 && b_fits == 0) owner = &b;
s43c1-03	src/probe/framework_libraries.cpp	if (auto m = wheel_dir_cuda_major(dir)) return *m != major;	if (auto m = wheel_dir_cuda_major(dir)) return false;
s43c1-04	src/probe/library_probe.cpp	      if (!w.overwritten_by.empty()) continue;\n	
s43c1-05	src/check/compat_checks.cpp	" install --force-reinstall --no-deps \"" + wanted +	" install --force-reinstall \"" + wanted +
s43c1-06	src/check/nvidia_wheel_checks.cpp	    return pip + " install --force-reinstall --no-deps \"" + name	    return pip + " install \"" + name
s43c2-01	src/check/python_checks.cpp	if (fw.name == "jax" && !fw.conflicts.empty() && !jax_plugin_extra(env, fw).empty()) cpu_only = false;	if (false) cpu_only = false;
s43c2-02	src/check/python_checks.cpp	  if (majors.size() != 1) return std::nullopt;	  return std::nullopt;
s43c2-03	src/check/python_checks.cpp	return command(cuda->major() >= 13 ? 13 : 12)	return command(12)
s43c2-04	src/check/compat_checks.cpp	const std::optional<Version> wanted = wheels ? family : full ? full : family;	const std::optional<Version> wanted = full ? full : family;
s43c2-05	src/check/compat_checks.cpp	if (o.extra != v->extra && *drv >= jax_driver_floor(o))	if (o.extra != v->extra)
s43c2-06	src/check/compat_checks.cpp	if (!best || !best->gpu || best->fatal() || best->needs_driver_update())	if (true)
s43c2-07	src/check/compat_checks.cpp	if (c == ArchCoverage::native || c == ArchCoverage::derived) return std::nullopt;	if (c == ArchCoverage::derived) return std::nullopt;
s43c2-08	src/check/compat_checks.cpp	    if (user->major() >= cuda.major()) return std::nullopt;\n	
s43c2-09	src/check/compat_checks.cpp	if (facts_.driver.version || !user || user->parts().empty()	if (true || !user || user->parts().empty()
s43c2-10	src/check/python_checks.cpp	pip + " install \"tensorflow[and-cuda]" + pin + "\"`.";	pip + " install tensorflow[and-cuda]" + pin + "`.";
s43r-fleet-described	src/check/fleet_compare.cpp	[](const GpuFacts& g) { return !listed_from_files(g); }));	[](const GpuFacts& g) { return !g.name.empty() || true; }));
s43r-fleet-models	src/check/fleet_compare.cpp	    if (unanswered.empty() || !listed_from_files(g)) ++models[gpu_model(g)];	    ++models[gpu_model(g)];
s43r-numpy-mistyped	src/gpu/numpy_bench.cpp	return it != result.end() && it->is_number_integer() ? it->get<long long>() : absent;	return it != result.end() ? it->get<long long>() : absent;
s44-env-pip	src/check/which_pip.cpp	  if (env.interpreter.empty()) return "pip";	  if (true) return "pip";
s44-env-pip-quote	src/check/which_pip.cpp	  const bool quote = env.interpreter.find_first_of(" \t'") != std::string::npos;	  const bool quote = false;
s44-older-build-driver	src/check/compat_checks.cpp	    if (!request.driver) request.driver = driver;	    if (!request.driver && false) request.driver = driver;
s44-missing-path	src/probe/python/site_packages.cpp	    if (w.missing_files.size() < 16) w.missing_files.push_back(lib.path);	    if (w.missing_files.size() < 16) w.missing_files.push_back(lib.path.substr(lib.path.find_last_of('/') + 1));
s44-runtime-dir	src/probe/toolkit_probe.cpp	      if (!w.lib_dir.empty()) tk.path = system.parent(w.lib_dir);	
s44-jax-from	src/check/python_checks.cpp	    out += " (" + plugin + " plugin not usable)";\n  } else if	    return out + " (" + plugin + " plugin not usable)";\n  } else if
s44-history-mark	src/platform/bench_history.cpp	  if (query_int(raw, "PRAGMA application_id", unread) != std::optional<long long>(kApplicationId)) {	  if (true) {
s44-ecc-error	src/check/gpu_driver_checks.cpp	    if (g.ecc_uncorrected_volatile.value_or(0) > 0) {	    if (g.ecc_uncorrected_volatile.value_or(0) > 3) {
s44-retired	src/check/gpu_driver_checks.cpp	    if (g.retired_pages.value_or(0) > 0) {	    if (false) {
s44-user-site	src/probe/python_probe.cpp	    apply_user_site(env, user_sites);\n	
s44-user-site-fix	src/check/python_checks.cpp	  if (fw.reached_via != "PYTHONPATH" && !user_site) return;	  if (fw.reached_via != "PYTHONPATH") return;
r44b-01	src/kb/matrix_query.cpp	series.admits_released(row.truncated(2))	f.versions->admits_series(row.truncated(2))
r44b-02	src/kb/framework_request.cpp	return rs.empty() || std::find(rs.begin(), rs.end(), *pin) != rs.end();	return true;
r44b-03	src/kb/matrix_query.cpp	if (!variants.empty() && and_cuda == nullptr) continue;	if (false) continue;
r44b-04	src/kb/matrix_query.cpp	if (!keeps_variant(v.extra)) return;	if (!keeps_variant(v.extra) && false) return;
r44b-05	src/kb/matrix_query.cpp	if (arm && b.gpu && !kb.tensorflow.aarch64_cpu_only_source.empty()) continue;	
r44b-06	src/kb/knowledge_base.cpp	if (os == Platform::windows && r.python_windows) return *r.python_windows;	
r44b-07	src/kb/knowledge_base.cpp	if (os != Platform::windows && arm_host && r.python_aarch64) return *r.python_aarch64;	if (os != Platform::windows && arm_host && false) return *r.python_aarch64;
r44b-08	src/kb/resolver.cpp	const VersionSpec& python = KnowledgeBase::torch_python(r, req.os, aarch64_host(req, kb));	const VersionSpec& python = r.python;
r44b-09	src/cli/option_values.cpp	(t.back() == 't' || t.back() == 'T')	(t.back() == 'T')
r44b-10	src/kb/matrix_query.cpp	r.yanked.push_back(y.version.str());	
r44b-11	src/kb/knowledge_base.cpp	if (m.ambiguous.size() < 2 || m.ambiguous.size() > 8) m.ambiguous.clear();	m.ambiguous.clear();
r44b-12	src/kb/matrix_query.cpp	add_source(r, "archs", v.archs_source);	
r44b-13	src/kb/matrix_query.cpp	(lowest ? " (>=" + lowest->str() + ")" : std::string())	std::string()
r44b-14	src/kb/kb_loader.cpp	v.nccl = r.spec("nccl", false);	r.spec("nccl", false);
r44b-15	src/kb/kb_loader.cpp	var.nccl = r.spec("nccl", false);	r.spec("nccl", false);
r44a-01	src/gpu/verify_runner.cpp	    if (l.status == LibraryStatus::crashed || l.status == LibraryStatus::timeout)\n      report.problems	    if (l.status == LibraryStatus::timeout)\n      report.problems
r44a-02	src/gpu/verify_runner.cpp	        not_run(name, device, StepStatus::not_found, std::string(lib_words)	        not_run(name, device, StepStatus::skipped, std::string(lib_words)
r44a-03	src/gpu/framework_verify.cpp	    right = right && ratio.is_number() && ratio.get<double>() <= 1.0;	    right = right && (!ratio.is_number() || ratio.get<double>() <= 1.0);
r44a-04	src/gpu/framework_verify.cpp	            out["mixed_precision"] = {"dtype": str(h.dtype), "error": error, "ratio": ratio}\n    elif fw == "jax":	            out["mixed_precision"] = {"dtype": str(h.dtype), "error": error, "ratio": 0}\n    elif fw == "jax":
r44a-05	src/gpu/framework_verify.cpp	            if hasattr(mod, attr): setattr(mod, attr, False)	            pass
r44a-06	src/gpu/framework_verify.cpp	    bound = 2.0 * coeff * np.asarray(mag, dtype=np.float64) + 1e-30	    bound = 1e-2 + 0 * np.asarray(mag, dtype=np.float64)
r44a-07	src/render/verify_render.cpp	      what += " (" + l.path + ")";	      what += "";
r44a-08	src/platform/child_process.cpp	  tail_.append(chunk.substr(to_head));	  tail_.append(chunk.substr(to_head, 0));
r44a-09	src/gpu/verify_runner.cpp	    if (device >= 0 && wedges_gpu(step))	    if (false && wedges_gpu(step))
r44a-10	src/gpu/verify_runner.cpp	      if (auto it = pci.find(*step.device); it != pci.end()) step.pci_bus_id = it->second;	      if (auto it = pci.find(*step.device); false) step.pci_bus_id = it->second;
r44a-11	src/gpu/verify_runner.cpp	  if (options.cuda_visible_devices) {	  if (false) {
r44a-12	src/gpu/framework_verify.cpp	  facts.cpu_fallback = !on_gpu;	  facts.cpu_fallback = false;
r44a-13	src/render/verify_render.cpp	    return std::string(\n        env.substr(before	    return "python";\n    return std::string(\n        env.substr(before
r44a-14	src/cli/cmd_verify.cpp	                       (dropped > 0 ? " (" + std::to_string(dropped) + " bytes from its middle not kept)" : "") +	                       (dropped > 0 ? std::string() : std::string()) +
r44a-15	src/platform/child_process.cpp	  if (dropped_ > 0 && whole_line) trim(nl + 1);  // at least the byte the separator takes: never over 2 * half	  // no trim
s44r-nousersite	src/probe/python_probe.cpp	 &&\n                             system_.env("PYTHONNOUSERSITE").value_or("").empty();	;
s44r-cpu-fallback	src/gpu/framework_verify.cpp	  facts.cpu_fallback = !on_gpu;	  facts.cpu_fallback = !on_gpu && right;
s44r-posix-quote	src/check/which_pip.cpp	    if (plain) return env.interpreter + " -m pip";	    if (plain || true) return env.interpreter + " -m pip";
s45-pip-cpu-torch	src/check/python_checks.cpp	  const std::string pip = fresh ? "pip" : env_pip(env);	  const std::string pip = "pip";
s45-pip-tf-and-cuda	src/check/compat_checks.cpp	"Reinstall with the matching CUDA libraries: " + env_pip(env) +	"Reinstall with the matching CUDA libraries: " + std::string("pip") +
s45-pip-companion	src/check/tensorflow_companion_checks.cpp	      pip_ = env_pip(env);\n	      pip_ = "pip";\n
s45-pip-bare-only	src/check/which_pip.cpp	if (word && !(at >= 3 && text.substr(at - 3, 3) == "-m ")) return true;	if (word) return true;
s45-pip-ort	src/check/onnxruntime_fix.cpp	return pip + " install \"onnxruntime-gpu[cuda,cudnn]=="	return "pip install \"onnxruntime-gpu[cuda,cudnn]=="
s45-pip-companion-torch	src/check/compat_checks.cpp	                           env_pip(env) + " install " + pin +	                           std::string("pip install ") + pin +
s45-pip-of-folder	src/check/compat_checks.cpp	    return holder != nullptr ? env_pip(*holder) : "pip";	    return "pip";
s45v-01	src/gpu/verify_runner.cpp	if (seen <= cuda_count) {	if (seen <= cuda_count + 1) {
s45v-02	src/gpu/verify_runner.cpp	if (cuda_visible_devices) {	if (false) {
s45v-03	src/gpu/verify_runner.cpp	d.pci_bus_id.starts_with(bus)	!d.pci_bus_id.starts_with(bus)
s45v-04	src/gpu/isolated_child.cpp	r.outcome.diagnostics = r.diagnostics.text(true);	r.outcome.diagnostics = r.diagnostics.text(false);
s45v-05	src/core/text.cpp	return printable(s.substr(0, half), half) + " … " + printable(s.substr(from), half);	return printable(s, max_len);
s45v-06	src/core/text.cpp	== 0x80) ++from;	== 0x80) break;
s45v-07	src/platform/child_process.cpp	if (marked) between +=	if (marked && false) between +=
s45v-08	src/gpu/verify_steps.cpp	printable_ends(trim(outcome.diagnostics), 400)	printable(trim(outcome.diagnostics), 400)
s45v-09	src/gpu/verify_runner.cpp	if (cuda_shows_mig) {	if (cuda_shows_mig && false) {
s45p-01	src/model/plan.cpp	return i.id == "driver-too-old" || i.id == "driver-drops-gpu"; }	return i.id == "driver-too-old"; }
s45p-02	src/render/plan_script.cpp	(below ? " || [ \"${drv%%.*}\" -ge " + ceiling + " ]" : "")	std::string()
s45p-03	src/kb/resolver.cpp	if (first && top && *top <= *first && !fr.spec->contains(*first)) {	if (false) {
s45p-04	src/kb/resolver.cpp	o.install_spec = b.package + "==" + series_text(b.version) + ".*";	o.install_spec = "tensorflow==" + series_text(b.version) + ".*";
s45p-05	src/kb/resolver.cpp	(before_21 ? "experimental." : "")	(before_21 && false ? "experimental." : "")
s45p-06	src/kb/resolver.cpp	if (assumed || c == ArchCoverage::derived) {	if ((assumed || c == ArchCoverage::derived) && false) {
s45p-07	src/cli/option_values.cpp	!dotted_numbers(t, 2, 3, 2, true) ||	
s45p-08	src/cli/option_values.cpp	!dotted_numbers(t, 1, 3, 3, false) ||	
s45p-09	src/kb/resolver.cpp	return i.unverified && i.id != "gpu-arch-list-assumed";	return i.unverified;
s45p-10	src/kb/resolver.cpp	branch && o.driver_min->major() < branch->major ? std::string() : " >= " + o.driver_min->str();	" >= " + o.driver_min->str();
s45p-11	src/kb/resolver.cpp	`Set-ExecutionPolicy -Scope CurrentUser RemoteSigned`.";	`Set-ExecutionPolicy`.";
s45p-12	src/cli/cmd_plan.cpp	if (!g.root.empty() && describing)	if (!g.root.empty() && describing && false)
s45w-01	src/platform/system_view.cpp	return utf16le_to_utf8(bytes.substr(2));	return std::string(bytes.substr(2));
s45w-02	src/platform/system_view.cpp	if (bytes.size() >= 2 && bytes[0] != 	if (false && bytes[0] != 
s45w-03	src/check/windows_checks.cpp	[Environment]::GetEnvironmentVariable('Path', 'User') + "	$env:Path + "
s45w-04	src/probe/windows_dll_search.cpp	if (chars > kMaxWindowsVariableChars) {	if (path_.size() >= 256) {
s45w-05	src/probe/windows_dll_search.cpp	l.wrong_machine = wrong_machine(p);	
s45w-06	src/probe/windows_dll_search.cpp	if (machine.empty()) continue;	continue;
s45w-07	src/probe/driver_files_probe.cpp	if (facts.platform == Platform::wsl2 && facts.driver.version) {	if (false) {
s45w-08	src/check/gpu_driver_checks.cpp	const bool definite = os.wsl_ldconfig_off || facts.live;	const bool definite = facts.live;
s45w-09	src/probe/library_dirs.cpp	if (std::any_of(conf.begin(), conf.end(), is_wsl)) return "ld.so.conf";	
s45w-10	src/platform/logon_environment.cpp	path += (path.empty() || path.ends_with(';') ? "" : ";") + value;	path = value;
s45w-11	src/probe/library_probe.cpp	conda_bins.contains(lower) ? "conda"	false ? "conda"
s45w-12	src/probe/windows_probe.cpp	w.path_unknown = native && !system.is_live() && !system.env("PATH");	w.path_unknown = false;
s45-distro-fresh	src/check/python_checks.cpp	  std::string fix = cpu_only_fix(env, fw, facts, true);	  std::string fix = cpu_only_fix(env, fw, facts, false);
s45-innermost	src/check/compat_checks.cpp	(holder == nullptr || n > holder->path.size())	(holder == nullptr)
s45-wsl2-driver-unknown	src/check/gpu_driver_checks.cpp	if ((windows || wsl2) && !d.version && found(libcuda)) {	if (windows && !d.version && found(libcuda)) {
s45-floor-warning	src/check/gpu_driver_checks.cpp	floors_unchecked.empty() ? Severity::info : Severity::warning	Severity::info
s45-cvd-indices	src/gpu/verify_runner.cpp	if (indices && static_cast<int>(named.size()) > cuda_count) {	if (false && indices && static_cast<int>(named.size()) > cuda_count) {
s45-32bit-replace	src/check/windows_checks.cpp	    if (!wrong.empty()) {	    if (false && !wrong.empty()) {
s45-cudnn917-wheel-sass	data/compat/cudnn.toml	cc = ["5.0", "6.0", "6.1", "7.0", "7.5", "8.0", "8.6", "9.0", "10.0", "10.3", "12.0", "12.1"]\nnote = "cc: the SASS in libcudnn_engines_precompiled.so.9 of 9.17.1.4 (arch-specific SASS 9.0a; PTX 12.1). The support matrix	cc = ["7.5", "8.0", "8.6", "8.9", "9.0", "10.0", "12.0"]\nnote = "cc: the SASS in libcudnn_engines_precompiled.so.9 of 9.17.1.4 (arch-specific SASS 9.0a; PTX 12.1). The support matrix
EOF
}

apply() {  # apply FILE OLD NEW (escaped newlines) -> 0 applied, 3 stale
  python3 - "$1" "$2" "$3" <<'PY'
import sys
path, old, new = sys.argv[1], sys.argv[2], sys.argv[3]
unesc = lambda s: s.replace("\\n", "\n")
old, new = unesc(old), unesc(new)
text = open(path, encoding="utf-8").read()
if text.count(old) != 1:
    sys.exit(3)
open(path, "w", encoding="utf-8").write(text.replace(old, new))
PY
}

scratch="$(mktemp -d /tmp/gpudoctor-mutation.XXXXXX)"
if [ "$keep" = 0 ]; then trap 'rm -rf "$scratch"' EXIT; else echo "scratch copy: $scratch"; fi
# The tree as it is in this checkout (tracked and untracked, not ignored), never the build.
git ls-files -z -co --exclude-standard | tar --null --no-recursion -T - -cf - | tar -xf - -C "$scratch"
cd "$scratch" || exit 1
export CCACHE_BASEDIR="$scratch"
log="$scratch/mutation.log"
build() { cmake --preset dev >/dev/null 2>&1 && cmake --build --preset dev -j"$jobs" >>"$log" 2>&1; }
tests() { ctest --preset dev -LE 'slow|wheels' -j"$jobs" --stop-on-failure >>"$log" 2>&1; }

echo "baseline: building and testing the unmutated copy in $scratch"
if ! build; then echo "baseline build FAILED; see $log"; exit 1; fi
if ! tests; then echo "baseline tests FAILED; fix them first ($log)"; exit 1; fi

total=0 caught=0 stale=0 unbuilt=0
survivors=()
while IFS=$'\t' read -r id file old new; do
  [ -n "$id" ] || continue
  if [ "${#only[@]}" -gt 0 ] && [[ ! " ${only[*]} " =~ \ $id\  ]]; then continue; fi
  cp -p "$file" "$file.orig"
  apply "$file" "$old" "$new"
  rc=$?
  if [ "$rc" != 0 ]; then
    echo "STALE    $id ($file: the text is not there exactly once)"
    stale=$((stale + 1))
    mv "$file.orig" "$file"
    continue
  fi
  start=$SECONDS
  echo "=== $id" >>"$log"
  if ! build; then
    verdict="NO-BUILD"
    unbuilt=$((unbuilt + 1))
  elif ! tests; then
    verdict="caught"
    total=$((total + 1)) caught=$((caught + 1))
  else
    verdict="SURVIVED"
    total=$((total + 1))
    survivors+=("$id")
  fi
  printf '%-9s %-36s %s (%ds)\n' "$verdict" "$id" "$file" $((SECONDS - start))
  mv "$file.orig" "$file"
  touch "$file"  # the next build recompiles it from the original
done < <(mutations)

echo
echo "mutation score: $caught/$total caught ($((total ? caught * 100 / total : 0))%), $unbuilt did not build (not scored), $stale stale"
[ "${#survivors[@]}" -eq 0 ] || echo "survivors: ${survivors[*]}"
[ "$stale" -eq 0 ] && [ "$unbuilt" -eq 0 ]
