#include "gpu/verify_kernels.hpp"

namespace gpudoctor::gpu {

const char* affine_kernel_ptx() {
  // One thread per element; the index is added so that a launch that runs the wrong threads,
  // or none, cannot pass for one that ran them all.
  return R"PTX(.version 6.0
.target sm_50
.address_size 64

.visible .entry gpudoctor_affine(
	.param .u64 out_param,
	.param .u64 in_param,
	.param .f32 a_param,
	.param .u32 n_param
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<6>;
	.reg .f32 %f<5>;
	.reg .b64 %rd<8>;

	ld.param.u64 %rd1, [out_param];
	ld.param.u64 %rd2, [in_param];
	ld.param.f32 %f1, [a_param];
	ld.param.u32 %r1, [n_param];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	setp.ge.u32 %p1, %r5, %r1;
	@%p1 bra DONE;
	cvta.to.global.u64 %rd3, %rd2;
	cvta.to.global.u64 %rd4, %rd1;
	mul.wide.u32 %rd5, %r5, 4;
	add.s64 %rd6, %rd3, %rd5;
	ld.global.f32 %f2, [%rd6];
	cvt.rn.f32.u32 %f3, %r5;
	fma.rn.f32 %f4, %f1, %f2, %f3;
	add.s64 %rd7, %rd4, %rd5;
	st.global.f32 [%rd7], %f4;
DONE:
	ret;
}
)PTX";
}

}  // namespace gpudoctor::gpu
