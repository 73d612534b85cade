// A BLAS shim for bench's CPU SGEMM (fake_bench_test.cpp): a library that exports no BLAS of its
// own and depends on the fake OpenBLAS, as FlexiBLAS or a distribution's alternatives wrapper
// forwards to the real one. dlsym on its handle finds the dependency's cblas_sgemm; the report
// must name the file that holds it.
extern "C" __attribute__((visibility("default"))) int fake_blas_shim_marker() {
  return 1;
}
