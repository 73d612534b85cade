# Where `cmake --install` puts gpudoctor, and the Debian package CPack builds from it. The
# knowledge base is embedded, so the binary is the whole installation.
include(GNUInstallDirs)
if(SKBUILD)
  # A wheel (scikit-build-core): the binary goes to the scripts directory, which pip puts on PATH.
  install(TARGETS gpudoctor RUNTIME DESTINATION ${SKBUILD_SCRIPTS_DIR})
  return()
endif()
install(TARGETS gpudoctor RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES README.md docs/cli.md docs/install.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# scripts/build-deb.sh: cpack -G DEB gives gpudoctor_<version>_<arch>.deb whose Depends come from
# the shared libraries the binary links (dpkg-shlibdeps), not from a hand-kept list.
set(CPACK_PACKAGE_NAME gpudoctor)
set(CPACK_PACKAGE_VENDOR "gpudoctor developers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "finds out why TensorFlow, PyTorch or JAX does not use your NVIDIA GPU")
set(CPACK_PACKAGE_CONTACT "gpudoctor developers")  # no project address exists yet
set(CPACK_PACKAGE_INSTALL_DIRECTORY gpudoctor)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# bench's CPU baseline loads these at run time (dlopen, in a child), so dpkg-shlibdeps cannot see
# them; without them `bench` reports those two figures as skipped, saying what to install.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libopenblas0, libdnnl2")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
  "finds out why TensorFlow, PyTorch or JAX does not use your NVIDIA GPU
 One native binary that reads the machine (GPUs, driver, CUDA toolkits, cuDNN,
 NCCL, Python environments and the frameworks in them) without importing any
 framework or needing a working driver, and says what is wrong and how to fix it.")
include(CPack)
