#pragma once
/// The environment Windows gives a new logon's processes, from a registry (an export under
/// --root): what a new terminal sees when no --env-file says what one did see.
#include <string>
#include <vector>

#include "platform/registry.hpp"
#include "platform/system_view.hpp"

namespace gpudoctor {

/// Adds to `env` the variables of a new logon that it does not hold: the system variables of
/// HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Environment, then the user's of
/// HKCU\Environment (a user variable overrides a system one, except Path: the system Path
/// followed by the user's), REG_EXPAND_SZ values expanded, %VAR% by %VAR% (Microsoft Learn,
/// "Environment Variables", Win32). Returns the names added.
std::vector<std::string> add_logon_environment(const Registry& reg, EnvMap& env);

}  // namespace gpudoctor
