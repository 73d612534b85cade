# The dependencies of a cross build (scripts/build-windows.sh), taken from GPUDOCTOR_DEPS_PREFIX:
# a list of folders, each with include/ and lib/. Built there from Debian's sources for mingw
# (RE2, SQLite, mstch, cpp-httplib's single header) or header-only (CLI11, fmt, spdlog, toml++,
# nlohmann-json, Boost's headers for mstch). Every file is named: nothing of the build machine's
# /usr/lib can slip into a Windows link.

# gpudoctor_dep_path(VAR relative-path): the first folder of the prefix list that holds it.
function(gpudoctor_dep_path var rel)
  foreach(dir IN LISTS GPUDOCTOR_DEPS_PREFIX)
    if(EXISTS "${dir}/${rel}")
      set(${var} "${dir}/${rel}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "${rel} is in none of GPUDOCTOR_DEPS_PREFIX (${GPUDOCTOR_DEPS_PREFIX}); run scripts/build-windows.sh")
endfunction()

find_package(Threads REQUIRED)

# gpudoctor_header_target(TARGET header): an imported target whose include folder holds `header`.
function(gpudoctor_header_target target header)
  gpudoctor_dep_path(path include/${header})
  string(LENGTH "${path}" n)
  string(LENGTH "/${header}" m)
  math(EXPR n "${n} - ${m}")
  string(SUBSTRING "${path}" 0 ${n} inc)
  add_library(${target} INTERFACE IMPORTED)
  set_target_properties(${target} PROPERTIES INTERFACE_INCLUDE_DIRECTORIES "${inc}")
endfunction()

gpudoctor_header_target(CLI11::CLI11 CLI/CLI.hpp)
gpudoctor_header_target(nlohmann_json::nlohmann_json nlohmann/json.hpp)
gpudoctor_header_target(fmt::fmt-header-only fmt/format.h)
set_property(TARGET fmt::fmt-header-only PROPERTY INTERFACE_COMPILE_DEFINITIONS FMT_HEADER_ONLY=1)
# Debian's spdlog is configured for an external fmt (tweakme.h): the header-only fmt above.
gpudoctor_header_target(spdlog::spdlog_header_only spdlog/spdlog.h)
set_target_properties(spdlog::spdlog_header_only PROPERTIES INTERFACE_COMPILE_DEFINITIONS SPDLOG_HEADER_ONLY
  INTERFACE_LINK_LIBRARIES "fmt::fmt-header-only;Threads::Threads")
gpudoctor_header_target(gpudoctor_toml toml++/toml.h)
set_property(TARGET gpudoctor_toml PROPERTY INTERFACE_COMPILE_DEFINITIONS TOML_HEADER_ONLY=1)
gpudoctor_header_target(gpudoctor_boost_headers boost/variant.hpp)

gpudoctor_header_target(gpudoctor_re2 re2/re2.h)
gpudoctor_dep_path(re2_archive lib/libre2.a)
set_property(TARGET gpudoctor_re2 PROPERTY INTERFACE_LINK_LIBRARIES "${re2_archive};Threads::Threads")

gpudoctor_header_target(mstch::mstch mstch/mstch.hpp)
gpudoctor_dep_path(mstch_archive lib/libmstch.a)
set_property(TARGET mstch::mstch PROPERTY INTERFACE_LINK_LIBRARIES "${mstch_archive};gpudoctor_boost_headers")

gpudoctor_header_target(gpudoctor_sqlite sqlite3.h)
gpudoctor_dep_path(sqlite_archive lib/libsqlite3.a)
set_property(TARGET gpudoctor_sqlite PROPERTY INTERFACE_LINK_LIBRARIES "${sqlite_archive};Threads::Threads")
set(GPUDOCTOR_SQLITE gpudoctor_sqlite)

# serve's HTTP server: cpp-httplib as upstream ships it (one header) over Winsock.
gpudoctor_header_target(gpudoctor_httplib httplib.h)
set_property(TARGET gpudoctor_httplib PROPERTY INTERFACE_LINK_LIBRARIES ws2_32)
set(GPUDOCTOR_HTTPLIB gpudoctor_httplib)

set(GPUDOCTOR_LIBS fmt::fmt-header-only spdlog::spdlog_header_only gpudoctor_toml gpudoctor_re2)
