# The source layers (docs/architecture.md): one static library per folder of src/, linked only
# to the layers below it. Each layer's headers are visible through an include root of its own
# (build/layers/<layer>/<layer> -> src/<layer>), which a target sees only by linking that
# layer: a forbidden include ("render/x.cpp" including "kb/...") is a compile error, not a
# review comment. tests/layers/ proves it on every test run.

# gpudoctor_layer(NAME name [LAYERS lower layers...] [LIBS libraries...] [EXTRA generated sources...]
#                 [EXCLUDE regex of sources left out, for a feature the build machine lacks])
function(gpudoctor_layer)
  cmake_parse_arguments(L "" "NAME;EXCLUDE" "LAYERS;LIBS;EXTRA" ${ARGN})
  set(dir ${PROJECT_SOURCE_DIR}/src/${L_NAME})
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${dir}/*.cpp)
  # One file per host platform variant: *_posix.cpp or *_win32.cpp.
  if(WIN32)
    list(FILTER sources EXCLUDE REGEX "_posix\\.cpp$")
  else()
    list(FILTER sources EXCLUDE REGEX "_win32\\.cpp$")
  endif()
  list(FILTER sources EXCLUDE REGEX "/src/cli/main\\.cpp$")
  if(L_EXCLUDE)
    list(FILTER sources EXCLUDE REGEX "${L_EXCLUDE}")
  endif()
  set(root ${PROJECT_BINARY_DIR}/layers/${L_NAME})
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${dir} ${root}/${L_NAME} SYMBOLIC)
  set(target gpudoctor_${L_NAME})
  add_library(${target} STATIC ${sources} ${L_EXTRA})
  target_include_directories(${target} PUBLIC ${root})
  set(deps)
  foreach(layer IN LISTS L_LAYERS)
    list(APPEND deps gpudoctor_${layer})
  endforeach()
  target_link_libraries(${target} PUBLIC ${deps} ${L_LIBS})
  gpudoctor_set_warnings(${target})
  set_property(GLOBAL APPEND PROPERTY GPUDOCTOR_LAYERS ${target})
endfunction()
