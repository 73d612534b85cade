// Session 42 review A (1): profilers and debuggers (docs: "Unseen logs, session 42 review A (1):
// profilers and debuggers").
// - Nsight Compute's ERR_NVGPUCTRPERM (log 01): the driver keeps the GPU performance counters for
//   admin users (NVreg_RestrictProfilingToAdminUsers), a container lacks CAP_SYS_ADMIN.
// - CUPTI_ERROR_INSUFFICIENT_PRIVILEGES from a profiler's CUPTI call: TensorFlow's cupti_tracer logs it
//   and goes on without GPU events (log 02); Paddle's device_tracer exits and habitat throws (logs 11,
//   12), so there it is the error that ends the run and leads the traceback after it.
// - kineto's "CUPTI initialization failed" with CUPTI_ERROR_NOT_INITIALIZED under an LD_LIBRARY_PATH
//   with a toolkit's lib64/stubs (log 17); its INFO hint naming CUPTI_ERROR_INSUFFICIENT_PRIVILEGES is
//   not that cause.
// - cuda-gdb without the driver's debugger back-end libcudadebugger.so.1 (log 13); cuda-memcheck's
//   "Initialization failed" under libtorch's thousands of kernels (log 14).
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "explain/explain_session.hpp"
#include "explain_test_support.hpp"
#include "model/explain_report.hpp"

namespace gpudoctor {
namespace {

using testing::explain_no_facts;
using testing::find_rule;
using testing::leads_with;
using testing::leads_without;
using testing::mentions;
using testing::problem_count;
using testing::rule_list;
using testing::says_all;
using testing::told;

// /tmp/rev42a/logs/01.txt (verbatim), https://github.com/NVIDIA/TensorRT-LLM/issues/183
constexpr std::string_view kReview42a1NcuLog =
    R"LOG(root@nf5688m7-release:/code/tensorrt_llm/benchmarks/python# ncu --target-processes all python benchmark.py  -m llama_7b  --mode plugin --batch_size "64" --input_output_len "128,128" --enable_fp8 --fp8_kv_cache
==PROF== Connected to process 36055 (/usr/bin/nvidia-smi)
==PROF== Disconnected from process 36055
==PROF== Target process 36054 terminated before first instrumented API call.
==PROF== Connected to process 35989 (/usr/bin/python3.10)
==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters on the target device 0. For instructions on enabling permissions and to get more information see https://developer.nvidia.com/ERR_NVGPUCTRPERM
/usr/local/lib/python3.10/dist-packages/tensorrt_llm/runtime/generation.py:658: UserWarning: The PyTorch API of nested tensors is in prototype stage and will change in the near future. (Triggered internally at /opt/pytorch/pytorch/aten/src/ATen/NestedTensorImpl.cpp:178.)
  torch.nested.nested_tensor(split_ids_list,
==PROF== Target process 41832 terminated before first instrumented API call.
)LOG";

// /tmp/rev42a/logs/02.txt (verbatim), https://github.com/tensorflow/tensorflow/issues/39143
constexpr std::string_view kReview42a1TfProfilerLog =
    R"LOG(2020-05-06 22:12:04.575505: I tensorflow/core/profiler/internal/gpu/cupti_tracer.cc:1372] Profiler found 1 GPUs
2020-05-06 22:12:04.576324: I tensorflow/stream_executor/platform/default/dso_loader.cc:44] Successfully opened dynamic library libcupti.so.10.1
2020-05-06 22:12:04.677122: E tensorflow/core/profiler/internal/gpu/cupti_tracer.cc:1419] function cupti_interface_->Subscribe( &subscriber_, (CUpti_CallbackFunc)ApiCallback, this)failed with error CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
2020-05-06 22:12:04.678646: E tensorflow/core/profiler/internal/gpu/cupti_tracer.cc:1458] function cupti_interface_->ActivityRegisterCallbacks( AllocCuptiActivityBuffer, FreeCuptiActivityBuffer)failed with error CUPTI_ERROR_INSUFFICIENT_PRIVILEGES
2020-05-06 22:12:04.681355: E tensorflow/core/profiler/internal/gpu/cupti_tracer.cc:1441] function cupti_interface_->EnableCallback( 0 , subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, cbid)failed with error CUPTI_ERROR_INVALID_PARAMETER
)LOG";

// /tmp/rev42a/logs/11.txt (verbatim), https://github.com/PaddlePaddle/Paddle/issues/35857
constexpr std::string_view kReview42a1PaddleLog = R"LOG(添加 profiler 的时候报错如下：
/paddle/paddle/fluid/platform/device_tracer.cc:131: error: function dynload::cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY) failed with error CUPTI_ERROR_INSUFFICIENT_PRIVILEGES.
profiler 用的是这个  https://github.com/PaddlePaddle/PaddleClas/pull/729
)LOG";

// /tmp/rev42a/logs/12.txt (verbatim), https://github.com/geoffxy/habitat/issues/5
constexpr std::string_view kReview42a1HabitatLog =
    R"LOG(/home/ubuntu/home/habitat/cpp/src/cuda/cupti_tracer.cpp:120: error: function cuptiActivityRegisterCallbacks(cuptiBufferRequested, cuptiBufferCompleted) failed with error CUPTI_ERROR_INSUFFICIENT_PRIVILEGES.
Traceback (most recent call last):
  File "run_experiment.py", line 246, in <module>
    main()
  File "run_experiment.py", line 238, in main
    run_dcgan_experiments(context)
  File "run_experiment.py", line 155, in run_dcgan_experiments
    context,
  File "run_experiment.py", line 85, in run_experiment_config
    threshold = compute_threshold(runnable, context)
  File "run_experiment.py", line 66, in compute_threshold
    runnable()
  File "run_experiment.py", line 150, in runnable
    iteration(*inputs)
  File "/home/ubuntu/home/habitat/experiments/dcgan/entry_point.py", line 41, in iteration
    netD.zero_grad()
  File "/usr/local/lib/python3.6/dist-packages/torch/nn/modules/module.py", line 1098, in zero_grad
    p.grad.detach_()
  File "/home/ubuntu/home/habitat/analyzer/habitat/tracking/operation.py", line 62, in hook
    kwargs,
)LOG";

// /tmp/rev42a/logs/13.txt (verbatim), https://github.com/NVIDIA/cuda-python/issues/2711
constexpr std::string_view kReview42a1CudaGdbLog =
    R"LOG(FAILED cuda_core/tests/test_program.py::test_cuda_gdb_shows_nvrtc_debug_source_lines - AssertionError: [Thread debugging using libthread_db enabled]

[Inferior 1 (process ...) exited normally]
Could not find CUDA Debugger back-end (libcudadebugger.so.1). Debugging is not possible
)LOG";

// /tmp/rev42a/logs/14.txt (verbatim), https://github.com/LaurentMazare/tch-rs/issues/429
constexpr std::string_view kReview42a1MemcheckLog = R"LOG($ cuda-memcheck cargo run --example basics
========= CUDA-MEMCHECK
    Finished dev [unoptimized + debuginfo] target(s) in 0.12s
     Running `target/debug/examples/basics`
========= Internal Memcheck Error: Initialization failed
=========     Saved host backtrace up to driver entry point at error
=========     Host Frame:/usr/lib/x86_64-linux-gnu/libcuda.so.1 [0x205deb]
=========     Host Frame:/xxx/libtorch/lib/libcudart-80664282.so.10.2 [0x2bbe7]
=========     Host Frame:/xxx/libtorch/lib/libcudart-80664282.so.10.2 [0x240a0]
=========     Host Frame:/xxx/libtorch/lib/libcudart-80664282.so.10.2 [0x2eac2]
=========     Host Frame:/xxx/libtorch/lib/libcudart-80664282.so.10.2 [0x34031]
=========     Host Frame:/xxx/libtorch/lib/libcudart-80664282.so.10.2 [0x262de]
=========     Host Frame:/xxx/libtorch/lib/libcudart-80664282.so.10.2 [0xfc2e]
=========     Host Frame:/xxx/libtorch/lib/libcudart-80664282.so.10.2 (cudaFree + 0x14c) [0x4838c]
=========     Host Frame:/xxx/libtorch/lib/libtorch_cuda.so [0x3e1fc9c]
=========     Host Frame:/xxx/libtorch/lib/libtorch_cuda.so (cublasCreate_v2 + 0x33) [0x3e232d3]
=========     Host Frame:/xxx/libtorch/lib/libtorch_cuda.so [0x33f29a9]
)LOG";

// /tmp/rev42a/logs/17.txt (verbatim), https://github.com/pytorch/pytorch/issues/118982
constexpr std::string_view kReview42a1KinetoLog =
    R"LOG(When profiling code using `torch.profiler.profile` with CUDA activity enabled, CUPTI fails to initialize if `LD_LIBRARY_PATH` like

```bash
export LD_LIBRARY_PATH="/usr/local/cuda/lib64:/usr/local/cuda/lib64/stubs:/usr/local/cuda/extras/CUPTI/lib64:/opt/openmpi/lib"
```

```bash
WARNING:2024-02-02 09:53:39 166:166 init.cpp:155] function cbapi->getCuptiStatus() failed with error CUPTI_ERROR_NOT_INITIALIZED (15)
WARNING:2024-02-02 09:53:39 166:166 init.cpp:156] CUPTI initialization failed - CUDA profiler activities will be missing
INFO:2024-02-02 09:53:39 166:166 init.cpp:158] If you see CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, refer to https://developer.nvidia.com/nvidia-development-tools-solutions-err-nvgpuctrperm-cupti
``` 

As a result, CUDA calls are not presented in the traces.
)LOG";

TEST(ExplainReview42A1, NcuCounterPermissionIsTheDriversAdminOnlyCounters) {
  const auto r = explain_no_facts(kReview42a1NcuLog);
  ASSERT_TRUE(leads_with(r, "gpu-perf-counters-restricted")) << told(r);
  EXPECT_EQ(problem_count(r), 1U) << rule_list(r);
  const auto& lead = r.matches.front();
  // ncu goes on running the program, unprofiled: a warning, not the program's failure.
  EXPECT_EQ(lead.severity, RuleSeverity::warning);
  EXPECT_TRUE(says_all(lead.cause, {"Nsight Compute", "418.43", "admin"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"options nvidia NVreg_RestrictProfilingToAdminUsers=0", "--cap-add=SYS_ADMIN",
                                  "RmProfilingAdminOnly", "Allow access to the GPU performance counters to all users"}))
      << lead.fix;
}

TEST(ExplainReview42A1, NvprofsCounterPermissionIsTheSameRestriction) {
  const auto r = explain_no_facts(
      "==4411== Warning: ERR_NVGPUCTRPERM - The user does not have permission to profile on the target device. See "
      "the following link for instructions to enable permissions and get more information: "
      "https://developer.nvidia.com/ERR_NVGPUCTRPERM\n");
  ASSERT_TRUE(leads_with(r, "gpu-perf-counters-restricted")) << rule_list(r);
}

TEST(ExplainReview42A1, NearMissTheCountersLinkAloneIsNotTheRestriction) {
  // kineto's INFO hint and a bare link name the page, not a failure.
  for (const char* line :
       {"INFO:2024-02-02 09:53:39 166:166 init.cpp:158] If you see CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, refer to "
        "https://developer.nvidia.com/nvidia-development-tools-solutions-err-nvgpuctrperm-cupti\n",
        "For instructions on enabling permissions see https://developer.nvidia.com/ERR_NVGPUCTRPERM\n"}) {
    const auto r = explain_no_facts(line);
    EXPECT_EQ(find_rule(r, "gpu-perf-counters-restricted"), nullptr) << line << rule_list(r);
    EXPECT_EQ(find_rule(r, "cupti-insufficient-privileges"), nullptr) << line << rule_list(r);
  }
}

TEST(ExplainReview42A1, TfProfilerWithoutCuptiPrivilegeHasAnEmptyProfileNotAFailedRun) {
  const auto r = explain_no_facts(kReview42a1TfProfilerLog);
  ASSERT_TRUE(leads_without(r, "cupti-insufficient-privileges", {"cupti-insufficient-privileges-exit"})) << told(r);
  // EnableCallback's CUPTI_ERROR_INVALID_PARAMETER follows the failed Subscribe: no second answer.
  EXPECT_EQ(problem_count(r), 1U) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_EQ(lead.severity, RuleSeverity::warning);
  EXPECT_TRUE(says_all(lead.cause, {"no GPU", "go on", "unaffected", "CUPTI_ERROR_INVALID_PARAMETER"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"NVreg_RestrictProfilingToAdminUsers=0", "--cap-add=SYS_ADMIN", "--privileged"}))
      << lead.fix;
}

TEST(ExplainReview42A1, PaddleTracerWithoutCuptiPrivilegeEndsTheRun) {
  const auto r = explain_no_facts(kReview42a1PaddleLog);
  ASSERT_TRUE(leads_without(r, "cupti-insufficient-privileges-exit", {"cupti-insufficient-privileges"})) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_EQ(lead.severity, RuleSeverity::error);
  EXPECT_TRUE(says_all(lead.cause, {"cuptiActivityEnable", "exits"})) << lead.cause;
  EXPECT_TRUE(
      says_all(lead.fix, {"--cap-add=SYS_ADMIN", "root inside the container", "NVreg_RestrictProfilingToAdminUsers=0"}))
      << lead.fix;
  // Paddle's newer tracer (platform/profiler/cuda_tracer.cc) logs through glog, then exits too.
  const auto glog = explain_no_facts(
      "E0914 10:20:30.123456  4242 cuda_tracer.cc:35] Function dynload::cuptiActivityEnable(CUPTI_ACTIVITY_KIND_"
      "MEMCPY) failed with error CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\n");
  ASSERT_TRUE(leads_with(glog, "cupti-insufficient-privileges-exit")) << rule_list(glog);
}

TEST(ExplainReview42A1, HabitatsCuptiPrivilegeErrorLeadsItsTraceback) {
  const auto r = explain_no_facts(kReview42a1HabitatLog);
  ASSERT_TRUE(leads_without(r, "cupti-insufficient-privileges-exit", {"cupti-insufficient-privileges"})) << told(r);
  EXPECT_EQ(problem_count(r), 1U) << rule_list(r);
  EXPECT_EQ(r.matches.front().lines.front(), 1U);
  EXPECT_TRUE(mentions(r.matches.front().cause, "cuptiActivityRegisterCallbacks")) << r.matches.front().cause;
}

TEST(ExplainReview42A1, NearMissAVirtualGpusProfilingRefusalIsNotThePrivilegeAnswer) {
  // CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES (40): the hypervisor's vGPU profile forbids it,
  // no modprobe option in the guest changes that.
  const auto r = explain_no_facts(
      "2024-01-01 10:00:00.000000: E tensorflow/core/profiler/internal/gpu/cupti_tracer.cc:1419] function "
      "cupti_interface_->Subscribe( &subscriber_, (CUpti_CallbackFunc)ApiCallback, this)failed with error "
      "CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES\n");
  EXPECT_EQ(find_rule(r, "cupti-insufficient-privileges"), nullptr) << rule_list(r);
  EXPECT_EQ(find_rule(r, "cupti-insufficient-privileges-exit"), nullptr) << rule_list(r);
}

TEST(ExplainReview42A1, KinetoCuptiNotInitializedWithToolkitDirsOnTheLoaderPathNamesThem) {
  const auto r = explain_no_facts(kReview42a1KinetoLog);
  ASSERT_TRUE(leads_without(r, "kineto-cupti-init-failed/ld-path",
                            {"cupti-insufficient-privileges", "gpu-perf-counters-restricted"}))
      << told(r);
  EXPECT_EQ(problem_count(r), 1U) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_EQ(lead.severity, RuleSeverity::warning);
  EXPECT_TRUE(says_all(lead.cause, {"CUPTI_ERROR_NOT_INITIALIZED", "lib64/stubs", "no CUDA kernels"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"LD_LIBRARY_PATH", "stubs"})) << lead.fix;
  EXPECT_FALSE(mentions(told(r), "NVreg_RestrictProfilingToAdminUsers")) << told(r);
}

TEST(ExplainReview42A1, NearMissKinetoInitFailureWithoutTheLoaderPathIsNotPutOnIt) {
  const auto r = explain_no_facts(
      "WARNING:2024-02-02 09:53:39 166:166 init.cpp:155] function cbapi->getCuptiStatus() failed with error "
      "CUPTI_ERROR_NOT_INITIALIZED (15)\n"
      "WARNING:2024-02-02 09:53:39 166:166 init.cpp:156] CUPTI initialization failed - CUDA profiler activities will "
      "be missing\n");
  ASSERT_TRUE(leads_without(r, "kineto-cupti-init-failed", {"kineto-cupti-init-failed/ld-path"})) << told(r);
  EXPECT_TRUE(says_all(r.matches.front().cause, {"CUPTI_ERROR_NOT_INITIALIZED", "torch.profiler"}))
      << r.matches.front().cause;
}

TEST(ExplainReview42A1, KinetoNamesTheCuptiErrorItGotAndItsSummaryLineAlone) {
  const auto r = explain_no_facts(
      "WARNING:2026-07-31 13:43:58 7535:7535 init.cpp:155] function cbapi->getCuptiStatus() failed with error "
      "CUPTI_ERROR_INVALID_DEVICE (2)\n");
  ASSERT_TRUE(leads_with(r, "kineto-cupti-init-failed")) << rule_list(r);
  EXPECT_TRUE(mentions(r.matches.front().cause, "(CUPTI_ERROR_INVALID_DEVICE)")) << r.matches.front().cause;
  const auto alone = explain_no_facts(
      "WARNING:2024-02-02 09:53:39 166:166 init.cpp:156] CUPTI initialization failed - CUDA profiler activities will "
      "be missing\n");
  ASSERT_TRUE(leads_with(alone, "kineto-cupti-init-failed")) << rule_list(alone);
}

TEST(ExplainReview42A1, KinetoWithoutCuptiPrivilegeIsThePrivilegeAnswer) {
  const auto r = explain_no_facts(
      "WARNING:2024-03-01 11:00:00 77:77 init.cpp:155] function cbapi->getCuptiStatus() failed with error "
      "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES (35)\n"
      "WARNING:2024-03-01 11:00:00 77:77 init.cpp:156] CUPTI initialization failed - CUDA profiler activities will "
      "be missing\n"
      "INFO:2024-03-01 11:00:00 77:77 init.cpp:158] If you see CUPTI_ERROR_INSUFFICIENT_PRIVILEGES, refer to "
      "https://developer.nvidia.com/nvidia-development-tools-solutions-err-nvgpuctrperm-cupti\n");
  ASSERT_TRUE(leads_without(r, "cupti-insufficient-privileges", {"kineto-cupti-init-failed"})) << told(r);
  EXPECT_EQ(problem_count(r), 1U) << rule_list(r);
}

TEST(ExplainReview42A1, CudaGdbWithoutTheDebuggerBackEndNamesTheDriversLibrary) {
  const auto r = explain_no_facts(kReview42a1CudaGdbLog);
  ASSERT_TRUE(leads_with(r, "cuda-gdb-backend-missing")) << told(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"libcudadebugger.so.1", "driver", "11.8"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"ldconfig -p | grep libcudadebugger", "Jetson"})) << lead.fix;
  // Near miss: cuda-gdb refusing GPUs that run the display is another cause.
  const auto display = explain_no_facts(
      "fatal:  All CUDA devices are used for display and cannot be used while debugging. (error code = "
      "CUDBG_ERROR_ALL_DEVICES_WATCHDOGGED(0x18)\n");
  EXPECT_EQ(find_rule(display, "cuda-gdb-backend-missing"), nullptr) << rule_list(display);
}

TEST(ExplainReview42A1, CudaMemcheckInitFailureUnderLibtorchIsItsPatchingNotTheProgram) {
  const auto r = explain_no_facts(kReview42a1MemcheckLog);
  ASSERT_TRUE(leads_with(r, "cuda-memcheck-init-failed")) << told(r);
  EXPECT_EQ(problem_count(r), 1U) << rule_list(r);
  const auto& lead = r.matches.front();
  EXPECT_TRUE(says_all(lead.cause, {"CUDA functions", "libtorch", "CUDA 12"})) << lead.cause;
  EXPECT_TRUE(says_all(lead.fix, {"CUDA_MEMCHECK_PATCH_MODULE=1", "compute-sanitizer"})) << lead.fix;
  // Near miss: memcheck refusing to start beside another attached tool is not the patching.
  const auto attached = explain_no_facts(
      "========= Internal Memcheck Error: Memcheck failed initialization as some other tools is currently attached. "
      "Please make sure that nvprof and Nsight Visual Studio Edition are not being run simultaneously\n");
  EXPECT_EQ(find_rule(attached, "cuda-memcheck-init-failed"), nullptr) << rule_list(attached);
}

}  // namespace
}  // namespace gpudoctor
