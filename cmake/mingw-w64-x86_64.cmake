# Cross build for 64-bit Windows with Debian's mingw-w64 (g++-mingw-w64-x86-64-posix):
# scripts/build-windows.sh passes this file. The posix thread model: GCC 12's std::thread and
# std::mutex need winpthreads (linked statically, like everything else; see -static below).
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
# llvm-ar where it is installed: binutils' ar and ranlib take about 50 s to index the COFF archive
# of the unoptimised cli layer (most of a warm Windows build), llvm-ar a fraction of a second.
# Nothing here uses LTO, so the gcc-ar wrappers' plugin is not needed.
find_program(GPUDOCTOR_LLVM_AR NAMES llvm-ar llvm-ar-14)
find_program(GPUDOCTOR_LLVM_RANLIB NAMES llvm-ranlib llvm-ranlib-14)
if(GPUDOCTOR_LLVM_AR AND GPUDOCTOR_LLVM_RANLIB)
  set(CMAKE_AR "${GPUDOCTOR_LLVM_AR}" CACHE FILEPATH "")
  set(CMAKE_RANLIB "${GPUDOCTOR_LLVM_RANLIB}" CACHE FILEPATH "")
else()
  set(CMAKE_AR x86_64-w64-mingw32-gcc-ar-posix CACHE FILEPATH "")
  set(CMAKE_RANLIB x86_64-w64-mingw32-gcc-ranlib-posix CACHE FILEPATH "")
endif()
# Look for libraries and headers in the mingw sysroot (and GPUDOCTOR_DEPS_PREFIX), never in the
# build machine's /usr: a Linux library must not end up in a Windows link.
set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# One self-contained .exe: libstdc++, libgcc and winpthreads in the binary, no DLL beside it.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
# COFF allows 32,767 sections per object; an unoptimised unity batch of the cli layer (CMakeLists.txt)
# has more (one per inline function), so objects use the big-object format.
set(CMAKE_CXX_FLAGS_INIT "-Wa,-mbig-obj")
