function(gpudoctor_set_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4)
  else()
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow
      -Wnon-virtual-dtor -Wold-style-cast -Wcast-align -Woverloaded-virtual
      -Wnull-dereference -Wimplicit-fallthrough
      # Designated initialisers leave the rest default on purpose (STYLE.md).
      -Wno-missing-field-initializers)
    # GCC 12's -Wrestrict misfires inside libstdc++ on `"literal" + std::string` once inlined
    # (GCC bug 105329): noise in every optimised build, never a finding of ours. Debug builds
    # (dev, asan: -Werror) do not inline enough to trigger it and keep the flag set unchanged.
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
      target_compile_options(${target} PRIVATE $<$<NOT:$<CONFIG:Debug>>:-Wno-restrict>)
    endif()
    if(GPUDOCTOR_ENABLE_WARNINGS_AS_ERRORS)
      target_compile_options(${target} PRIVATE -Werror)
    endif()
  endif()
endfunction()
