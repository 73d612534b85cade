#include "gpu/bench_kernels.hpp"

namespace gpudoctor::gpu {

const char* stream_kernels_ptx() {
  // Grid-stride loops: any grid covers any n, so the launch size is a tuning choice only.
  return R"PTX(.version 6.0
.target sm_50
.address_size 64

.visible .entry gpudoctor_copy(
	.param .u64 out_param,
	.param .u64 in_param,
	.param .u64 n_param
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<5>;
	.reg .f32 %f<2>;
	.reg .b64 %rd<12>;

	ld.param.u64 %rd1, [out_param];
	ld.param.u64 %rd2, [in_param];
	ld.param.u64 %rd3, [n_param];
	cvta.to.global.u64 %rd1, %rd1;
	cvta.to.global.u64 %rd2, %rd2;
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.wide.u32 %rd4, %r1, %r2, 0;
	cvt.u64.u32 %rd5, %r3;
	add.s64 %rd4, %rd4, %rd5;
	mov.u32 %r4, %nctaid.x;
	mul.wide.u32 %rd6, %r4, %r2;
COPY_LOOP:
	setp.ge.u64 %p1, %rd4, %rd3;
	@%p1 bra COPY_DONE;
	shl.b64 %rd7, %rd4, 2;
	add.s64 %rd8, %rd2, %rd7;
	ld.global.f32 %f1, [%rd8];
	add.s64 %rd9, %rd1, %rd7;
	st.global.f32 [%rd9], %f1;
	add.s64 %rd4, %rd4, %rd6;
	bra COPY_LOOP;
COPY_DONE:
	ret;
}

.visible .entry gpudoctor_triad(
	.param .u64 a_param,
	.param .u64 b_param,
	.param .u64 c_param,
	.param .f32 s_param,
	.param .u64 n_param
)
{
	.reg .pred %p<2>;
	.reg .b32 %r<5>;
	.reg .f32 %f<5>;
	.reg .b64 %rd<14>;

	ld.param.u64 %rd1, [a_param];
	ld.param.u64 %rd2, [b_param];
	ld.param.u64 %rd3, [c_param];
	ld.param.f32 %f1, [s_param];
	ld.param.u64 %rd4, [n_param];
	cvta.to.global.u64 %rd1, %rd1;
	cvta.to.global.u64 %rd2, %rd2;
	cvta.to.global.u64 %rd3, %rd3;
	mov.u32 %r1, %ctaid.x;
	mov.u32 %r2, %ntid.x;
	mov.u32 %r3, %tid.x;
	mad.wide.u32 %rd5, %r1, %r2, 0;
	cvt.u64.u32 %rd6, %r3;
	add.s64 %rd5, %rd5, %rd6;
	mov.u32 %r4, %nctaid.x;
	mul.wide.u32 %rd7, %r4, %r2;
TRIAD_LOOP:
	setp.ge.u64 %p1, %rd5, %rd4;
	@%p1 bra TRIAD_DONE;
	shl.b64 %rd8, %rd5, 2;
	add.s64 %rd9, %rd2, %rd8;
	ld.global.f32 %f2, [%rd9];
	add.s64 %rd10, %rd3, %rd8;
	ld.global.f32 %f3, [%rd10];
	fma.rn.f32 %f4, %f1, %f3, %f2;
	add.s64 %rd11, %rd1, %rd8;
	st.global.f32 [%rd11], %f4;
	add.s64 %rd5, %rd5, %rd7;
	bra TRIAD_LOOP;
TRIAD_DONE:
	ret;
}
)PTX";
}

}  // namespace gpudoctor::gpu
