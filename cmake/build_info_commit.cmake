# Build-time step of cmake/build_info.cmake: the commit the sources are at, "-dirty" when tracked
# files differ from it, "unknown" outside a git checkout (a source tarball).
execute_process(COMMAND git rev-parse --short=12 HEAD
  WORKING_DIRECTORY ${SOURCE_DIR}
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
# --no-optional-locks: no index.lock, so a commit made while a build runs is not refused.
execute_process(COMMAND git --no-optional-locks status --porcelain --untracked-files=no
  WORKING_DIRECTORY ${SOURCE_DIR}
  OUTPUT_VARIABLE dirty OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT commit)
  set(commit "unknown")
elseif(dirty)
  string(APPEND commit "-dirty")
endif()
file(READ ${TEMPLATE} text)
string(REPLACE "@GPUDOCTOR_GIT_COMMIT@" "${commit}" text "${text}")
set(old "")
if(EXISTS ${OUTPUT})
  file(READ ${OUTPUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUTPUT} "${text}")
endif()
