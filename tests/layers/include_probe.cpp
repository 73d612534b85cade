// Compiled as a member of one layer (tests/layers/CMakeLists.txt) to show which headers that
// layer can see: GPUDOCTOR_HEADER names the header to include.
#include GPUDOCTOR_HEADER
