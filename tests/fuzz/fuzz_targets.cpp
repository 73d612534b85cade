#include "fuzz_targets.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "core/pci_ids.hpp"
#include "core/text.hpp"
#include "core/version.hpp"
#include "explain/explain_session.hpp"
#include "explain/log_decoder.hpp"
#include "explain/rule_loader.hpp"
#include "kb/data_files.hpp"
#include "kb/knowledge_base.hpp"
#include "platform/registry.hpp"
#include "platform/system_view.hpp"
#include "probe/cudnn_cuda_major.hpp"
#include "probe/elf_sections.hpp"
#include "probe/elf_symbols.hpp"
#include "probe/network_files.hpp"
#include "probe/pe_headers.hpp"
#include "probe/pe_imports.hpp"
#include "probe/pe_version.hpp"
#include "probe/python/conda_meta.hpp"
#include "probe/python/dist_info.hpp"
#include "probe/python/python_literal.hpp"
#include "probe/python/pyvenv_cfg.hpp"
#include "probe/python/tf_build_info.hpp"
#include "probe/python/tf_plugins.hpp"
#include "probe/python/tfp_import_checks.hpp"
#include "probe/python/torch_version.hpp"
#include "probe/version_files.hpp"

namespace gpudoctor::fuzz {
namespace {

/// The fuzz input as the file an ELF reader reads, counting the bytes asked for.
ReadRange file_reader(std::string_view s, std::uint64_t& asked) {
  return [s, &asked](std::uint64_t offset, std::size_t length) -> Result<std::string> {
    asked += length;
    if (offset >= s.size()) return std::string();
    return std::string(s.substr(static_cast<size_t>(offset), length));
  };
}

const RuleMatcher& builtin_rules() {
  static std::unique_ptr<RuleMatcher> m = [] {
    auto loaded = load_rule_base("");
    if (!loaded) std::abort();
    auto built = RuleMatcher::build(loaded->base);
    if (!built) std::abort();
    return std::move(*built);
  }();
  return *m;
}

/// Arbitrary bytes through the LogDecoder, split where the input says, then through the
/// built-in rules: never a crash, a hang, or a kept line longer than the cap.
void explain_log(std::string_view bytes) {
  const size_t split = bytes.empty() ? 0 : static_cast<unsigned char>(bytes[0]) % (bytes.size() + 1);
  LogDecoder decoder([](std::string_view line, std::uint64_t) {
    if (line.size() > LogDecoder::kMaxLineBytes) std::abort();
    for (unsigned char c : line) {
      if (c < 0x20 && c != '\t') std::abort();
    }
  });
  decoder.feed(bytes.substr(0, split));
  decoder.feed(bytes.substr(split));
  decoder.finish();
  ExplainSession session(builtin_rules());
  session.feed(bytes);
  (void)session.finish(ExplainMachine{});
}

/// Arbitrary text as a user's --kb rule file: problems are reported, whatever loads compiles
/// and matches.
void explain_rules(std::string_view text) {
  RuleLoadResult loaded;
  parse_rule_file(text, "fuzz.toml", loaded);
  auto matcher = RuleMatcher::build(loaded.base);
  if (!matcher) return;
  const std::string log =
      "Could not load dynamic library 'cudnn64_8.dll'\nCUDA out of memory. Tried to allocate 2.00 GiB\n" +
      std::string(text.substr(0, 4096));
  (void)explain_text(**matcher, log, ExplainMachine{});
}

/// Arbitrary text as each knowledge-base table file (a user's --kb): issues, never a crash.
void kb_table(std::string_view text) {
  for (const char* name : {"compat/tensorflow.toml", "compat/pytorch.toml", "compat/cuda_drivers.toml",
                           "compat/gpus.toml", "compat/jax.toml"}) {
    std::vector<KbIssue> issues;
    KnowledgeBase kb = KnowledgeBase::parse({DataFile{name, std::string(text), "fuzz"}}, issues);
    kb.validate(issues);
    (void)kb.nearest_gpu_names(text.substr(0, 64));
  }
}

/// Valid UTF-8 with no control byte but newline and tab (ESC allowed only when sgr_ok).
bool safe_text(std::string_view s, bool sgr_ok) {
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if ((c < 0x20 && c != '\n' && c != '\t' && !(sgr_ok && c == 0x1b)) || c == 0x7f) return false;
  }
  // Re-escaping valid, safe text changes nothing but ESC: a second pass is the identity.
  return output_safe(s) == s;
}

/// Every sanitiser's result is safe whatever the input, and cutting never splits a character.
void sanitiser(std::string_view bytes) {
  if (!safe_text(terminal_safe(bytes), false)) std::abort();
  if (!safe_text(printable(bytes, bytes.size() % 97), false)) std::abort();
  if (!safe_text(output_safe(bytes), true)) std::abort();
  std::string_view cut = utf8_prefix(bytes, bytes.size() / 2);
  if (cut.size() > bytes.size() / 2) std::abort();
}

/// An env file never yields a NUL in a key or value, and its report stays bounded.
void env_file(std::string_view text) {
  EnvFile f = parse_env_file(text);
  if (f.problems.size() > EnvFile::kMaxProblems + 1) std::abort();
  for (const auto& [k, v] : f.env) {
    if (k.find('\0') != std::string::npos || v.find('\0') != std::string::npos) std::abort();
  }
}

std::filesystem::path& confinement_base() {
  static std::filesystem::path base;
  return base;
}

/// At exit, the tree goes (links removed, never followed); a crash leaves it for the reader.
void remove_confinement_tree() {
  std::error_code ec;
  std::filesystem::remove_all(confinement_base(), ec);
}

/// A fixed tree in a private temporary folder: a root with links of every kind next to a file
/// outside it. Whatever path the fuzzer asks for, neither resolution reads the outside file.
const std::filesystem::path& confinement_tree() {
  static const std::filesystem::path root = [] {
    namespace fs = std::filesystem;
    std::string tmpl = (fs::temp_directory_path() / "gpudoctor-fuzz-XXXXXX").string();
    if (::mkdtemp(tmpl.data()) == nullptr) std::abort();
    fs::path base = tmpl;
    confinement_base() = base;
    std::atexit(remove_confinement_tree);
    fs::create_directories(base / "root/a/b");
    std::ofstream(base / "outside") << "OUTSIDE";
    std::ofstream(base / "root/a/b/file") << "inside";
    fs::create_directory_symlink("../..", base / "root/a/b/up");
    fs::create_directory_symlink("/a", base / "root/abs");
    fs::create_symlink("../../outside", base / "root/a/rel-out");
    fs::create_symlink("/proc/self/root/outside", base / "root/magic");
    fs::create_symlink("loop2", base / "root/loop1");
    fs::create_symlink("loop1", base / "root/loop2");
    return base / "root";
  }();
  return root;
}

void path_resolution(std::string_view path) {
  for (bool kernel : {true, false}) {
    SystemView::Options o;
    o.root = confinement_tree().string();
    o.kernel_resolution = kernel;
    o.platform = path.size() % 2 ? Platform::windows : Platform::linux;
    SystemView view(o);
    auto text = view.read_file(path, 64);
    if (text && text->find("OUTSIDE") != std::string::npos) std::abort();
    (void)view.list_dir(path);
    (void)view.canonical(path);
  }
}

}  // namespace

// Each parser must return without crashing, hanging or reading out of bounds.
const std::vector<Target>& targets() {
  static const std::vector<Target> kTargets = {
      {"nvidia_proc_version", [](std::string_view s) { (void)parse_nvidia_proc_version(s); }},
      {"cuda_version_json", [](std::string_view s) { (void)parse_cuda_version_json(s); }},
      {"cuda_version_txt",
       [](std::string_view s) {
         (void)parse_cuda_version_txt(s);
         (void)parse_nvcc_version(s);
       }},
      {"c_headers",
       [](std::string_view s) {
         (void)parse_cudnn_header(s);
         (void)parse_nccl_header(s);
         (void)parse_cuda_h(s);
         (void)parse_tensorrt_header(s);
         (void)parse_cublas_header(s);
       }},
      {"library_name", [](std::string_view s) { (void)parse_library_name(s); }},
      {"dist_info_dir", [](std::string_view s) { (void)parse_dist_dir_name(s); }},
      {"pci_ids", [](std::string_view s) { (void)parse_pci_ids_nvidia(s); }},
      {"ld_so_cache", [](std::string_view s) { (void)parse_ld_so_cache(s); }},
      {"version_spec",
       [](std::string_view s) {
         auto v = Version::parse(s);
         auto spec = VersionSpec::parse(s);
         if (v && spec) (void)spec->contains(*v);
         if (v) (void)Version::parse(v->str());
       }},
      {"env_file", env_file},
      {"sanitiser", sanitiser},
      {"path_resolution", path_resolution},
      {"colon_fields", [](std::string_view s) { (void)parse_colon_fields(s); }},
      {"explain_log", explain_log},
      {"dist_metadata", [](std::string_view s) { (void)parse_dist_metadata(s); }},
      {"tf_build_info", [](std::string_view s) { (void)parse_tf_build_info(s); }},
      {"torch_version", [](std::string_view s) { (void)parse_torch_version(s); }},
      {"tfp_import_checks", [](std::string_view s) { (void)read_tfp_import_checks(s); }},
      {"pyvenv_cfg", [](std::string_view s) { (void)parse_pyvenv_cfg(s); }},
      {"registry_export",
       [](std::string_view s) {
         auto reg = parse_registry_export(s, "fuzz.reg");
         (void)reg->subkeys("HKLM\\SOFTWARE\\Python", RegistryBits::wow32);
         (void)reg->text("HKCU\\Software\\Python\\PythonCore\\3.11\\InstallPath", "");
       }},
      {"python_literal", [](std::string_view s) { (void)pyfile::parse_assignments(s); }},
      {"pe_version", [](std::string_view s) { (void)pe_file_version(s); }},
      {"pe_imports",
       [](std::string_view s) {
         // Each read is bounded: the headers, the descriptors, one name at a time.
         auto imports = pe_imports([s](std::uint64_t offset, std::size_t n) -> Result<std::string> {
           if (n > kPeHeadBytes + (kMaxPeImports + 1) * 32) std::abort();
           return offset >= s.size() ? std::string() : std::string(s.substr(offset, n));
         });
         if (imports && imports->size() > 2 * kMaxPeImports) std::abort();
       }},
      {"elf_sections",
       [](std::string_view s) {
         // The input is the file: each read is bounded by what the reader may ask for.
         std::uint64_t asked = 0;
         const ReadRange read = file_reader(s, asked);
         for (const char* name : {".rodata", ".dynstr", ".shstrtab"}) {
           auto bytes = elf_section_bytes(read, name, kMaxCudnnRodata);
           if (bytes && bytes->size() > kMaxCudnnRodata) std::abort();
           if (bytes) (void)cuda_major_in_strings(*bytes);
         }
         if (asked > 3 * (64 + kMaxElfSections * 64 + kMaxElfSectionNames + kMaxCudnnRodata)) std::abort();
       }},
      {"elf_symbols",
       [](std::string_view s) {
         std::uint64_t asked = 0;
         const ReadRange read = file_reader(s, asked);
         auto symbols = elf_dynamic_symbols(read, "nccl");
         if (symbols) {
           for (const std::string& name : symbols->undefined) {
             if (!name.starts_with("nccl")) std::abort();
           }
           if (symbols->search_path.size() > 64) std::abort();
         }
         if (asked > 3 * (64 + kMaxElfSections * 64 + kMaxElfSectionNames) + kMaxElfDynsym + kMaxElfDynstr + 65536) {
           std::abort();
         }
       }},
      {"elf_load_problem",
       [](std::string_view s) {
         // A TensorFlow plugin's header, program headers and PT_DYNAMIC: bounded reads, whatever
         // the counts and offsets say.
         std::uint64_t asked = 0;
         (void)elf_load_problem(file_reader(s, asked), "x86_64");
         if (asked > kMaxElfLoadBytes) std::abort();
       }},
      {"network_sysfs",
       [](std::string_view s) {
         (void)parse_hca_rate(s);
         (void)parse_ethernet_speed_gbps(s);
         (void)parse_hca_state(s);
       }},
      {"conda_meta_name",
       [](std::string_view s) {
         (void)parse_conda_meta_filename(s);
         (void)parse_nvidia_wheel_name(s);
       }},
      {"kb_table", kb_table},
      {"explain_rules", explain_rules},
  };
  return kTargets;
}

}  // namespace gpudoctor::fuzz
