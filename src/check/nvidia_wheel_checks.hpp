#pragma once
/// The pip nvidia-* wheels of an environment against their own RECORDs: files gone while pip still
/// lists the wheel, and two wheels of one library (the -cu12 and -cu13 builds) writing the same
/// files. And the one pip command that puts a wheel's files back.
#include <string>
#include <vector>

#include "model/facts.hpp"
#include "model/finding.hpp"

namespace gpudoctor {

/// `pip install "<name><specifier>"`, or, when pip already lists that wheel at a version the
/// specifier takes, `pip install --force-reinstall --no-deps "<name>==<version>"`: a plain install
/// of a listed wheel is a no-op ("Requirement already satisfied") even when its files are gone, and
/// --force-reinstall without --no-deps also moves every dependency to its newest release. The pip
/// is the environment's own (env_pip) unless `pip` names another.
std::string wheel_install_command(const PythonEnvFacts& env, const std::string& name, const std::string& specifier,
                                  const std::string& pip = "");

/// Findings: `nvidia-wheel-files-missing` (error), `nvidia-wheels-overwrite` (warning).
std::vector<Finding> nvidia_wheel_findings(const Facts& facts);

}  // namespace gpudoctor
