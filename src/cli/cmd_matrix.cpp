#include <fmt/core.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <memory>

#include "cli/commands_list.hpp"
#include "cli/option_values.hpp"
#include "cli/output.hpp"
#include "kb/knowledge_base.hpp"
#include "kb/matrix_query.hpp"
#include "kb/resolver.hpp"
#include "render/matrix_render.hpp"

namespace gpudoctor {
namespace {

struct MatrixArgs {
  std::string framework;
  std::string os;
  std::string cuda;
  std::string python;
  bool drivers = false;
  bool arch = false;
  bool cudnn = false;
  bool sources = false;
};

}  // namespace

Command matrix_command() {
  auto args = std::make_shared<MatrixArgs>();
  Command c;
  c.name = "matrix";
  c.summary = "The compatibility tables (TensorFlow, PyTorch, JAX, CUDA -> driver/arch, cuDNN), with sources";
  c.setup = [args](CLI::App& app) {
    app.add_option("--framework", args->framework,
                   "Only tensorflow, pytorch or jax, or a range of one ('tensorflow<=2.15', read as pip reads it)");
    app.add_option("--os", args->os, "Only rows for linux, windows or wsl2");
    app.add_option("--cuda", args->cuda, "Only rows for this CUDA version (12 or 12.2)");
    app.add_option("--python", args->python, "Only rows that support this Python (3.11)");
    app.add_flag("--drivers", args->drivers, "CUDA toolkit -> minimum driver tables");
    app.add_flag("--arch", args->arch, "CUDA toolkit -> compute capabilities, and GPU -> compute capability");
    app.add_flag("--cudnn", args->cudnn, "cuDNN support matrix");
    app.add_flag("--sources", args->sources, "Show where each row comes from");
    app.footer("--gpu MODEL (global option) keeps the rows whose builds have kernels for that GPU.");
  };
  c.run = [args](CommandContext& ctx) -> int {
    const KnowledgeBase* kb = ctx.kb();
    if (kb == nullptr) return kExitUsage;
    MatrixFilter f;
    if (!args->framework.empty()) {
      auto fr = parse_framework_request(args->framework);
      if (!fr) return usage_error("matrix", fr.error().message);
      f.framework = fr->name;
      f.versions = fr->spec;
      f.extras = fr->extras;
    }
    if (!args->os.empty()) {
      auto p = parse_os_option(args->os);
      if (!p) return usage_error("matrix", p.error().message);
      f.os = *p;
    }
    if (!args->cuda.empty()) {
      auto v = parse_cuda_option(args->cuda);
      if (!v) return usage_error("matrix", v.error().message);
      f.cuda = *v;
    }
    if (!args->python.empty()) {
      auto v = parse_python_option(args->python);
      if (!v) return usage_error("matrix", v.error().message);
      f.python = *v;
    }
    if (!ctx.options().gpus.empty()) {
      f.gpu_name = ctx.options().gpus.front();
      GpuMatch m = kb->find_gpu(f.gpu_name);
      if (m.model != nullptr) f.cc = m.model->cc;
    }
    f.drivers = args->drivers;
    f.arch = args->arch;
    f.cudnn = args->cudnn;
    f.sources = args->sources;
    MatrixView view = matrix_view(*kb, f);
    write_output(ctx.options().json ? render_matrix_json(view) : render_matrix_text(view));
    if (!f.gpu_name.empty() && !f.cc) return kExitProblems;
    return kExitOk;
  };
  return c;
}

}  // namespace gpudoctor
