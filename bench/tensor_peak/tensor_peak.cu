// The tensor cores' issue peak on this GPU, measured: how many FLOP/s a kernel that does nothing
// but matrix instructions (no memory traffic in its loop) reaches with
//   - mma.sync.m16n8k16 (the warp-level MMA of sm_80 on, what ldsopt's `--target cuda` kernels
//     use on Hopper): f16 and bf16 into f32, operands in registers;
//   - wgmma.mma_async m64n256k16 (sm_90a, `--target cuda-sm90a`): f16 into f32, both operands
//     read from LDS by descriptors (128-byte swizzle), as ldsopt's wgmma kernels read them.
// Each configuration runs a grid of 132 x BLOCKS_PER_SM workgroups; every launch is timed with
// CUDA events (median of 7 after 2 warm-ups). Values are meaningless (random bits); only rates.
//   bench/tensor_peak/run.sh OUT   (nvcc -gencode arch=compute_90a,code=sm_90a)
#include <cstdio>
#include <cstdint>
#include <algorithm>
#include <vector>
#include <cuda_runtime.h>
#include "wgmma_operands.inc"

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { \
  fprintf(stderr, "error: %s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

__device__ uint32_t mix(uint32_t x) { x ^= x >> 16; x *= 0x7feb352d; x ^= x >> 15; x *= 0x846ca68b; return x ^ (x >> 16); }
// A random 16-bit pattern per half that is a finite f16/bf16 of moderate size (exponent bits 0x3xxx).
__device__ uint32_t halves(uint32_t seed) { return (mix(seed) & 0x03ff03ffu) | 0x3c003c00u; }

template <int CHAINS, bool BF16>
__global__ void mma_sync_peak(float* sink, int iters) {
  uint32_t t = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t a0 = halves(t), a1 = halves(t + 1), a2 = halves(t + 2), a3 = halves(t + 3), b0 = halves(t + 4), b1 = halves(t + 5);
  float c[CHAINS][4];
#pragma unroll
  for (int j = 0; j < CHAINS; ++j) c[j][0] = c[j][1] = c[j][2] = c[j][3] = 0.f;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int j = 0; j < CHAINS; ++j) {
      if (BF16)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(c[j][0]), "+f"(c[j][1]), "+f"(c[j][2]), "+f"(c[j][3])
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
      else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(c[j][0]), "+f"(c[j][1]), "+f"(c[j][2]), "+f"(c[j][3])
                     : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
    }
  }
  float s = 0.f;
#pragma unroll
  for (int j = 0; j < CHAINS; ++j) s += c[j][0] + c[j][1] + c[j][2] + c[j][3];
  if (s == 1234.5f) sink[t] = s;  // never true in practice; keeps the products alive
}

// One warpgroup (128 threads) per 64-row slab; WARPGROUPS of them share the B tile.
constexpr int WG_N = 256, WG_K = 64;  // one 128-byte swizzled K row of f16
__device__ uint64_t descriptor(const void* smem) {
  uint64_t addr = (uint64_t)__cvta_generic_to_shared(smem);
  return ((addr & 0x3ffff) >> 4) | (1ull << 16) | ((uint64_t)(1024 >> 4) << 32) | (1ull << 62);
}

template <int WARPGROUPS, int PER_GROUP>
__global__ void wgmma_peak(float* sink, int iters) {
  extern __shared__ __align__(1024) uint8_t smem[];
  uint32_t* words = (uint32_t*)smem;
  const int a_bytes = 64 * WG_K * 2 * WARPGROUPS, b_bytes = WG_N * WG_K * 2;
  for (int i = threadIdx.x; i < (a_bytes + b_bytes) / 4; i += blockDim.x) words[i] = halves(i * 7919 + blockIdx.x);
  __syncthreads();
  int wg = threadIdx.x / 128;
  uint64_t da = descriptor(smem + wg * 64 * WG_K * 2), db = descriptor(smem + a_bytes);
  float d[128];
#pragma unroll
  for (int i = 0; i < 128; ++i) d[i] = 0.f;
  for (int it = 0; it < iters; ++it) {
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
#pragma unroll
    for (int j = 0; j < PER_GROUP; ++j) {
      uint64_t ka = da + 2 * (j % 4), kb = db + 2 * (j % 4);  // K slice j % 4: 32 bytes in
      asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
                   "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 " WGMMA_REGS ", " WGMMA_A ", " WGMMA_B
                   ", p, 1, 1, 0, 0;\n}"
                   : WGMMA_OUTS : "l"(ka), "l"(kb));
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
  }
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < 128; ++i) s += d[i];
  if (s == 1234.5f) sink[threadIdx.x] = s;
}

template <typename K>
static float time_ms(K kernel, int blocks, int threads, int smem, float* sink, int iters) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0); cudaEventCreate(&e1);
  std::vector<float> ms;
  for (int r = 0; r < 9; ++r) {
    cudaEventRecord(e0);
    kernel<<<blocks, threads, smem>>>(sink, iters);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float t; cudaEventElapsedTime(&t, e0, e1);
    if (r >= 2) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int main() {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  int sms = prop.multiProcessorCount;
  printf("device: %s, %d SMs\n", prop.name, sms);
  float* sink;
  CHECK(cudaMalloc(&sink, 1 << 24));
  const int iters = 4096;
  printf("%-44s %8s %10s\n", "kernel", "ms", "TFLOP/s");
  auto report = [](const char* name, float ms, double flop) { printf("%-44s %8.3f %10.1f\n", name, ms, flop / ms / 1e9); };
  // mma.sync: 4096 FLOP a warp an instruction.
  for (int warps : {4, 8, 16}) for (int per_sm : {1, 2, 4}) {
    if (warps * per_sm > 64) continue;
    int blocks = sms * per_sm, threads = 32 * warps;
    char name[96];
    float ms = time_ms(mma_sync_peak<8, false>, blocks, threads, 0, sink, iters);
    snprintf(name, sizeof name, "mma.sync f16 8 chains, %2d warps x %d a SM", warps, per_sm);
    report(name, ms, 4096.0 * 8 * iters * warps * (double)blocks);
    CHECK(cudaGetLastError());
  }
  for (int warps : {8, 16}) {
    int blocks = sms * 2, threads = 32 * warps;
    char name[96];
    float ms = time_ms(mma_sync_peak<8, true>, blocks, threads, 0, sink, iters);
    snprintf(name, sizeof name, "mma.sync bf16 8 chains, %2d warps x 2 a SM", warps);
    report(name, ms, 4096.0 * 8 * iters * warps * (double)blocks);
    ms = time_ms(mma_sync_peak<4, false>, blocks, threads, 0, sink, iters);
    snprintf(name, sizeof name, "mma.sync f16 4 chains, %2d warps x 2 a SM", warps);
    report(name, ms, 4096.0 * 4 * iters * warps * (double)blocks);
    CHECK(cudaGetLastError());
  }
  // wgmma m64n256k16: 2 * 64 * 256 * 16 FLOP a warpgroup an instruction.
  const int witers = 512;
  {
    int smem = 64 * WG_K * 2 * 1 + WG_N * WG_K * 2;
    CHECK(cudaFuncSetAttribute(wgmma_peak<1, 16>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    float ms = time_ms(wgmma_peak<1, 16>, sms, 128, smem, sink, witers);
    report("wgmma m64n256k16 f16, 1 warpgroup a SM", ms, 2.0 * 64 * 256 * 16 * 16 * witers * sms);
    CHECK(cudaGetLastError());
  }
  {
    int smem = 64 * WG_K * 2 * 2 + WG_N * WG_K * 2;
    CHECK(cudaFuncSetAttribute(wgmma_peak<2, 16>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    float ms = time_ms(wgmma_peak<2, 16>, sms, 256, smem, sink, witers);
    report("wgmma m64n256k16 f16, 2 warpgroups a SM", ms, 2.0 * 64 * 256 * 16 * 16 * witers * sms * 2);
    CHECK(cudaGetLastError());
  }
  return 0;
}
