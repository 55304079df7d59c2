// gridsync.cu: the CUDA baseline for bench/: the same loop as
// bench/kernels/loop.cl (ITERS phases of a grid-stride increment) with
// cooperative_groups grid.sync() as the barrier, under a cooperative launch.
// Build on the GPU machine: nvcc -O3 -arch=sm_90 -o gridsync bench/gridsync.cu
// Usage: gridsync [short long reps] ; configs: 132,264,528,full x 256 and
// 132,264 x 1024 (full = occupancy API blocks/SM x SMs).
// Prints  OCCUPANCY L blocks_per_sm full
//         RESULT gridsync G L us_per_iter launch_us G
// with us_per_iter = (median T(long) - median T(short)) / (long - short),
// timed with CUDA events.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <algorithm>
#include <vector>
namespace cg = cooperative_groups;

#define CK(x)                                                                 \
  do {                                                                        \
    cudaError_t e_ = (x);                                                     \
    if (e_ != cudaSuccess) {                                                  \
      fprintf(stderr, "gridsync: %s: %s\n", #x, cudaGetErrorString(e_));      \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

__global__ void loop(unsigned *data, unsigned n, unsigned iters) {
  cg::grid_group grid = cg::this_grid();
  for (unsigned it = 0; it < iters; it++) {
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += gridDim.x * blockDim.x)
      data[i] += 1u;
    grid.sync();
  }
}

static float run(unsigned *d, unsigned n, unsigned iters, int g, int l) {
  void *args[] = {&d, &n, &iters};
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  CK(cudaEventRecord(a));
  CK(cudaLaunchCooperativeKernel((void *)loop, dim3(g), dim3(l), args, 0, 0));
  CK(cudaGetLastError());
  CK(cudaEventRecord(b));
  CK(cudaEventSynchronize(b));
  float ms;
  CK(cudaEventElapsedTime(&ms, a, b));
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return ms * 1000.0f;
}

static float med(unsigned *d, unsigned n, unsigned iters, int g, int l,
                 int reps) {
  std::vector<float> t;
  for (int r = 0; r < reps; r++)
    t.push_back(run(d, n, iters, g, l));
  std::sort(t.begin(), t.end());
  return reps % 2 ? t[reps / 2] : 0.5f * (t[reps / 2 - 1] + t[reps / 2]);
}

int main(int argc, char **argv) {
  unsigned shrt = argc > 1 ? atoi(argv[1]) : 100;
  unsigned lng = argc > 2 ? atoi(argv[2]) : 2100;
  int reps = argc > 3 ? atoi(argv[3]) : 7;
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  int sms = p.multiProcessorCount;
  int per256 = 0, per1024 = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per256, loop, 256, 0));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per1024, loop, 1024, 0));
  printf("DEVICE %s sms=%d\n", p.name, sms);
  printf("OCCUPANCY 256 %d %d\n", per256, per256 * sms);
  printf("OCCUPANCY 1024 %d %d\n", per1024, per1024 * sms);
  int cfg[][2] = {{sms, 256},     {2 * sms, 256},  {4 * sms, 256},
                  {per256 * sms, 256}, {sms, 1024}, {2 * sms, 1024}};
  for (auto &c : cfg) {
    int g = c[0], l = c[1];
    if (g > (l == 256 ? per256 : per1024) * sms) {
      printf("SKIP gridsync %d %d (over occupancy)\n", g, l);
      continue;
    }
    unsigned n = (unsigned)g * l;
    unsigned *d;
    CK(cudaMalloc(&d, n * sizeof *d));
    CK(cudaMemset(d, 0, n * sizeof *d));
    run(d, n, 10, g, l); // warm-up
    float t0 = med(d, n, 0, g, l, reps);
    float ts = med(d, n, shrt, g, l, reps);
    float tl = med(d, n, lng, g, l, reps);
    printf("RESULT gridsync %d %d %.3f %.1f %d\n", g, l,
           (tl - ts) / (lng - shrt), t0, g);
    fflush(stdout);
    CK(cudaFree(d));
  }
  return 0;
}
