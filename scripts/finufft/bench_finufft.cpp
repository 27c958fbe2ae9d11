// Times FINUFFT (its public C API) on one row of scripts/bench-vs-finufft.sh, on the points, data and exact reference
// written by the Java side (src/test/java/org/nufftj/recon/FinufftSideBySide.java), and prints one RESULT line in the
// same form as the Java side. Built by that script against a FINUFFT built outside this repository; no FINUFFT code
// is copied here.
//
// Usage: bench_finufft <adjoint|forward> <dim> <n> <coils> <eps> <float|double> <points.f64> <data.f32>
//                      <ref.f64> <warmups> <repeats> <warmup_s>
// points.f64: M·dim doubles, point-major, k in cycles per pixel (NUFFT-J's Trajectory); FINUFFT takes x = 2πk.
// data.f32:   the input, interleaved complex float, point (or pixel, axis 0 fastest) fastest, then coil.
// ref.f64:    K triples (flat output index, re, im) of the exact direct sum in double.
// Warm-up: at least <warmups> untimed executes and at least <warmup_s> seconds of them (the Java side's JIT needs
// seconds; the same rule is applied to both engines), then <repeats> timed executes.
// NUFFT-J's adjoint f(x) = Σ y_m e^{+2πi k_m·x}, x = index − N/2, unscaled, is FINUFFT's type 1 with iflag = +1
// and modeord = 0 (modes −N/2 … N/2−1, first axis fastest); NUFFT-J's forward (e^{−2πi k·x}) is type 2 with
// iflag = −1.
#include <finufft.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

template <class T> std::vector<T> readAll(const char *path) {
  FILE *f = std::fopen(path, "rb");
  if (!f) { std::fprintf(stderr, "bench_finufft: cannot open %s\n", path); std::exit(2); }
  std::fseek(f, 0, SEEK_END);
  const long bytes = std::ftell(f);
  std::fseek(f, 0, SEEK_SET);
  std::vector<T> v(bytes / sizeof(T));
  if (std::fread(v.data(), sizeof(T), v.size(), f) != v.size()) {
    std::fprintf(stderr, "bench_finufft: short read of %s\n", path); std::exit(2);
  }
  std::fclose(f);
  return v;
}

// FINUFFT's two precisions behind one name.
template <class T> struct Api;
template <> struct Api<float> {
  using Plan = finufftf_plan;
  static int make(int type, int dim, int64_t *n, int iflag, int ntr, float eps, Plan *p, finufft_opts *o) {
    return finufftf_makeplan(type, dim, n, iflag, ntr, eps, p, o);
  }
  static int setpts(Plan p, int64_t m, float *x, float *y, float *z) {
    return finufftf_setpts(p, m, x, y, z, 0, nullptr, nullptr, nullptr);
  }
  static int execute(Plan p, std::complex<float> *c, std::complex<float> *f) { return finufftf_execute(p, c, f); }
  static int destroy(Plan p) { return finufftf_destroy(p); }
};
template <> struct Api<double> {
  using Plan = finufft_plan;
  static int make(int type, int dim, int64_t *n, int iflag, int ntr, double eps, Plan *p, finufft_opts *o) {
    return finufft_makeplan(type, dim, n, iflag, ntr, eps, p, o);
  }
  static int setpts(Plan p, int64_t m, double *x, double *y, double *z) {
    return finufft_setpts(p, m, x, y, z, 0, nullptr, nullptr, nullptr);
  }
  static int execute(Plan p, std::complex<double> *c, std::complex<double> *f) { return finufft_execute(p, c, f); }
  static int destroy(Plan p) { return finufft_destroy(p); }
};

void check(int status, const char *what) {
  // FINUFFT returns 1 (FINUFFT_WARN_EPS_TOO_SMALL) as a warning; anything above is an error.
  if (status > 1) {
    std::fprintf(stderr, "bench_finufft: %s failed with FINUFFT status %d\n", what, status);
    std::exit(3);
  }
  if (status == 1) std::fprintf(stderr, "bench_finufft: %s: FINUFFT warns eps too small (status 1)\n", what);
}

template <class T> int run(bool adjoint, int dim, int n, int coils, double eps, const char *pointsPath,
                           const char *dataPath, const char *refPath, int warmups, int repeats, double warmupSeconds) {
  const std::vector<double> k = readAll<double>(pointsPath);
  const std::vector<float> data = readAll<float>(dataPath);
  const std::vector<double> ref = readAll<double>(refPath);
  const int64_t m = (int64_t)k.size() / dim;
  int64_t pixels = 1;
  for (int a = 0; a < dim; a++) pixels *= n;
  const double twoPi = 2 * M_PI;
  std::vector<T> x[3];
  for (int a = 0; a < dim; a++) {
    x[a].resize(m);
    for (int64_t p = 0; p < m; p++) x[a][p] = (T)(twoPi * k[dim * p + a]);
  }
  const int64_t inCount = (adjoint ? m : pixels) * coils, outCount = (adjoint ? pixels : m) * coils;
  if ((int64_t)data.size() != 2 * inCount) {
    std::fprintf(stderr, "bench_finufft: %s holds %zu floats, expected %lld\n", dataPath, data.size(),
                 (long long)(2 * inCount));
    return 2;
  }
  std::vector<std::complex<T>> in(inCount), out(outCount);
  for (int64_t i = 0; i < inCount; i++) in[i] = std::complex<T>((T)data[2 * i], (T)data[2 * i + 1]);

  finufft_opts opts;
  finufft_default_opts(&opts);
  opts.nthreads = 2;
  opts.modeord = 0;
  // BENCH_FINUFFT_DEBUG=1: FINUFFT prints its choices (kernel width, upsampling, grid) and stage times.
  if (const char *d = std::getenv("BENCH_FINUFFT_DEBUG")) opts.debug = opts.spread_debug = std::atoi(d);
  int64_t modes[3] = {n, dim > 1 ? n : 1, dim > 2 ? n : 1};
  typename Api<T>::Plan plan;
  check(Api<T>::make(adjoint ? 1 : 2, dim, modes, adjoint ? +1 : -1, coils, (T)eps, &plan, &opts), "makeplan");
  check(Api<T>::setpts(plan, m, x[0].data(), dim > 1 ? x[1].data() : nullptr, dim > 2 ? x[2].data() : nullptr),
        "setpts");
  // type 1: c (points) → f (modes); type 2: f (modes) → c (points). execute(plan, c, f) in both.
  auto execute = [&]() {
    if (adjoint) check(Api<T>::execute(plan, in.data(), out.data()), "execute");
    else check(Api<T>::execute(plan, out.data(), in.data()), "execute");
  };
  const auto w0 = std::chrono::steady_clock::now();
  for (int i = 0; i < warmups || std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count() <
                                   warmupSeconds; i++)
    execute();
  std::vector<double> times;
  for (int i = 0; i < repeats; i++) {
    const auto t0 = std::chrono::steady_clock::now();
    execute();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  Api<T>::destroy(plan);

  double num = 0, den = 0;
  for (size_t e = 0; e + 2 < ref.size(); e += 3) {
    const int64_t idx = (int64_t)ref[e];
    const double dr = (double)out[idx].real() - ref[e + 1], di = (double)out[idx].imag() - ref[e + 2];
    num += dr * dr + di * di;
    den += ref[e + 1] * ref[e + 1] + ref[e + 2] * ref[e + 2];
  }
  std::printf("RESULT engine=finufft times_ms=");
  for (size_t i = 0; i < times.size(); i++) std::printf(i ? ",%.3f" : "%.3f", times[i]);
  std::printf(" error=%.3e\n", std::sqrt(num / den));
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 13) {
    std::fprintf(stderr, "usage: bench_finufft <adjoint|forward> <dim> <n> <coils> <eps> <float|double> <points.f64> "
                         "<data.f32> <ref.f64> <warmups> <repeats> <warmup_s>\n");
    return 1;
  }
  const bool adjoint = std::strcmp(argv[1], "adjoint") == 0;
  const int dim = std::atoi(argv[2]), n = std::atoi(argv[3]), coils = std::atoi(argv[4]);
  const double eps = std::atof(argv[5]);
  const bool single = std::strcmp(argv[6], "float") == 0;
  const int warmups = std::atoi(argv[10]), repeats = std::atoi(argv[11]);
  const double warmupSeconds = std::atof(argv[12]);
  return single ? run<float>(adjoint, dim, n, coils, eps, argv[7], argv[8], argv[9], warmups, repeats, warmupSeconds)
                : run<double>(adjoint, dim, n, coils, eps, argv[7], argv[8], argv[9], warmups, repeats, warmupSeconds);
}
