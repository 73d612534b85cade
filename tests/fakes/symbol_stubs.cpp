// Libraries built only to be read and loaded by symbol_import_test.cpp: an importer and two
// releases of the library it imports from, in the shape of the real ones (the PyPI wheels read in
// docs/knowledge-base.md). torch 2.15.0's libtorch_cuda.so imports ncclCommResume, which NCCL
// 2.29.2 lacks; cuSPARSE 12.5.10.65 imports nvJitLink functions by versioned name
// (__nvJitLinkComplete_12_9), which nvJitLink 12.5.82 lacks. Each build defines one macro.
#define STUB_EXPORT extern "C" __attribute__((visibility("default")))

#if defined(GPUDOCTOR_STUB_NCCL_OLD) || defined(GPUDOCTOR_STUB_NCCL_NEW)
STUB_EXPORT int ncclGetVersion(int* version) {
  *version = 22902;
  return 0;
}
STUB_EXPORT int ncclCommInitRank(void*, int, const void*, int) {
  return 0;
}
#ifdef GPUDOCTOR_STUB_NCCL_NEW
STUB_EXPORT int ncclCommResume(void*) {
  return 0;
}
#endif
#endif

#ifdef GPUDOCTOR_STUB_TORCH_CUDA
extern "C" int ncclGetVersion(int* version);
extern "C" int ncclCommResume(void* comm);
// The calls make them imports (undefined in .dynsym, bound through the PLT), as in torch.
STUB_EXPORT int torch_stub_nccl_version() {
  int v = 0;
  ncclGetVersion(&v);
  return ncclCommResume(nullptr) + v;
}
#endif

#if defined(GPUDOCTOR_STUB_NVJITLINK_OLD) || defined(GPUDOCTOR_STUB_NVJITLINK_NEW)
STUB_EXPORT int __nvJitLinkCreate_12_0(void**, unsigned, const char**) {
  return 0;
}
STUB_EXPORT int nvJitLinkCreate(void**, unsigned, const char**) {
  return 0;
}
#ifdef GPUDOCTOR_STUB_NVJITLINK_NEW
STUB_EXPORT int __nvJitLinkComplete_12_9(void*) {
  return 0;
}
#endif
#endif

#ifdef GPUDOCTOR_STUB_CUSPARSE
extern "C" int __nvJitLinkCreate_12_0(void**, unsigned, const char**);
extern "C" int __nvJitLinkComplete_12_9(void*);
STUB_EXPORT int cusparse_stub_link() {
  void* handle = nullptr;
  __nvJitLinkCreate_12_0(&handle, 0, nullptr);
  return __nvJitLinkComplete_12_9(handle);
}
#endif
