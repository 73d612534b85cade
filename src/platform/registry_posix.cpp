#include "platform/registry.hpp"

namespace gpudoctor {

/// A POSIX host has no registry: a Windows machine is read from a `reg export` file (--registry).
std::unique_ptr<Registry> open_host_registry() {
  return nullptr;
}

}  // namespace gpudoctor
