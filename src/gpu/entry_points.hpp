#pragma once
/// Binding one declared list of entry points to a loaded library (DCGM style). Each API header
/// (nvml_api.hpp, cuda_driver_api.hpp) declares its entry points once, as an X-macro:
///
///   X(slot, return type, (parameter types), need, "newest_symbol", "older_symbol", ...)
///
/// From that one list come the function-pointer members of the API table and the loader.
/// Symbol names are tried newest first; the first one the library exports fills the slot.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "model/gpu_reports.hpp"
#include "platform/dynamic_library.hpp"

namespace gpudoctor::gpu {

enum class Need { required, optional };

using gpudoctor::BoundSymbol;  // a model type (model/gpu_reports.hpp)

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

/// symbol_missing, naming every absent required entry point of the library at `path`.
Error missing_entry_points_error(const BindState& state, const std::string& path);

/// What every API table holds before its slots: the library, whose handle keeps it mapped for as
/// long as the pointers are used (so a table is move-only), and what was bound, by which name.
struct VendorLibrary {
  DynamicLibrary library;
  std::vector<BoundSymbol> bound;
};

/// Opens the first of `names` that loads and binds the API table `Api` (a VendorLibrary, then
/// the declared slots) through `bind_all(api, state)`, a lambda that expands the
/// API's list with GPUDOCTOR_BIND_ENTRY_POINT. Errors: not_found / load_failed from the loader,
/// symbol_missing (message names every absent required entry point; the library is closed).
template <class Api, class BindAll>
Result<Api> load_api(const std::vector<std::string>& names, BindAll bind_all) {
  auto opened = DynamicLibrary::open_first(names);
  if (!opened) return opened.error();
  Api api{VendorLibrary{.library = std::move(opened).value(), .bound = {}}};
  BindState state;
  bind_all(api, state);
  if (!state.missing_required.empty()) {
    // `api` goes out of scope here, closing the handle.
    return missing_entry_points_error(state, api.library.path());
  }
  api.bound = std::move(state.bound);
  return api;
}

/// One row of an API's own table of status codes (from NVIDIA's headers).
struct CodeName {
  int code;
  const char* name;
};

/// The name `table` gives `code`, else `unknown_prefix` + the number ("NVML_ERROR_42"): a
/// library newer than this build may answer codes it has never heard of.
std::string code_name(std::span<const CodeName> table, int code, std::string_view unknown_prefix);

}  // namespace gpudoctor::gpu

/// Members of an API table: one function pointer per slot.
#define GPUDOCTOR_DECLARE_ENTRY_POINT(slot, ret, params, need, ...) ret(*slot) params = nullptr;
/// Loader body: `api` (with its `library`) and `state` must be in scope.
#define GPUDOCTOR_BIND_ENTRY_POINT(slot, ret, params, need, ...) \
  ::gpudoctor::gpu::bind_entry_point(api.library, api.slot, #slot, need, {__VA_ARGS__}, state);
