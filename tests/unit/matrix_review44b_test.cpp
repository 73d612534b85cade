#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "cli/option_values.hpp"
#include "kb/knowledge_base.hpp"
#include "kb/matrix_query.hpp"
#include "kb_test_support.hpp"
#include "render/matrix_render.hpp"
#include "run_gpudoctor.hpp"

/// Review 44B of `gpudoctor matrix` and the rows behind it, against the releases on PyPI: each
/// test runs the reviewer's command through the real binary (2026-12-07).
namespace {

using gpudoctor::testing::RunResult;
using nlohmann::json;

RunResult run(const std::string& args) {
  return gpudoctor::testing::run_gpudoctor_shell(args + " 2>&1");
}

/// The framework rows of `--json matrix ARGS` (exit 0 expected).
json rows(const std::string& args) {
  RunResult r = run("--json matrix " + args);
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.out;
  json j = json::parse(r.out, nullptr, false);
  return j.is_object() ? j["frameworks"] : json::array();
}

/// A row's per-fact source ("" when absent, as in a binary from before they were shown).
std::string fact_source(const json& row, const char* fact) {
  json facts = row.value("fact_sources", json::object());
  return facts.is_object() ? facts.value(fact, std::string()) : std::string();
}

bool has_version(const json& rs, const std::string& version, const std::string& os = "") {
  for (const json& r : rs) {
    if (r["version"] == version && (os.empty() || r["os"].get<std::string>().find(os) != std::string::npos)) {
      return true;
    }
  }
  return false;
}

// 01: the cuda12 plugin is a CUDA 12 build (its with-cuda extra requires nvidia-cuda-runtime-cu12):
// `--cuda 13` kept all ten cuda12 rows, and `--cuda 99` every JAX row.
TEST(MatrixReview44b, JaxRowsStayInTheirCudaMajor) {
  json thirteen = rows("--cuda 13 --framework jax");
  ASSERT_FALSE(thirteen.empty());
  for (const json& r : thirteen) EXPECT_EQ(r["variant"], "cuda13") << r.dump();
  EXPECT_TRUE(rows("--cuda 13.1 --framework jax").size() == thirteen.size());
  EXPECT_TRUE(rows("--cuda 99").empty());
  // The near miss: CUDA 12 keeps the cuda12 rows, and the note says the major.
  json twelve = rows("--cuda 12 --framework jax");
  ASSERT_FALSE(twelve.empty());
  for (const json& r : twelve) {
    EXPECT_EQ(r["variant"], "cuda12") << r.dump();
    EXPECT_NE(r["note"].get<std::string>().find("runs with CUDA 12.x (>=12.1)"), std::string::npos) << r.dump();
  }
}

// 02: matrix read `torch>2.5,<2.6` as nothing and `torch==2.5.7` (never released) as 2.5; it reads
// the request as plan does now.
TEST(MatrixReview44b, FrameworkRangesAreReadAsPlanReadsThem) {
  json gt = rows("--framework 'torch>2.5,<2.6'");
  ASSERT_FALSE(gt.empty());
  for (const json& r : gt) EXPECT_EQ(r["version"], "2.5") << r.dump();
  EXPECT_TRUE(rows("--framework 'torch==2.5.7'").empty());
  EXPECT_TRUE(rows("--framework 'torch>=2.5.3,<2.6'").empty());
  json ne = rows("--framework 'torch!=2.15.0'");
  EXPECT_FALSE(has_version(ne, "2.15"));
  EXPECT_TRUE(has_version(ne, "2.14"));
  // Near misses: a published pin, and a series pin, keep the series.
  EXPECT_TRUE(has_version(rows("--framework 'torch==2.5.1'"), "2.5"));
  EXPECT_TRUE(has_version(rows("--framework 'torch==2.5'"), "2.5"));
  // plan agrees: the same request, the same series.
  RunResult p = run("--gpu 'RTX 4090' plan --os linux --framework 'torch>2.5,<2.6'");
  EXPECT_NE(p.out.find("PyTorch 2.5"), std::string::npos) << p.out;
}

// 06: the extra of the request is part of it, in matrix as in plan.
TEST(MatrixReview44b, ExtrasKeepTheirVariant) {
  json all = rows("--framework jax");
  json c13 = rows("--framework 'jax[cuda13]'");
  ASSERT_FALSE(c13.empty());
  EXPECT_LT(c13.size(), all.size());
  for (const json& r : c13) EXPECT_EQ(r["variant"], "cuda13") << r.dump();
  EXPECT_EQ(rows("--framework 'jax[cuda13-local]'").size(), c13.size());
  for (const json& r : rows("--framework 'jax[CUDA12]'")) EXPECT_EQ(r["variant"], "cuda12") << r.dump();
  // No NVIDIA GPU build: no row.
  EXPECT_TRUE(rows("--framework 'jax[cpu]'").empty());
  // tensorflow[and-cuda]: its Linux builds only; the Windows CPU-only 2.15 row is not one.
  json ac = rows("--framework 'tensorflow[and-cuda]==2.15'");
  ASSERT_EQ(ac.size(), 1u) << ac.dump();
  EXPECT_EQ(ac[0]["os"], "linux");
  EXPECT_TRUE(has_version(rows("--framework 'tensorflow==2.15'"), "2.15", "windows"));  // near miss
  EXPECT_TRUE(rows("--framework 'tensorflow[and-cuda]==2.13'").empty());                // the extra came with 2.14
  // torch's extras do not choose its CUDA build: every row.
  EXPECT_EQ(rows("--framework 'torch[opt-einsum]'").size(), rows("--framework torch").size());
}

// 07: GH200/GB200 come with an Arm host, whose TensorFlow wheels are CPU-only builds.
TEST(MatrixReview44b, ArmHostGetsNoTensorflowGpuRows) {
  EXPECT_TRUE(rows("--framework tensorflow").size() > 20);
  for (const char* gpu : {"GH200", "GB200"}) {
    RunResult r = run(std::string("--json --gpu ") + gpu + " matrix --framework tensorflow");
    EXPECT_EQ(r.exit_code, 0) << r.out;
    EXPECT_TRUE(json::parse(r.out)["frameworks"].empty()) << gpu << "\n" << r.out;
    // PyTorch has aarch64 CUDA wheels: kept.
    RunResult t = run(std::string("--json --gpu ") + gpu + " matrix --framework pytorch");
    EXPECT_FALSE(json::parse(t.out)["frameworks"].empty()) << gpu;
  }
  // The near miss: the x86 Hopper keeps its TensorFlow rows.
  RunResult h = run("--json --gpu H100 matrix --framework tensorflow");
  EXPECT_FALSE(json::parse(h.out)["frameworks"].empty());
}

// 03: torch 2.5 has cp313 wheels for Linux x86_64 only (PyPI: win_amd64 and aarch64 end at cp312).
TEST(MatrixReview44b, TorchPythonRangeIsThePlatformsOwn) {
  json win = rows("--framework pytorch --os windows --python 3.13");
  EXPECT_FALSE(has_version(win, "2.5")) << win.dump();
  EXPECT_TRUE(has_version(win, "2.6"));
  EXPECT_TRUE(has_version(rows("--framework pytorch --os windows --python 3.12"), "2.5"));  // near miss
  json linux = rows("--framework pytorch --os linux --python 3.13");
  ASSERT_TRUE(has_version(linux, "2.5"));
  for (const json& r : linux) {
    if (r["version"] == "2.5") EXPECT_EQ(r["os"], "linux,wsl2") << r.dump();
  }
  // Without --python every platform, the others' range said.
  for (const json& r : rows("--framework 'torch==2.5.1'")) {
    EXPECT_EQ(r["os"], "linux,windows,wsl2");
    EXPECT_NE(r["note"].get<std::string>().find("windows wheels: Python >=3.9,<=3.12"), std::string::npos) << r.dump();
  }
  // An Arm host gets the aarch64 wheels.
  RunResult gh = run("--json --gpu GH200 matrix --framework pytorch --python 3.13");
  EXPECT_FALSE(has_version(json::parse(gh.out)["frameworks"], "2.5")) << gh.out;
  // plan reads the same range: 3.13 on Windows is outside 2.5's.
  RunResult p = run("--json --gpu 'RTX 4090' plan --os windows --python 3.13 --framework 'torch==2.5.1'");
  EXPECT_NE(p.out.find("python-outside-range"), std::string::npos) << p.out;
  RunResult q = run("--json --gpu 'RTX 4090' plan --os linux --python 3.13 --framework 'torch==2.5.1'");
  EXPECT_EQ(q.out.find("python-outside-range"), std::string::npos) << q.out;
}

// 04: TensorFlow 1.15 and 2.0 have wheels for 2.7 and 3.5-3.7 only.
TEST(MatrixReview44b, OldTensorflowPythonFromTheWheels) {
  EXPECT_TRUE(rows("--framework tensorflow --python 3.4").empty());
  EXPECT_TRUE(rows("--framework tensorflow --python 3.3").empty());
  json p35 = rows("--framework tensorflow --python 3.5");
  EXPECT_TRUE(has_version(p35, "1.15", "linux"));
  EXPECT_TRUE(has_version(p35, "2.0", "linux"));
  EXPECT_TRUE(has_version(rows("--framework tensorflow --python 2.7"), "1.15", "linux"));
}

// 05: a free-threaded Python was read as the regular one.
TEST(MatrixReview44b, FreeThreadedPythonIsRefused) {
  for (const char* cmd :
       {"matrix --python 3.13t --framework tensorflow", "matrix --python 3.10t", "plan --os linux --python 3.14t"}) {
    RunResult r = run(cmd);
    EXPECT_EQ(r.exit_code, 2) << cmd << "\n" << r.out;
    EXPECT_NE(r.out.find("free-threaded"), std::string::npos) << r.out;
  }
  EXPECT_EQ(run("matrix --python 3.13 --framework tensorflow").exit_code, 0);  // near miss
}

// 13: jax 0.4.32 is yanked on PyPI; plan warned, matrix did not.
TEST(MatrixReview44b, YankedReleaseIsMarked) {
  json r = rows("--framework 'jax==0.4.32'");
  ASSERT_EQ(r.size(), 1u) << r.dump();
  EXPECT_EQ(r[0].value("yanked", json()), json::array({"0.4.32"}));
  EXPECT_NE(r[0]["note"].get<std::string>().find("0.4.32 yanked on PyPI"), std::string::npos);
  RunResult t = run("matrix --framework 'jax==0.4.32'");
  EXPECT_NE(t.out.find("0.4.32 yanked on PyPI"), std::string::npos) << t.out;
  json clean = rows("--framework 'jax==0.4.30'");
  ASSERT_FALSE(clean.empty());
  EXPECT_TRUE(clean[0].contains("yanked") && clean[0]["yanked"].empty());  // near miss
}

// 10: "RTX 6000" fits Quadro RTX 6000 (7.5), RTX 6000 Ada (8.9) and RTX PRO 6000 (12.0).
TEST(MatrixReview44b, AnAmbiguousGpuNameIsSaidAsOne) {
  RunResult r = run("--gpu 'RTX 6000' matrix");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("'RTX 6000' is ambiguous"), std::string::npos) << r.out.substr(0, 400);
  EXPECT_NE(r.out.find("Quadro RTX 6000"), std::string::npos);
  EXPECT_NE(r.out.find("NVIDIA RTX 6000 Ada Generation"), std::string::npos);
  RunResult j = run("--json --gpu 'RTX 6000' matrix");
  json amb = json::parse(j.out)["gpu"].value("ambiguous", json::array());
  EXPECT_GE(amb.size(), 2u);
  EXPECT_EQ(json::parse(j.out)["gpu"]["suggestions"][0], amb[0]);
  RunResult p = run("--gpu 'RTX 6000' plan --os linux --framework pytorch");
  EXPECT_NE(p.out.find("is ambiguous (Quadro RTX 6000"), std::string::npos) << p.out;
  // Near misses: a misspelt name is unknown, not ambiguous; the full name matches.
  RunResult tie = run("--gpu 'RTX 3060 Tie' matrix --framework pytorch");
  EXPECT_EQ(tie.out.find("ambiguous"), std::string::npos);
  EXPECT_NE(tie.out.find("is not in the knowledge base"), std::string::npos);
  EXPECT_EQ(run("--gpu 'Quadro RTX 6000' matrix --framework pytorch").exit_code, 0);
}

// 08: --sources showed one source per row; the per-fact sources the tables keep are shown.
TEST(MatrixReview44b, SourcesShowWhereEachFactWasRead) {
  json torch = rows("--framework 'torch>=2.14'");
  bool saw130 = false, saw214 = false;
  for (const json& r : torch) {
    if (r["version"] == "2.15" && r["variant"] == "cu130") {
      saw130 = true;
      EXPECT_NE(fact_source(r, "archs").find("compatibility.md section 7a"), std::string::npos) << r.dump();
      EXPECT_NE(r["source"].get<std::string>().find("cu130 variant was not read from it"), std::string::npos);
    }
    if (r["version"] == "2.14" && r["variant"] == "cu130") {
      saw214 = true;
      EXPECT_NE(fact_source(r, "python").find("PyPI torch-2.14.0 wheel files"), std::string::npos) << r.dump();
      EXPECT_FALSE(fact_source(r, "archs").empty()) << r.dump();
    }
  }
  EXPECT_TRUE(saw130 && saw214);
  json tf = rows("--framework 'tensorflow==2.21' --os linux");
  ASSERT_EQ(tf.size(), 1u);
  EXPECT_NE(fact_source(tf[0], "archs").find("build_info.py"), std::string::npos);
  RunResult t = run("matrix --framework 'torch==2.15.0' --sources");
  EXPECT_NE(t.out.find("| archs: [3rd] shared/facts/compatibility.md"), std::string::npos) << t.out;
  // The near miss: a row whose facts all come from its own source has none listed.
  json j = rows("--framework 'tensorflow==2.5' --os windows");
  ASSERT_EQ(j.size(), 1u);
  EXPECT_TRUE(j[0].value("fact_sources", json::array({1})).empty()) << j.dump();
}

// 12: the NCCL the tables hold: each JAX plugin's with-cuda extra, TensorFlow's [and-cuda] pin.
TEST(MatrixReview44b, NcclOfTheBuildsTheTablesHold) {
  for (const json& r : rows("--framework jax")) {
    EXPECT_EQ(r.value("nccl", json()), r["variant"] == "cuda13" ? ">=2.27.7" : ">=2.18.1") << r.dump();
  }
  json tf = rows("--framework 'tensorflow==2.19' --os linux");
  ASSERT_EQ(tf.size(), 1u);
  EXPECT_EQ(tf[0].value("nccl", json()), "==2.23.4");
  json tf213 = rows("--framework 'tensorflow==2.13' --os linux");
  ASSERT_EQ(tf213.size(), 1u);
  EXPECT_TRUE(tf213[0].contains("nccl") && tf213[0]["nccl"].is_null());  // no [and-cuda]
  // PyTorch: the pin of PyPI's default variant, read from its wheel's METADATA; the other
  // variants' wheels (download.pytorch.org) were not read.
  for (const json& r : rows("--framework 'torch==2.15.0'")) {
    EXPECT_EQ(r.value("nccl", json()), r["variant"] == "cu132" ? json("==2.30.7") : json()) << r.dump();
  }
  for (const json& r : rows("--framework 'torch==2.0.1'")) {
    if (r["variant"] == "cu117") EXPECT_EQ(r.value("nccl", json()), "==2.14.3") << r.dump();
  }
}

// 09: TensorFlow 2.13 has win_amd64 wheels (cp38-cp311), a CPU-only build like every Windows
// release after 2.10.
TEST(MatrixReview44b, Tensorflow213OnWindowsFromItsWheels) {
  json w = rows("--framework 'tensorflow==2.13' --os windows");
  ASSERT_EQ(w.size(), 1u) << w.dump();
  EXPECT_EQ(w[0]["python"], "3.8-3.11");
  EXPECT_FALSE(w[0]["gpu_build"]);
  EXPECT_TRUE(has_version(rows("--os windows --python 3.11 --framework tensorflow"), "2.13"));
}

// 14: tensorflow 2.14's [and-cuda] pins are the 11 requirements of its METADATA.
TEST(MatrixReview44b, AndCuda214PinsAreTheWheelsEleven) {
  const gpudoctor::TfAndCuda* ac = gpudoctor::testing::kb().tf_and_cuda(gpudoctor::testing::v("2.14"));
  ASSERT_NE(ac, nullptr);
  EXPECT_EQ(ac->pins.size(), 11u);
  EXPECT_NE(std::find(ac->pins.begin(), ac->pins.end(), "nvidia-cuda-runtime-cu11==11.8.89"), ac->pins.end());
}

// The same gates through the query the binary runs (kb/matrix_query.hpp), so the unit tests
// alone see each of them.
using gpudoctor::Framework;
using gpudoctor::MatrixFilter;
using gpudoctor::MatrixRow;
using gpudoctor::Platform;
using gpudoctor::VersionSpec;
using gpudoctor::testing::kb;
using gpudoctor::testing::v;

std::vector<MatrixRow> query(const MatrixFilter& f) {
  return gpudoctor::matrix_framework_rows(kb(), f);
}

MatrixFilter of(Framework fw, const char* range = nullptr, std::vector<std::string> extras = {}) {
  MatrixFilter f;
  f.framework = fw;
  if (range != nullptr) f.versions = VersionSpec::parse_requirement(range);
  f.extras = std::move(extras);
  return f;
}

bool any_version(const std::vector<MatrixRow>& rs, const std::string& version) {
  return std::any_of(rs.begin(), rs.end(), [&](const MatrixRow& r) { return r.version == version; });
}

TEST(MatrixReview44bQuery, RangesPinsAndExtras) {
  EXPECT_TRUE(any_version(query(of(Framework::pytorch, ">2.5,<2.6")), "2.5"));
  EXPECT_TRUE(query(of(Framework::pytorch, "==2.5.7")).empty());
  EXPECT_TRUE(any_version(query(of(Framework::pytorch, "==2.5.1")), "2.5"));
  auto c13 = query(of(Framework::jax, nullptr, {"cuda13"}));
  ASSERT_FALSE(c13.empty());
  for (const MatrixRow& r : c13) EXPECT_EQ(r.variant, "cuda13");
  EXPECT_LT(c13.size(), query(of(Framework::jax)).size());
  auto ac = query(of(Framework::tensorflow, "==2.15", {"and-cuda"}));
  ASSERT_EQ(ac.size(), 1u);
  EXPECT_EQ(ac[0].os, "linux");
}

TEST(MatrixReview44bQuery, PlatformsAndHosts) {
  MatrixFilter f = of(Framework::tensorflow);
  f.gpu_name = "GH200";
  f.cc = v("9.0");
  EXPECT_TRUE(query(f).empty());
  f.gpu_name = "H100";
  EXPECT_FALSE(query(f).empty());
  MatrixFilter t = of(Framework::pytorch);
  t.python = v("3.13");
  t.os = Platform::windows;
  EXPECT_FALSE(any_version(query(t), "2.5"));
  t.os = Platform::linux;
  EXPECT_TRUE(any_version(query(t), "2.5"));
  t.gpu_name = "GH200";
  t.cc = v("9.0");
  EXPECT_FALSE(any_version(query(t), "2.5"));
  // plan's Python range is the platform's too.
  gpudoctor::PlanRequest req;
  req.os = Platform::windows;
  req.gpu_name = "RTX 4090";
  req.python = v("3.13");
  req.frameworks.push_back(*gpudoctor::parse_framework_request("torch==2.5.1"));
  gpudoctor::Plan p = gpudoctor::resolve(req, kb());
  ASSERT_FALSE(p.frameworks.empty());
  ASSERT_TRUE(p.frameworks[0].best.has_value());
  EXPECT_TRUE(p.frameworks[0].best->python_change);
  req.os = Platform::linux;
  EXPECT_FALSE(gpudoctor::resolve(req, kb()).frameworks[0].best->python_change);
}

TEST(MatrixReview44bQuery, RowFacts) {
  auto j13 = query(of(Framework::jax, nullptr, {"cuda13"}));
  ASSERT_FALSE(j13.empty());
  EXPECT_EQ(j13[0].nccl, ">=2.27.7");
  for (const MatrixRow& r : query(of(Framework::pytorch, "==2.5.1"))) {
    EXPECT_EQ(r.nccl, r.variant == "cu124" ? "==2.21.5" : "") << r.variant;
  }
  EXPECT_NE(j13[0].note.find("runs with CUDA 13.x (>=13.0)"), std::string::npos) << j13[0].note;
  auto y = query(of(Framework::jax, "==0.4.32"));
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0].yanked, std::vector<std::string>{"0.4.32"});
  bool archs = false;
  for (const MatrixRow& r : query(of(Framework::pytorch, "==2.14.1"))) {
    for (const auto& [fact, src] : r.fact_sources)
      archs = archs || (fact == "archs" && src.find("cuobjdump") != std::string::npos);
  }
  EXPECT_TRUE(archs);
  MatrixFilter cuda = of(Framework::jax);
  cuda.cuda = v("13");
  for (const MatrixRow& r : query(cuda)) EXPECT_EQ(r.variant, "cuda13");
}

TEST(MatrixReview44bQuery, AmbiguousNamesAndFreeThreadedPython) {
  gpudoctor::GpuMatch m = kb().find_gpu("RTX 6000");
  EXPECT_EQ(m.model, nullptr);
  ASSERT_GE(m.ambiguous.size(), 2u);
  EXPECT_EQ(m.ambiguous[0], "Quadro RTX 6000");
  EXPECT_TRUE(kb().find_gpu("RTX 3060 Tie").ambiguous.empty());
  EXPECT_TRUE(kb().find_gpu("RTX").ambiguous.empty());  // a word of dozens of models, not ambiguous
  EXPECT_FALSE(gpudoctor::parse_python_option("3.13t").has_value());
  EXPECT_FALSE(gpudoctor::parse_python_option("3.14T").has_value());
  EXPECT_TRUE(gpudoctor::parse_python_option("3.13").has_value());
}

}  // namespace
