# Embeds data files into a generated C++ source as byte arrays, so that the binary carries its
# knowledge base and runs with nothing beside it. Regenerated whenever a data file changes.
# HEADER, FUNCTION and TYPE name the accessor (default: kb/embedded_data.hpp's embedded_data()).
function(gpudoctor_embed_files)
  cmake_parse_arguments(ARG "" "OUTPUT;BASE_DIR;HEADER;FUNCTION;TYPE" "FILES" ${ARGN})
  set(deps)
  foreach(f IN LISTS ARG_FILES)
    list(APPEND deps ${ARG_BASE_DIR}/${f})
  endforeach()
  add_custom_command(
    OUTPUT ${ARG_OUTPUT}
    COMMAND ${CMAKE_COMMAND} -DOUTPUT=${ARG_OUTPUT} -DBASE_DIR=${ARG_BASE_DIR}
            "-DFILES=${ARG_FILES}" "-DHEADER=${ARG_HEADER}" "-DFUNCTION=${ARG_FUNCTION}"
            "-DTYPE=${ARG_TYPE}" -P ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_run.cmake
    DEPENDS ${deps} ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_run.cmake
    COMMENT "Embedding ${ARG_BASE_DIR} into the binary"
    VERBATIM)
endfunction()
