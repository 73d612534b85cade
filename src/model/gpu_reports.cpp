#include "model/gpu_reports.hpp"

namespace gpudoctor {

namespace {

constexpr LibraryStatus kNamed[] = {LibraryStatus::ok,          LibraryStatus::not_found, LibraryStatus::load_failed,
                                    LibraryStatus::init_failed, LibraryStatus::timeout,   LibraryStatus::crashed,
                                    LibraryStatus::skipped};

}  // namespace

const char* to_string(LibraryStatus s) {
  switch (s) {
    case LibraryStatus::none:
      return "";
    case LibraryStatus::ok:
      return "ok";
    case LibraryStatus::not_found:
      return "not-found";
    case LibraryStatus::load_failed:
      return "load-failed";
    case LibraryStatus::init_failed:
      return "init-failed";
    case LibraryStatus::timeout:
      return "timeout";
    case LibraryStatus::crashed:
      return "crashed";
    case LibraryStatus::skipped:
      return "skipped";
  }
  return "";
}

LibraryStatus parse_library_status(std::string_view name) {
  for (LibraryStatus s : kNamed) {
    if (name == to_string(s)) return s;
  }
  return LibraryStatus::none;
}

}  // namespace gpudoctor
