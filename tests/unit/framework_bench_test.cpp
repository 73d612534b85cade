// bench --framework's reading of what the interpreter wrote (gpu/framework_bench.hpp), on
// recorded outputs, and the claims that follow (model/bench_report.hpp): images per second from
// the step times, a loss that does not fall or is not a number failing the figure, one figure's
// error staying with it, a timeout, and scaling said as "cannot measure: one GPU" on one GPU.
#include "gpu/framework_bench.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "model/bench_report.hpp"
#include "model/json_codec.hpp"
#include "render/bench_render.hpp"
#include "run_gpudoctor.hpp"
#include "test_files.hpp"

namespace gpudoctor::gpu {
namespace {

const FrameworkTarget kBenchTarget{.framework = "pytorch", .env = "/venv", .interpreter = "/venv/bin/python"};

Result<ProcessOutput> bench_printed(const std::string& json_line, int status = 0) {
  return ProcessOutput{.exit_code = status, .out = "noise\nGPUDOCTOR-RESULT " + json_line + "\n", .err = "warn\n"};
}

const BenchMeasurement* by_key(const FrameworkBenchRun& run, const std::string& key) {
  for (const auto& m : run.measurements) {
    if (m.key == key) return &m;
  }
  return nullptr;
}

TEST(FrameworkBench, QuickIsASmallerModelAndTheConfigReachesTheScript) {
  EXPECT_EQ(framework_bench_config("quick").model, "resnet18");
  EXPECT_EQ(framework_bench_config("default").model, "resnet50");
  EXPECT_EQ(framework_bench_config("default").image, 224);
  auto j = nlohmann::json::parse(framework_bench_config_json(framework_bench_config("full")));
  EXPECT_EQ(j["gpu_batch"], 128);
  EXPECT_EQ(j["model"], "resnet50");
  // The script's own reading of its argument and its result line.
  std::string script = framework_bench_script();
  EXPECT_NE(script.find("json.loads(sys.argv[2])"), std::string::npos);
  EXPECT_NE(script.find("GPUDOCTOR-RESULT "), std::string::npos);
}

// On an H200 at batch 64, PyTorch's BF16 ResNet-50 step ran 0.89x to 1.22x of FP32 (2026-12-04):
// the card finished each batch before Python had the next one ready. The script scales the GPU
// batch with the memory the framework may use, unless the batch was given. Run with python3 on
// the script's own definitions (no framework needed).
/// Runs the script's definitions (everything before it dispatches on the framework) followed by
/// `checks`, a Python snippet that asserts and prints "checked" at its end.
testing::RunResult run_script_checks(const std::string& checks, const std::string& test_config = "") {
  std::string script = framework_bench_script();
  const size_t dispatch = script.find("try:\n    {\"pytorch\"");
  EXPECT_NE(dispatch, std::string::npos);
  auto dir = testing::scratch_dir_for_test("gpudoctor-script");
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "script.py") << script.substr(0, dispatch) << checks;
  FrameworkBenchConfig c = framework_bench_config("default");
  c.test_config = test_config;
  auto config = framework_bench_config_json(c);
  auto r = testing::run_shell(
      "python3 " + testing::shell_quote((dir / "script.py").string()) + " pytorch " + testing::shell_quote(config),
      std::chrono::seconds(60));
  std::filesystem::remove_all(dir);
  return r;
}

TEST(FrameworkBench, TheGpuBatchGrowsWithTheCardUnlessItWasGiven) {
  auto r = run_script_checks(R"PY(
GiB = 2**30
def scaled(memory, given=False):
    cfg["gpu_batch"], cfg["gpu_batch_scaled"] = 64, not given
    words = scale_gpu_batch(memory, "GPU memory")
    return cfg["gpu_batch"], words
print(scaled(140 * GiB))
assert scaled(140 * GiB)[0] == 256, scaled(140 * GiB)
assert "batch 4x the default for 140 GiB of GPU memory" in scaled(140 * GiB)[1]
assert scaled(80 * GiB)[0] == 256 and scaled(40 * GiB)[0] == 128 and scaled(24 * GiB)[0] == 128
assert scaled(16 * GiB) == (64, ""), scaled(16 * GiB)
assert scaled(None) == (64, "") and scaled(0) == (64, "")
assert scaled(140 * GiB, given=True) == (64, "")
print("checked")
)PY");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("checked"), std::string::npos) << r.out << r.err;
  EXPECT_TRUE(nlohmann::json::parse(framework_bench_config_json(framework_bench_config("default")))["gpu_batch_scaled"]
                  .get<bool>());
}

// ResNet-50 at the default batch does not fit every card. A single-GPU figure whose step runs out
// of memory, in any framework's words, is tried at half the batch (down to 4), which the later
// figures keep and the figure's batch (the images per second) follows; any other error, or a
// figure whose batch is not the per-GPU one, is that figure's failure at once.
TEST(FrameworkBench, AStepThatRunsOutOfGpuMemoryIsTriedAtHalfTheBatch) {
  auto r = run_script_checks(R"PY(
class OutOfMemoryError(RuntimeError):
    pass
tries = []
def fits_at(limit, words="CUDA out of memory. Tried to allocate 2.00 GiB"):
    def run():
        tries.append(cfg["gpu_batch"])
        if cfg["gpu_batch"] > limit:
            raise OutOfMemoryError(words)
        return [0.1, 0.1], [1.0, 0.5]
    return run
cfg["gpu_batch"] = 64
figure("resnet50_fp32.gpu0", cfg["gpu_batch"], "FP32", fits_at(16), per_gpu_batch=True)
f = out["figures"][-1]
assert tries == [64, 32, 16], tries
assert f["batch"] == 16 and f["error"] is None and f["times"] == [0.1, 0.1], f
assert "FP32; batch 64 ran out of GPU memory, so 32; batch 32 ran out of GPU memory, so 16" == f["detail"], f["detail"]
assert cfg["gpu_batch"] == 16, "the later figures keep it"
for words in ["RESOURCE_EXHAUSTED: Out of memory while trying to allocate 822083584 bytes.",
              "OOM when allocating tensor with shape[64,256,56,56] and type float"]:
    cfg["gpu_batch"] = 64
    tries.clear()
    def run(words=words):
        tries.append(cfg["gpu_batch"])
        if cfg["gpu_batch"] > 32:
            raise RuntimeError(words)
        return [0.1], [1.0]
    figure("x.gpu0", 64, "", run, per_gpu_batch=True)
    assert tries == [64, 32] and out["figures"][-1]["batch"] == 32, (words, tries)
cfg["gpu_batch"] = 64
tries.clear()
def broken():
    tries.append(cfg["gpu_batch"])
    raise ValueError("Expected all tensors to be on the same device")
figure("a.gpu0", 64, "", broken, per_gpu_batch=True)
assert tries == [64] and out["figures"][-1]["error"].startswith("ValueError"), out["figures"][-1]
tries.clear()
figure("a.gpus2", 128, "", fits_at(0))
assert tries == [64] and out["figures"][-1]["error"].startswith("OutOfMemoryError"), out["figures"][-1]
figure("a.gpu0", 64, "", fits_at(0), per_gpu_batch=True)
assert tries == [64, 64, 32, 16, 8, 4], tries
assert out["figures"][-1]["batch"] == 4 and out["figures"][-1]["error"].startswith("OutOfMemoryError")
print("checked")
)PY");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("checked"), std::string::npos) << r.out << r.err;
}

// A step that never returns (NCCL waiting for a peer, a driver stuck) must not cost the figures
// already measured: the script's watchdog marks the figure in progress as timed out, ends the
// processes it started, and prints the rest before the parent's deadline, which reads it as a
// timeout of that figure alone.
TEST(FrameworkBench, AHungStepTimesOutAloneAndTheFiguresBeforeItStay) {
  const auto start = std::chrono::steady_clock::now();
  auto r = run_script_checks(R"PY(
import subprocess
figure("resnet50_fp32.cpu", 8, "16 threads", lambda: ([0.5, 0.5], [2.0, 1.0]))
rank = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
children.append(rank)
print("CHILD", rank.pid, flush=True)
def hang():
    time.sleep(120)
figure("resnet50_fp32.gpu0", 64, "FP32", hang, per_gpu_batch=True)
print("not reached")
)PY",
                             R"({"deadline_s": 3})");
  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 20) << "the watchdog fires at 2.4 s of a 3 s deadline";
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("not reached"), std::string::npos) << r.out;
  const size_t child = r.out.find("CHILD ");
  ASSERT_NE(child, std::string::npos) << r.out << r.err;
  const int pid = std::atoi(r.out.c_str() + child + 6);
  ASSERT_GT(pid, 0);
  bool gone = false;
  for (int i = 0; i < 50 && !gone; ++i) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    std::getline(stat, text);
    gone = !stat || text.find(") Z ") != std::string::npos;  // reaped, or a zombie being reaped
    if (!gone) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_TRUE(gone) << "the rank the script started outlived it: pid " << pid;
  FrameworkBenchConfig c = framework_bench_config("default");
  auto run =
      framework_bench_from_output(kBenchTarget, c, ProcessOutput{.exit_code = 0, .out = r.out, .err = r.err}, 3000);
  const BenchMeasurement* cpu = by_key(run, "pytorch.resnet50_fp32.cpu");
  ASSERT_NE(cpu, nullptr) << r.out;
  EXPECT_EQ(cpu->status, BenchStatus::ok);
  const BenchMeasurement* gpu = by_key(run, "pytorch.resnet50_fp32.gpu0");
  ASSERT_NE(gpu, nullptr) << r.out;
  EXPECT_EQ(gpu->status, BenchStatus::timeout) << gpu->detail;
  EXPECT_NE(gpu->detail.find("did not finish within 2 s (the framework deadline is 3 s"), std::string::npos)
      << gpu->detail;
}

TEST(FrameworkBench, StepTimesBecomeImagesPerSecondWithTheLossAsCheck) {
  FrameworkBenchConfig c = framework_bench_config("default");
  auto run = framework_bench_from_output(
      kBenchTarget, c,
      bench_printed(
          R"({"version":"2.11.0","model_source":"defined in the script","gpus":["NVIDIA H200"],"error":null,)"
          R"("figures":[{"key":"resnet50_fp32.cpu","batch":8,"detail":"16 threads","times":[2.0,2.0,2.2,1.8,2.0],)"
          R"("losses":[6.9,6.0,5.0,4.0,3.0,2.0,1.0],"error":null},)"
          R"({"key":"resnet50_fp32.gpu0","batch":64,"detail":"FP32","times":[0.1,0.1,0.1],"losses":[6.9,6.9,7.0,7.1,7.2],"error":null},)"
          R"({"key":"resnet50_bf16.gpu0","batch":64,"detail":"bf16","times":[],"losses":[],"error":"OutOfMemoryError: CUDA out of memory"},)"
          R"({"key":"resnet50_fp32.gpus2","batch":128,"detail":"DDP","times":[0.1],"losses":[6.9,null],"error":null}]})"),
      5000);
  const BenchMeasurement* cpu = by_key(run, "pytorch.resnet50_fp32.cpu");
  ASSERT_NE(cpu, nullptr);
  EXPECT_EQ(cpu->status, BenchStatus::ok);
  EXPECT_EQ(cpu->json_key(), "pytorch.resnet50_fp32.cpu.images_per_s");
  ASSERT_TRUE(cpu->value.has_value());
  EXPECT_DOUBLE_EQ(*cpu->value, 4.0);  // 8 images over the median 2.0 s
  EXPECT_DOUBLE_EQ(*cpu->max, 8 / 1.8);
  EXPECT_TRUE(cpu->check_passed) << cpu->check;
  EXPECT_NE(cpu->library.find("pytorch 2.11.0"), std::string::npos) << cpu->library;
  EXPECT_NE(cpu->detail.find("batch 8 of synthetic 3x224x224"), std::string::npos) << cpu->detail;
  EXPECT_EQ(run.gpu_batch, 64);  // the first GPU's, which the mode names when the script scaled it
  // A loss that rises on the same batch: the step learns nothing, a wrong answer.
  const BenchMeasurement* gpu = by_key(run, "pytorch.resnet50_fp32.gpu0");
  ASSERT_NE(gpu, nullptr);
  EXPECT_FALSE(gpu->check_passed);
  EXPECT_NE(gpu->check.find("NOT falling"), std::string::npos) << gpu->check;
  // One figure's error is that figure's, the others stand.
  const BenchMeasurement* half = by_key(run, "pytorch.resnet50_bf16.gpu0");
  ASSERT_NE(half, nullptr);
  EXPECT_EQ(half->status, BenchStatus::failed);
  EXPECT_NE(half->detail.find("out of memory"), std::string::npos) << half->detail;
  // A loss that is not a number (the script writes NaN as null: NaN is not JSON) fails the figure.
  const BenchMeasurement* ddp = by_key(run, "pytorch.resnet50_fp32.gpus2");
  ASSERT_NE(ddp, nullptr);
  EXPECT_EQ(ddp->status, BenchStatus::failed);
}

TEST(FrameworkBench, ANonFiniteLossFailsAndForeignKeysAreDropped) {
  FrameworkBenchConfig c = framework_bench_config("quick");
  auto run = framework_bench_from_output(
      kBenchTarget, c,
      bench_printed(
          R"({"version":"2.11.0","gpus":[],"error":null,"figures":[)"
          R"({"key":"resnet18_fp32.cpu","batch":4,"detail":"","times":[1.0],"losses":[6.9,null],"error":null},)"
          R"({"key":"../../etc","batch":4,"times":[1.0],"losses":[2,1]},)"
          R"({"key":"resnet18_fp32.cpu;drop","batch":4,"times":[1.0],"losses":[2,1]}]})"),
      10);
  ASSERT_EQ(run.measurements.size(), 1u);
  EXPECT_EQ(run.measurements[0].status, BenchStatus::failed);
}

TEST(FrameworkBench, TimeoutSilenceAndImportErrorEachSaySo) {
  FrameworkBenchConfig c = framework_bench_config("default");
  auto timeout =
      framework_bench_from_output(kBenchTarget, c, Error{ErrorKind::timeout, "killed at the deadline"}, 600000);
  ASSERT_EQ(timeout.measurements.size(), 1u);
  EXPECT_EQ(timeout.measurements[0].status, BenchStatus::timeout);
  EXPECT_EQ(timeout.measurements[0].key, "pytorch.resnet50_fp32.cpu");
  auto silent = framework_bench_from_output(kBenchTarget, c, ProcessOutput{.exit_code = 139, .out = "", .err = ""}, 5);
  EXPECT_EQ(silent.measurements.at(0).status, BenchStatus::crashed);
  auto import = framework_bench_from_output(
      kBenchTarget, c,
      bench_printed(R"({"version":null,"error":"ModuleNotFoundError: No module named 'torch'","figures":[]})"), 5);
  EXPECT_EQ(import.measurements.at(0).status, BenchStatus::failed);
  EXPECT_NE(import.measurements.at(0).detail.find("No module named"), std::string::npos);
}

BenchMeasurement rate(const std::string& key, double value) {
  BenchMeasurement m;
  m.key = key;
  m.unit = "images_per_s";
  m.status = BenchStatus::ok;
  m.value = value;
  m.check_passed = true;
  return m;
}

std::optional<BenchClaim> claim(const BenchReport& r, const std::string& part) {
  for (const auto& c : r.claims) {
    if (c.what.find(part) != std::string::npos) return c;
  }
  return std::nullopt;
}

/// The ratio of the claim whose name holds `part`; NaN (and a failure) when there is none.
double claimed_ratio(const BenchReport& r, const std::string& part) {
  auto c = claim(r, part);
  if (!c || !c->ratio) {
    ADD_FAILURE() << "no ratio for \"" << part << "\": " << render_bench_text(r, false);
    return std::nan("");
  }
  return *c->ratio;
}

TEST(FrameworkBench, ClaimsGpuOverCpuMixedPrecisionAndScaling) {
  BenchReport r;
  r.measurements = {rate("jax.resnet50_fp32.cpu", 10), rate("jax.resnet50_fp32.gpu0", 800),
                    rate("jax.resnet50_bf16.gpu0", 2000)};
  r.claims = bench_claims(r);
  EXPECT_DOUBLE_EQ(claimed_ratio(r, "ResNet-50 training, jax: GPU/CPU"), 80.0);
  EXPECT_DOUBLE_EQ(claimed_ratio(r, "ResNet-50 training, jax: mixed precision (bf16)"), 2.5);
  auto one = claim(r, "ResNet-50 training, jax: data-parallel");
  ASSERT_TRUE(one);
  EXPECT_FALSE(one->ratio);
  EXPECT_EQ(one->basis, "cannot measure: one GPU");
  EXPECT_NE(render_bench_text(r, false).find("data-parallel scaling efficiency: cannot measure: one GPU"),
            std::string::npos);

  r.measurements.push_back(rate("jax.resnet50_fp32.gpus2", 1472));
  r.claims = bench_claims(r);
  auto two = claim(r, "jax: data-parallel scaling efficiency on 2 GPUs");
  ASSERT_TRUE(two && two->ratio);
  EXPECT_DOUBLE_EQ(*two->ratio, 0.92);
  EXPECT_NE(render_bench_text(r, false).find("on 2 GPUs: 92%"), std::string::npos) << render_bench_text(r, false);

  BenchReport cpu_only;
  cpu_only.measurements = {rate("pytorch.resnet18_fp32.cpu", 10)};
  cpu_only.claims = bench_claims(cpu_only);
  auto none = claim(cpu_only, "ResNet-18 training, pytorch: GPU/CPU");
  ASSERT_TRUE(none);
  EXPECT_FALSE(none->ratio);
  EXPECT_NE(none->basis.find("pytorch.resnet18_fp32.gpu0 was not run"), std::string::npos) << none->basis;
}

// Which FP32 figures each framework lets run in TF32, and which GPUs each figure names: the
// script's own decisions, run with stand-in framework modules (the steps themselves are stubbed;
// the real frameworks run them in the wheels tests and on the GPU machine).
TEST(FrameworkBench, TheScriptSaysWhereFp32MayBeTf32AndNamesEachFiguresGpus) {
  auto r = run_script_checks(R"PY(
import sys, types
from unittest import mock
sample = lambda step: ([0.1, 0.1], [1.0, 0.5])
pytorch_ddp = lambda n: ([0.1], [1.0, 0.5])
PT_MODEL = JAX_MODEL = ""
make_step = lambda *a, **k: None
cfg.update(cpu=False, gpu=True, gpu_batch_scaled=False)
def figures():
    return {f["key"]: f for f in out["figures"]}
def fake_torch(cc, names, allow=True, new_api=None):
    torch = mock.MagicMock()
    torch.__version__ = "2.11.0"
    torch.version.hip = None
    torch.backends.cudnn.conv.fp32_precision = new_api
    torch.cuda.is_available.return_value = True
    torch.cuda.device_count.return_value = len(names)
    torch.cuda.get_device_name.side_effect = lambda i: names[i]
    torch.cuda.get_device_capability.return_value = cc
    torch.backends.cudnn.allow_tf32 = allow
    torch.cuda.get_device_properties.return_value.total_memory = 16 * 2**30
    sys.modules["torch"] = torch
def run(fn):
    out["figures"].clear()
    fn()
    return figures()
fake_torch((8, 0), ["NVIDIA A100-SXM4-80GB", "NVIDIA A100-SXM4-40GB"])
f = run(pytorch)
assert f["resnet50_fp32.gpu0"]["tf32"] is True and "TF32 allowed" in f["resnet50_fp32.gpu0"]["detail"], f
assert f["resnet50_fp32.gpu0"]["gpus"] == ["NVIDIA A100-SXM4-80GB"], f
assert f["resnet50_bf16.gpu0"]["tf32"] is None and f["resnet50_bf16.gpu0"]["gpus"] == ["NVIDIA A100-SXM4-80GB"]
assert f["resnet50_fp32.gpus2"]["gpus"] == ["NVIDIA A100-SXM4-80GB", "NVIDIA A100-SXM4-40GB"], f
assert f["resnet50_fp32.gpus2"]["tf32"] is True
fake_torch((7, 5), ["Tesla T4"])
f = run(pytorch)
assert f["resnet50_fp32.gpu0"]["tf32"] is False and "CC 7.5 has none" in f["resnet50_fp32.gpu0"]["detail"], f
assert "resnet50_fp16.gpu0" in f, f
fake_torch((9, 0), ["NVIDIA H200"], allow=False)
assert run(pytorch)["resnet50_fp32.gpu0"]["tf32"] is False
fake_torch((9, 0), ["NVIDIA H200"])
os.environ["NVIDIA_TF32_OVERRIDE"] = "0"
assert run(pytorch)["resnet50_fp32.gpu0"]["tf32"] is False
assert "NVIDIA_TF32_OVERRIDE=0" in run(pytorch)["resnet50_fp32.gpu0"]["detail"]
del os.environ["NVIDIA_TF32_OVERRIDE"]
# PyTorch 2.9's API, which wins over allow_tf32; a read that raises (the two APIs mixed) costs the
# word, not the figures.
fake_torch((8, 6), ["NVIDIA GeForce RTX 3090"], allow=True, new_api="ieee")
assert run(pytorch)["resnet50_fp32.gpu0"]["tf32"] is False
fake_torch((8, 6), ["NVIDIA GeForce RTX 3090"], allow=False, new_api="tf32")
assert run(pytorch)["resnet50_fp32.gpu0"]["tf32"] is True
fake_torch((8, 6), ["NVIDIA GeForce RTX 3090"], allow=True, new_api="none")  # inherited: the legacy getter resolves it
assert run(pytorch)["resnet50_fp32.gpu0"]["tf32"] is True
fake_torch((8, 6), ["NVIDIA GeForce RTX 3090"])
type(sys.modules["torch"].backends.cudnn).allow_tf32 = mock.PropertyMock(side_effect=RuntimeError("mix of APIs"))
f = run(pytorch)
assert f["resnet50_fp32.gpu0"]["tf32"] is False and "unreadable" in f["resnet50_fp32.gpu0"]["detail"], f
assert "resnet50_bf16.gpu0" in f, f
# A ROCm build reports a compute capability too; TF32 is not judged there.
fake_torch((9, 4), ["AMD Instinct MI300X"])
sys.modules["torch"].version.hip = "6.2"
assert run(pytorch)["resnet50_fp32.gpu0"]["tf32"] is False

def fake_jax(cc, precision=None, n=1):
    jax = mock.MagicMock()
    jax.__version__ = "0.11.2"
    devices = []
    for i in range(n):
        d = mock.MagicMock(platform="gpu", id=i, device_kind="NVIDIA H200", compute_capability=cc)
        d.memory_stats.return_value = {}
        devices.append(d)
    jax.devices.side_effect = lambda *a: devices
    jax.config.jax_default_matmul_precision = precision
    sys.modules["jax"] = jax
    sys.modules["jax.numpy"] = jax.numpy
f = run(jax_bench) if fake_jax("9.0", n=2) is None else None
assert f["resnet50_fp32.gpu0"]["tf32"] is True and f["resnet50_fp32.gpu0"]["gpus"] == ["NVIDIA H200"], f
assert f["resnet50_fp32.gpus2"]["gpus"] == ["NVIDIA H200", "NVIDIA H200"], f
for setting in ["highest", "float32", "F32_F32_F32"]:
    fake_jax("9.0", setting)
    f = run(jax_bench)
    assert f["resnet50_fp32.gpu0"]["tf32"] is False, (setting, f)
    assert "precision " + setting.lower() in f["resnet50_fp32.gpu0"]["detail"], f
# XLA allows TF32 at DEFAULT and HIGH on the GPU: these are not plain FP32.
for setting in ["high", "bfloat16", "tensorfloat32", "bfloat16_3x", "fastest", "TF32_TF32_F32"]:
    fake_jax("8.0", setting)
    assert run(jax_bench)["resnet50_fp32.gpu0"]["tf32"] is True, setting
fake_jax("7.0")
f = run(jax_bench)
assert f["resnet50_fp32.gpu0"]["tf32"] is False and "resnet50_fp16.gpu0" in f, f

def fake_tf(cc, enabled=True):
    tf = mock.MagicMock()
    tf.__version__ = "2.20.0"
    tf.config.list_physical_devices.return_value = [mock.MagicMock()]
    tf.config.list_physical_devices.return_value[0].name = "/physical_device:GPU:0"
    tf.config.experimental.get_device_details.return_value = {"device_name": "NVIDIA L4", "compute_capability": cc}
    tf.config.experimental.tensor_float_32_execution_enabled.return_value = enabled
    sys.modules["tensorflow"] = tf
fake_tf((8, 9))
f = run(tensorflow)
assert f["resnet50_fp32.gpu0"]["tf32"] is True and f["resnet50_fp32.gpu0"]["gpus"] == ["NVIDIA L4"], f
fake_tf((8, 9), enabled=False)
assert run(tensorflow)["resnet50_fp32.gpu0"]["tf32"] is False
fake_tf((7, 5))
assert run(tensorflow)["resnet50_fp32.gpu0"]["tf32"] is False
print("checked")
)PY");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("checked"), std::string::npos) << r.out << r.err;
}

// The guides' "mixed precision gives 1.5-3x" is against plain FP32. On Ampere and newer the
// frameworks' FP32 step runs its convolutions in TF32 by default, and a scaling efficiency against
// n times GPU 0 means nothing when the other GPUs are another model: the claims must say both.
TEST(FrameworkBench, ClaimsSayWhenFp32WasTf32AndWhenTheGpusDiffer) {
  FrameworkBenchConfig c = framework_bench_config("default");
  auto figures = [](const std::string& tf32, const std::string& gpu0, const std::string& gpus) {
    return bench_printed(
        R"({"version":"2.11.0","gpus":)" + gpus +
        R"(,"error":null,"figures":[)"
        R"({"key":"resnet50_fp32.cpu","batch":8,"detail":"","times":[2.0],"losses":[7,6],"error":null},)"
        R"({"key":"resnet50_fp32.gpu0","batch":64,"detail":"FP32","times":[0.1],"losses":[7,6],"error":null,)"
        R"("tf32":)" +
        tf32 + R"(,"gpus":[")" + gpu0 +
        R"("]},)"
        R"({"key":"resnet50_bf16.gpu0","batch":64,"detail":"bf16","times":[0.04],"losses":[7,6],"error":null},)"
        R"({"key":"resnet50_fp32.gpus2","batch":128,"detail":"DDP","times":[0.125],"losses":[7,6],"error":null,)"
        R"("tf32":)" +
        tf32 + R"(,"gpus":)" + gpus + R"(}]})");
  };
  auto report = [&](const std::string& tf32, const std::string& gpu0, const std::string& gpus) {
    BenchReport r;
    r.measurements = framework_bench_from_output(kBenchTarget, c, figures(tf32, gpu0, gpus), 5000).measurements;
    r.claims = bench_claims(r);
    return r;
  };

  BenchReport ampere = report("true", "NVIDIA A100-SXM4-80GB", R"(["NVIDIA A100-SXM4-80GB","NVIDIA A100-SXM4-80GB"])");
  const BenchMeasurement* fp32 = find_measurement(ampere, "pytorch.resnet50_fp32.gpu0");
  ASSERT_NE(fp32, nullptr);
  EXPECT_EQ(fp32->tf32, true);
  EXPECT_EQ(fp32->gpus, std::vector<std::string>{"NVIDIA A100-SXM4-80GB"});
  EXPECT_EQ(find_measurement(ampere, "pytorch.resnet50_fp32.gpus2")->gpus.size(), 2u);
  EXPECT_DOUBLE_EQ(claimed_ratio(ampere, "pytorch: mixed precision (bf16) over FP32 with TF32 allowed"), 2.5);
  EXPECT_NE(claim(ampere, "mixed precision (bf16)")->basis.find("not plain FP32"), std::string::npos);
  EXPECT_DOUBLE_EQ(claimed_ratio(ampere, "pytorch: GPU (FP32, TF32 allowed) / CPU (FP32)"), 160.0);
  EXPECT_DOUBLE_EQ(claimed_ratio(ampere, "pytorch: data-parallel scaling efficiency on 2 GPUs"), 0.8);
  // The JSON carries both, and reads them back (the history holds the report as JSON).
  BenchReport back;
  bench_report_from_json(bench_report_to_json(ampere), back);
  EXPECT_EQ(back.measurements, ampere.measurements);

  BenchReport turing = report("false", "Tesla T4", R"(["Tesla T4","Tesla T4"])");
  EXPECT_EQ(find_measurement(turing, "pytorch.resnet50_fp32.gpu0")->tf32, false);
  EXPECT_TRUE(claim(turing, "pytorch: mixed precision (bf16) over FP32"));
  for (const BenchClaim& t : turing.claims) {
    if (t.what.starts_with("ResNet-50")) EXPECT_EQ(t.what.find("TF32"), std::string::npos) << t.what;
  }
  // Said on the FP32 GPU figures only (false too: --compare tells a TF32 change from a slower card).
  const auto json = bench_report_to_json(turing)["measurements"];
  EXPECT_FALSE(json[0].contains("tf32")) << json[0].dump();  // the CPU figure
  EXPECT_EQ(json[1]["tf32"], false) << json[1].dump();
  EXPECT_FALSE(json[2].contains("tf32")) << json[2].dump();  // bf16

  BenchReport mixed_models =
      report("false", "NVIDIA GeForce RTX 4090", R"(["NVIDIA GeForce RTX 4090","NVIDIA GeForce RTX 3090"])");
  auto unlike = claim(mixed_models, "pytorch: data-parallel scaling efficiency");
  ASSERT_TRUE(unlike);
  EXPECT_FALSE(unlike->ratio) << unlike->basis;
  EXPECT_NE(unlike->basis.find("NVIDIA GeForce RTX 4090, NVIDIA GeForce RTX 3090"), std::string::npos) << unlike->basis;
  EXPECT_NE(unlike->basis.find("slowest GPU"), std::string::npos) << unlike->basis;
}

}  // namespace
}  // namespace gpudoctor::gpu

namespace gpudoctor {
namespace {

// Options of the other kind of bench run are refused, not ignored (exit 2, a usage error).
TEST(FrameworkBenchOptions, OptionsOfTheOtherRunAreUsageErrors) {
  auto sizes = testing::run_gpudoctor({"bench", "--framework", "jax", "--sgemm-size", "64", "--no-history"});
  EXPECT_EQ(sizes.exit_code, 2) << sizes.err;
  EXPECT_NE(sizes.err.find("do not apply"), std::string::npos) << sizes.err;
  auto image = testing::run_gpudoctor({"bench", "--framework-image", "64", "--no-history"});
  EXPECT_EQ(image.exit_code, 2) << image.err;
  auto junk = testing::run_gpudoctor({"bench", "--framework", "jax", "--framework-batch", "4x", "--no-history"});
  EXPECT_EQ(junk.exit_code, 2) << junk.err;
  auto which = testing::run_gpudoctor({"bench", "--framework", "caffe", "--no-history"});
  EXPECT_EQ(which.exit_code, 2) << which.err;
}

}  // namespace
}  // namespace gpudoctor
