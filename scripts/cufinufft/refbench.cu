// Side-by-side reference timings for docs/gpu-report.md: cuFINUFFT (built from its public source on the GPU machine by
// scripts/cufinufft-bench.sh, never kept in this repository) on the same workloads as GpuBenchmark.rows(): uniform
// random points, golden-angle radial and the 3D kooshball, float, device-resident, every spreading method it has.
//
//   refbench TRAJ DIM N COUNT TRANSFORMS EPS [RUNS]
//     TRAJ random | radial | kooshball; N the image side; COUNT points (random) or spokes (radial, kooshball)
//
// Per (type, method, sort) that plans: setpts median (CUDA events, plan reused, 7 calls after one warm-up), execute
// median and min over RUNS (default 30) after 5 warm-ups with the inputs rotated over 3 sets, the pinned end-to-end
// median (asynchronous H2D copy of the input, execute, D2H copy of the output, pinned host buffers; setpts excluded, as
// ../shared/GPU.md measured it) and the relative l2 error against the exact sum in double on 100 random outputs.
// One line per candidate ("CAND …") and per type the fastest ("BEST …"), key=value fields.
#include <cufinufft.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#define CK(x)                                                                                                         \
  do {                                                                                                                \
    cudaError_t e_ = (x);                                                                                             \
    if (e_ != cudaSuccess) {                                                                                          \
      std::fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__);                  \
      std::exit(2);                                                                                                   \
    }                                                                                                                 \
  } while (0)

static double median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Coordinates in cycles per FOV, k in [-1/2, 1/2), as GpuBenchmark.trajectory makes them.
static std::vector<double> trajectory(const std::string &traj, int dim, int n, int count, std::mt19937_64 &rng) {
  std::vector<double> c;
  if (traj == "random") {
    std::uniform_real_distribution<double> u(-0.5, 0.5);
    c.resize((size_t)count * dim);
    for (auto &v : c) v = u(rng);
  } else if (traj == "radial") {
    const int samples = 2 * n, spokes = count;
    const double phi = (1 + std::sqrt(5.0)) / 2;
    c.resize((size_t)2 * samples * spokes);
    for (int s = 0; s < spokes; s++) {
      const double a = s * M_PI / phi, cs = std::cos(a), sn = std::sin(a);
      for (int j = 0; j < samples; j++) {
        const double k = (j - samples / 2) / (double)samples;
        c[2 * ((size_t)s * samples + j)] = k * cs;
        c[2 * ((size_t)s * samples + j) + 1] = k * sn;
      }
    }
  } else if (traj == "kooshball") {
    const int samples = 256, spokes = count;
    const double g1 = 0.4656, g2 = 0.6823;
    c.resize((size_t)3 * samples * spokes);
    for (int s = 0; s < spokes; s++) {
      const double z = 2 * std::fmod(s * g1, 1.0) - 1, az = 2 * M_PI * std::fmod(s * g2, 1.0),
                   rho = std::sqrt(1 - z * z);
      const double dx = rho * std::cos(az), dy = rho * std::sin(az);
      for (int j = 0; j < samples; j++) {
        const double k = (j - samples / 2) / (double)samples;
        const size_t i = 3 * ((size_t)s * samples + j);
        c[i] = k * dx;
        c[i + 1] = k * dy;
        c[i + 2] = k * z;
      }
    }
  } else {
    std::fprintf(stderr, "unknown trajectory %s\n", traj.c_str());
    std::exit(2);
  }
  return c;
}

struct Cand {
  int type, method, sort;
  bool ok;
  double setpts, exec, execMin, e2e, err;
};

int main(int argc, char **argv) {
  if (argc < 7) {
    std::fprintf(stderr, "usage: refbench TRAJ DIM N COUNT TRANSFORMS EPS [RUNS]\n");
    return 2;
  }
  const std::string traj = argv[1];
  const int dim = std::atoi(argv[2]), n = std::atoi(argv[3]), count = std::atoi(argv[4]),
            ntr = std::atoi(argv[5]);
  const double eps = std::atof(argv[6]);
  const int runs = argc > 7 ? std::atoi(argv[7]) : 30, warm = 5, sets = 3, setptsReps = 7, checks = 100;
  std::mt19937_64 rng(12345);
  const std::vector<double> k = trajectory(traj, dim, n, count, rng);
  const int64_t M = (int64_t)(k.size() / dim);
  int64_t N = 1;
  for (int d = 0; d < dim; d++) N *= n;
  const int64_t nmodes[3] = {n, dim > 1 ? n : 1, dim > 2 ? n : 1};

  // Points in radians, as cuFINUFFT takes them: x = 2π·k.
  std::vector<float> hx[3];
  for (int d = 0; d < dim; d++) {
    hx[d].resize(M);
    for (int64_t j = 0; j < M; j++) hx[d][j] = (float)(2 * M_PI * k[(size_t)j * dim + d]);
  }
  float *dx[3] = {nullptr, nullptr, nullptr};
  for (int d = 0; d < dim; d++) {
    CK(cudaMalloc(&dx[d], M * sizeof(float)));
    CK(cudaMemcpy(dx[d], hx[d].data(), M * sizeof(float), cudaMemcpyHostToDevice));
  }
  const size_t cLen = (size_t)M * ntr, fLen = (size_t)N * ntr;
  std::vector<std::complex<float>> hc(cLen), hf(fLen);
  std::uniform_real_distribution<float> u(-1, 1);
  cuFloatComplex *dc[sets], *df[sets];
  for (int s = 0; s < sets; s++) {
    for (auto &v : hc) v = {u(rng), u(rng)};
    for (auto &v : hf) v = {u(rng), u(rng)};
    CK(cudaMalloc(&dc[s], cLen * sizeof(cuFloatComplex)));
    CK(cudaMalloc(&df[s], fLen * sizeof(cuFloatComplex)));
    CK(cudaMemcpy(dc[s], hc.data(), cLen * sizeof(cuFloatComplex), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(df[s], hf.data(), fLen * sizeof(cuFloatComplex), cudaMemcpyHostToDevice));
  }
  std::complex<float> *pc, *pf; // pinned host buffers for the end-to-end timing
  CK(cudaMallocHost(&pc, cLen * sizeof(cuFloatComplex)));
  CK(cudaMallocHost(&pf, fLen * sizeof(cuFloatComplex)));
  std::copy(hc.begin(), hc.end(), pc);
  std::copy(hf.begin(), hf.end(), pf);
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));

  std::printf("ROW traj=%s dim=%d n=%d M=%lld transforms=%d eps=%g\n", traj.c_str(), dim, n, (long long)M, ntr, eps);
  std::vector<Cand> cands;
  for (int type = 1; type <= 2; type++) {
    const int methods[][2] = {{1, 0}, {1, 1}, {2, 1}, {3, 1}, {4, 1}};
    for (const auto &ms : methods) {
      Cand c{type, ms[0], ms[1], false, 0, 0, 0, 0, 0};
      cufinufft_opts opts;
      cufinufft_default_opts(&opts);
      opts.gpu_method = ms[0];
      opts.gpu_sort = ms[1];
      cufinufftf_plan plan;
      int ier = cufinufftf_makeplan(type, dim, const_cast<int64_t *>(nmodes), 1, ntr, (float)eps, &plan, &opts);
      if (ier != 0) {
        std::printf("CAND type=%d method=%d sort=%d makeplan_ier=%d\n", type, ms[0], ms[1], ier);
        cudaGetLastError();
        continue;
      }
      std::vector<float> t;
      ier = cufinufftf_setpts(plan, M, dx[0], dx[1], dx[2], 0, nullptr, nullptr, nullptr);
      for (int r = 0; r < setptsReps && ier == 0; r++) {
        CK(cudaEventRecord(e0));
        ier = cufinufftf_setpts(plan, M, dx[0], dx[1], dx[2], 0, nullptr, nullptr, nullptr);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms_;
        CK(cudaEventElapsedTime(&ms_, e0, e1));
        t.push_back(ms_);
      }
      if (ier != 0) {
        std::printf("CAND type=%d method=%d sort=%d setpts_ier=%d\n", type, ms[0], ms[1], ier);
        cufinufftf_destroy(plan);
        continue;
      }
      c.setpts = median(t);
      t.clear();
      for (int r = 0; r < warm + runs && ier == 0; r++) {
        const int s = r % sets;
        CK(cudaEventRecord(e0));
        ier = cufinufftf_execute(plan, dc[s], df[s]);
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms_;
        CK(cudaEventElapsedTime(&ms_, e0, e1));
        if (r >= warm) t.push_back(ms_);
      }
      if (ier != 0) {
        std::printf("CAND type=%d method=%d sort=%d execute_ier=%d\n", type, ms[0], ms[1], ier);
        cufinufftf_destroy(plan);
        continue;
      }
      c.exec = median(t);
      c.execMin = *std::min_element(t.begin(), t.end());
      // Pinned end-to-end: input up, execute, output down, all on the default stream.
      t.clear();
      const size_t inB = (type == 1 ? cLen : fLen) * sizeof(cuFloatComplex),
                   outB = (type == 1 ? fLen : cLen) * sizeof(cuFloatComplex);
      for (int r = 0; r < 2 + 10; r++) {
        CK(cudaEventRecord(e0));
        CK(cudaMemcpyAsync(type == 1 ? (void *)dc[0] : (void *)df[0], type == 1 ? (void *)pc : (void *)pf, inB,
                           cudaMemcpyHostToDevice, 0));
        ier |= cufinufftf_execute(plan, dc[0], df[0]);
        CK(cudaMemcpyAsync(type == 1 ? (void *)pf : (void *)pc, type == 1 ? (void *)df[0] : (void *)dc[0], outB,
                           cudaMemcpyDeviceToHost, 0));
        CK(cudaEventRecord(e1));
        CK(cudaEventSynchronize(e1));
        float ms_;
        CK(cudaEventElapsedTime(&ms_, e0, e1));
        if (r >= 2) t.push_back(ms_);
      }
      c.e2e = median(t);
      // Accuracy: restore the pinned input, one execute, exact sums in double on random outputs (transform 0).
      std::copy(hc.begin(), hc.end(), pc);
      std::copy(hf.begin(), hf.end(), pf);
      CK(cudaMemcpy(type == 1 ? (void *)dc[0] : (void *)df[0], type == 1 ? (void *)pc : (void *)pf, inB,
                    cudaMemcpyHostToDevice));
      ier |= cufinufftf_execute(plan, dc[0], df[0]);
      std::vector<std::complex<float>> out(type == 1 ? fLen : cLen);
      CK(cudaMemcpy(out.data(), type == 1 ? (void *)df[0] : (void *)dc[0], outB, cudaMemcpyDeviceToHost));
      std::mt19937_64 pick(777);
      double num = 0, den = 0;
      std::vector<int64_t> outs(checks);
      for (auto &o : outs) o = (int64_t)(pick() % (uint64_t)(type == 1 ? N : M));
      std::vector<std::complex<double>> exact(checks);
#pragma omp parallel for schedule(dynamic, 1)
      for (int q = 0; q < checks; q++) {
        const int64_t o = outs[q];
        std::complex<double> s = 0;
        if (type == 1) { // f_k = Σ_j c_j e^{+i k·x_j}, k_d = index_d − n/2 (CMCL order, x fastest)
          double kk[3] = {0, 0, 0};
          int64_t rest = o;
          for (int d = 0; d < dim; d++) {
            kk[d] = (double)(rest % n) - n / 2;
            rest /= n;
          }
          for (int64_t j = 0; j < M; j++) {
            double ph = 0;
            for (int d = 0; d < dim; d++) ph += kk[d] * (double)hx[d][j];
            s += std::complex<double>(hc[j]) * std::complex<double>(std::cos(ph), std::sin(ph));
          }
        } else { // c_j = Σ_k f_k e^{+i k·x_j}
          for (int64_t m = 0; m < N; m++) {
            double ph = 0;
            int64_t rest = m;
            for (int d = 0; d < dim; d++) {
              ph += ((double)(rest % n) - n / 2) * (double)hx[d][o];
              rest /= n;
            }
            s += std::complex<double>(hf[m]) * std::complex<double>(std::cos(ph), std::sin(ph));
          }
        }
        exact[q] = s;
      }
      for (int q = 0; q < checks; q++) {
        num += std::norm(std::complex<double>(out[outs[q]]) - exact[q]);
        den += std::norm(exact[q]);
      }
      c.err = std::sqrt(num / den);
      c.ok = ier == 0;
      cufinufftf_destroy(plan);
      std::printf("CAND type=%d method=%d sort=%d setpts_ms=%.4f exec_ms=%.4f exec_min_ms=%.4f e2e_pinned_ms=%.4f "
                  "err=%.3e%s\n",
                  type, c.method, c.sort, c.setpts, c.exec, c.execMin, c.e2e, c.err, c.ok ? "" : " FAILED");
      std::fflush(stdout);
      if (c.ok) cands.push_back(c);
    }
    const Cand *best = nullptr;
    for (const auto &c : cands)
      if (c.type == type && (!best || c.exec < best->exec)) best = &c;
    if (best)
      std::printf("BEST type=%d method=%d sort=%d setpts_ms=%.4f exec_ms=%.4f exec_min_ms=%.4f e2e_pinned_ms=%.4f "
                  "err=%.3e\n",
                  type, best->method, best->sort, best->setpts, best->exec, best->execMin, best->e2e, best->err);
    std::fflush(stdout);
  }
  return 0;
}
