# Version, git commit, compiler and options for `gpudoctor --version`. Everything but the commit
# is known at configure time; the commit is read at every build (cmake/build_info_commit.cmake),
# so a binary built after new commits without a new configure does not name an old one.
set(GPUDOCTOR_GIT_COMMIT "@GPUDOCTOR_GIT_COMMIT@")  # left for the build-time step
if(NOT CMAKE_BUILD_TYPE)
  set(GPUDOCTOR_BUILD_TYPE_TEXT "none")
else()
  set(GPUDOCTOR_BUILD_TYPE_TEXT "${CMAKE_BUILD_TYPE}")
endif()
string(TOUPPER "${CMAKE_BUILD_TYPE}" _bt)
set(GPUDOCTOR_BUILD_OPTIONS "type=${GPUDOCTOR_BUILD_TYPE_TEXT} flags=${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_bt}}")
string(STRIP "${GPUDOCTOR_BUILD_OPTIONS}" GPUDOCTOR_BUILD_OPTIONS)
if(GPUDOCTOR_LEFT_OUT)
  list(JOIN GPUDOCTOR_LEFT_OUT ", " _left_out)
  string(APPEND GPUDOCTOR_BUILD_OPTIONS "; left out: ${_left_out}")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/build_info.cpp.in
               ${CMAKE_CURRENT_BINARY_DIR}/generated/build_info.cpp.template @ONLY)
# Runs at every build; rewrites build_info.cpp only when the commit (or dirtiness) changed, so
# an unchanged tree recompiles nothing (Ninja re-reads the byproduct's time).
add_custom_target(gpudoctor_build_info
  COMMAND ${CMAKE_COMMAND}
          -DSOURCE_DIR=${CMAKE_CURRENT_SOURCE_DIR}
          -DTEMPLATE=${CMAKE_CURRENT_BINARY_DIR}/generated/build_info.cpp.template
          -DOUTPUT=${CMAKE_CURRENT_BINARY_DIR}/generated/build_info.cpp
          -P ${CMAKE_CURRENT_LIST_DIR}/build_info_commit.cmake
  BYPRODUCTS ${CMAKE_CURRENT_BINARY_DIR}/generated/build_info.cpp
  COMMENT "" VERBATIM)
