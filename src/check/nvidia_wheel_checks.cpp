#include "check/nvidia_wheel_checks.hpp"

#include <algorithm>

#include "check/which_pip.hpp"
#include "core/text.hpp"
#include "core/version.hpp"
#include "model/framework.hpp"

namespace gpudoctor {

std::string wheel_install_command(const PythonEnvFacts& env, const std::string& name, const std::string& specifier,
                                  const std::string& pip_given) {
  const std::string pip = pip_given.empty() ? env_pip(env) : pip_given;
  auto spec = VersionSpec::parse_requirement(specifier);
  for (const NvidiaWheel& w : env.nvidia_wheels) {
    if (w.package != name || (!specifier.empty() && (!spec || !spec->contains(w.version)))) continue;
    return pip + " install --force-reinstall --no-deps \"" + name + "==" + w.version.str() + "\"";
  }
  return pip + " install \"" + name + specifier + "\"";
}

namespace {

std::string wheel_line(const NvidiaWheel& w) {
  return w.package + " " + w.version.str();
}

const NvidiaWheel* wheel_named(const PythonEnvFacts& env, const std::string& package) {
  for (const NvidiaWheel& w : env.nvidia_wheels) {
    if (w.package == package) return &w;
  }
  return nullptr;
}

/// The frameworks of the environment built for CUDA `major` ("TensorFlow 2.21.0").
std::vector<std::string> frameworks_of_major(const PythonEnvFacts& env, std::optional<int> major) {
  std::vector<std::string> out;
  if (!major) return out;
  for (const FrameworkFacts& fw : env.frameworks) {
    if (fw.cuda_build.value_or(false) && fw.cuda_version && fw.cuda_version->major() == *major) {
      out.push_back(installed_display_name(fw.name) + " " + fw.version.str());
    }
  }
  return out;
}

std::string major_text(std::optional<int> major) {
  return major ? "CUDA " + std::to_string(*major) : std::string("an unknown CUDA");
}

/// The site-packages folder whose RECORD paths the wheel's files are (the one holding its lib_dir).
std::string env_site(const PythonEnvFacts& env, const NvidiaWheel& w) {
  for (const std::string& site : env.site_packages) {
    if (!site.empty() && w.lib_dir.starts_with(site) && w.lib_dir.size() > site.size() &&
        (w.lib_dir[site.size()] == '/' || w.lib_dir[site.size()] == '\\'))
      return site;
  }
  return env.path;
}

void missing_files(const PythonEnvFacts& env, const NvidiaWheel& w, std::vector<Finding>& out) {
  if (!w.missing_count || *w.missing_count <= 0) return;
  const std::string dir = w.lib_dir.empty() ? env.path : w.lib_dir;
  const std::string listed =
      join(w.missing_files, ", ") + (*w.missing_count > static_cast<int>(w.missing_files.size()) ? ", ..." : "");
  out.push_back(Finding{
      .id = "nvidia-wheel-files-missing",
      .severity = Severity::error,
      .area = FindingArea::libraries,
      .title = wheel_line(w) + " in " + env.path + " is missing " + std::to_string(*w.missing_count) +
               (*w.missing_count == 1 ? " library" : " libraries") + " its RECORD lists",
      .detail = "pip lists the wheel (its dist-info is there), but its RECORD's " + listed +
                (*w.missing_count == 1 ? " is" : " are") + " not in " + env_site(env, w) +
                ": a half-done uninstall (another wheel sharing these files was removed) or a deleted directory. "
                "Whatever opens it gets another copy from the loader's search, of another version, or none; "
                "`pip install` of the same version answers \"Requirement already satisfied\" and restores nothing.",
      .fix = "Put the wheel's files back in " + env.path + ": `" +
             wheel_install_command(env, w.package, "==" + w.version.str()) +
             "` (--no-deps: its dependencies stay at the versions the frameworks pinned).",
      .evidence = {dir, w.package},
      .source = "the wheel's .dist-info/RECORD (PEP 376/627: the files an installed distribution owns)"});
}

void overwritten(const PythonEnvFacts& env, const NvidiaWheel& w, std::vector<Finding>& out) {
  if (w.overwritten_by.empty()) return;
  const NvidiaWheel* owner = wheel_named(env, w.overwritten_by);
  if (owner == nullptr) return;
  const std::vector<std::string> stranded = frameworks_of_major(env, w.cuda_major);
  const std::string them =
      stranded.empty() ? "whatever needs the " + major_text(w.cuda_major) + " build" : join(stranded, ", ");
  out.push_back(Finding{
      .id = "nvidia-wheels-overwrite",
      .severity = Severity::warning,
      .area = FindingArea::libraries,
      .title =
          wheel_line(w) + " and " + wheel_line(*owner) + " are both installed in " + env.path +
          " and overwrite each other" +
          (stranded.empty() ? std::string()
                            : ": " + join(stranded, ", ") + " gets the " + major_text(owner->cuda_major) + " build"),
      .detail = "Both wheels install the same files in " + w.lib_dir +
                " (their RECORDs list them); the files there now "
                "are " +
                wheel_line(*owner) + "'s, built for " + major_text(owner->cuda_major) +
                (w.overwritten_source.empty() ? std::string() : " (" + w.overwritten_source + ")") + ". " +
                (stranded.empty() ? std::string()
                                  : them + " is built for " + major_text(w.cuda_major) + " and loads them. ") +
                "Uninstalling either wheel deletes the files both list.",
      .fix = "Keep one CUDA major per environment (NVIDIA ships one " + w.library +
             " build per CUDA major, and these two wheels install the same paths): move " + them +
             " to an environment of its own (`python3 -m venv`), then in " + env.path + " `" + env_pip(env) +
             " uninstall -y " + w.package + "` and `" +
             wheel_install_command(env, owner->package, "==" + owner->version.str()) +
             "` (the uninstall deletes the shared files, the reinstall puts " + owner->package + "'s back).",
      .evidence = {w.lib_dir, w.package, owner->package},
      .source = "the two wheels' .dist-info/RECORD; [official] cuDNN support matrix: one build per CUDA major"});
}

}  // namespace

std::vector<Finding> nvidia_wheel_findings(const Facts& facts) {
  std::vector<Finding> out;
  for (const PythonEnvFacts& env : facts.python_envs) {
    for (const NvidiaWheel& w : env.nvidia_wheels) {
      missing_files(env, w, out);
      overwritten(env, w, out);
    }
  }
  return out;
}

}  // namespace gpudoctor
