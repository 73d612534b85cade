#pragma once
/// Binding one declared list of entry points to a loaded library (DCGM style). Each API header
/// (nvml_api.hpp, cuda_driver_api.hpp) declares its entry points once, as an X-macro:
///
///   X(slot, return type, (parameter types), need, "newest_symbol", "older_symbol", ...)
///
/// From that one list come the function-pointer members of the API table and the loader.
/// Symbol names are tried newest first; the first one the library exports fills the slot.
#include <string>
#include <vector>

#include "platform/dynamic_library.hpp"

namespace gpudoctor::gpu {

enum class Need { required, optional };

/// Which exported name filled a slot ("init" <- "nvmlInit"): tells an old driver from a new.
struct BoundSymbol {
  std::string slot;
  std::string symbol;
};

struct BindState {
  std::vector<BoundSymbol> bound;
  std::vector<std::string> missing_required;  ///< "nvmlDeviceGetCount_v2 | nvmlDeviceGetCount"
};

/// Looks up `names` in order; stores the first hit in `slot`.
template <class Fn>
void bind_entry_point(const DynamicLibrary& lib, Fn& slot, const char* slot_name, Need need,
                      std::initializer_list<const char*> names, BindState& state) {
  for (const char* name : names) {
    if (void* address = lib.symbol(name)) {
      // POSIX guarantees that dlsym's object pointer converts to a function pointer.
      slot = reinterpret_cast<Fn>(address);
      state.bound.push_back({slot_name, name});
      return;
    }
  }
  slot = nullptr;
  if (need == Need::required) {
    std::string alternatives;
    for (const char* name : names) {
      if (!alternatives.empty()) alternatives += " | ";
      alternatives += name;
    }
    state.missing_required.push_back(std::move(alternatives));
  }
}

}  // namespace gpudoctor::gpu

/// Members of an API table: one function pointer per slot.
#define GPUDOCTOR_DECLARE_ENTRY_POINT(slot, ret, params, need, ...) ret(*slot) params = nullptr;
/// Loader body: `api` (with its `library`) and `state` must be in scope.
#define GPUDOCTOR_BIND_ENTRY_POINT(slot, ret, params, need, ...) \
  ::gpudoctor::gpu::bind_entry_point(api.library, api.slot, #slot, need, {__VA_ARGS__}, state);
