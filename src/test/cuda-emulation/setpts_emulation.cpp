// kernels/setpts.cu run on the host (emu.h) against a C++ copy of the host oracle GpuPoints: per bin the same set of
// points, the same stencil starts and offsets (double exactly; float exactly GpuPointSet.floatOffsets of the double),
// the same totals and subproblem lists; 2D/3D, float/double, widths 3–16, one to 512 scan tiles (2^20 bins: two
// passes of the tile-offset scan), a cluster in one bin, subproblems of 7 points, Cartesian points on cell
// boundaries, an axis-aligned spoke. Exit status 1 on any mismatch. Run by scripts/setpts-emulate.sh (about 2 min on
// 2 cores: the 2^20-bin case starts 131,072 threads).
#include "emu.h"
#include "setpts.cu"
#include <cstdio>
#include <cstring>
#include <random>
#include <map>
#include <set>
#include <functional>

template <typename F> void launch_seq(int blocks, F f) { // no block-level sync in f
	for (int b = 0; b < blocks; b++) for (int t = 0; t < 256; t++) { blockIdx = {(unsigned) b, 0, 0}; threadIdx = {(unsigned) t, 0, 0}; f(); }
}
template <typename F> void launch_threads(int blocks, F f) {
	for (int b = 0; b < blocks; b++) {
		std::barrier<> blk(256);
		std::barrier<> w[8] = {std::barrier<>(32), std::barrier<>(32), std::barrier<>(32), std::barrier<>(32), std::barrier<>(32), std::barrier<>(32), std::barrier<>(32), std::barrier<>(32)};
		g_block = &blk;
		for (int i = 0; i < 8; i++) g_warp[i] = &w[i];
		std::vector<std::thread> th;
		for (int t = 0; t < 256; t++) th.emplace_back([=] { blockIdx = {(unsigned) b, 0, 0}; threadIdx = {(unsigned) t, 0, 0}; f(); });
		for (auto& x : th) x.join();
	}
}

static float floatOffset(double off, int w) { // GpuPointSet.floatOffsets
	const float lo = -w / 2.f, hi = lo + 1;
	float v = (float) off;
	if (off > lo && v <= lo) v = std::nextafter(lo, INFINITY);
	if (off < hi && v >= hi) v = std::nextafter(hi, -INFINITY);
	return v;
}

template <typename T>
int run(int d, std::vector<int> grid, int w, std::vector<int> bin, int maxSub, const std::vector<double>& k, const char* name) {
	const int m = k.size() / d;
	std::vector<int> bins(3, 1); int nb = 1;
	for (int a = 0; a < d; a++) { bins[a] = (grid[a] + bin[a] - 1) / bin[a]; nb *= bins[a]; }
	// host oracle (GpuPoints)
	const int hw = w / 2;
	std::vector<int> hbin(m); std::vector<std::vector<int>> hfirst(d, std::vector<int>(m)); std::vector<std::vector<double>> hoff(d, std::vector<double>(m));
	std::vector<int> hist(nb + 1, 0);
	for (int i = 0; i < m; i++) {
		int b = 0, s = 1;
		for (int a = 0; a < d; a++) {
			const int n = grid[a]; const double tt = k[d * i + a] * n;
			int i0 = (int) std::ceil(tt - w / 2.0);
			hoff[a][i] = i0 - tt;
			int c = ((i0 + hw) % n + n) % n;
			hfirst[a][i] = c - hw;
			b += s * std::min(c / bin[a], bins[a] - 1); s *= bins[a];
		}
		hbin[i] = b; hist[b + 1]++;
	}
	std::vector<int> hs(nb + 1, 0); for (int b = 0; b < nb; b++) hs[b + 1] = hs[b] + hist[b + 1];
	std::vector<int> hsubBin, hsubStart, hsubCount;
	for (int b = 0; b < nb; b++) for (int o = 0; o < hist[b + 1]; o += maxSub) { hsubBin.push_back(b); hsubStart.push_back(hs[b] + o); hsubCount.push_back(std::min(maxSub, hist[b + 1] - o)); }
	// device emulation
	const int tiles = (nb + SETPTS_SCAN_TILE - 1) / SETPTS_SCAN_TILE;
	const int subCap = (m + maxSub - 1) / maxSub + std::min(nb, m);
	std::vector<int> counts(nb, 0), rank(m), perm(m), subBin(subCap), subStart(subCap), subCount(subCap);
	std::vector<int2> starts(nb + 1), partials(tiles);
	std::vector<std::vector<int>> first(3, std::vector<int>(m)); std::vector<std::vector<T>> off(3, std::vector<T>(m));
	SetptsArgs<T> a{};
	a.coords = k.data(); a.counts = counts.data(); a.starts = starts.data(); a.partials = partials.data(); a.rank = rank.data(); a.perm = perm.data();
	for (int x = 0; x < d; x++) { a.first[x] = first[x].data(); a.offset[x] = off[x].data(); }
	a.subBin = subBin.data(); a.subStart = subStart.data(); a.subCount = subCount.data();
	a.m = m; a.nbins = nb; a.width = w; a.maxSub = maxSub; a.subCapacity = subCap;
	for (int x = 0; x < 3; x++) { a.grid[x] = x < d ? grid[x] : 1; a.bin[x] = x < d ? bin[x] : 1; a.bins[x] = bins[x]; }
	SetptsArgs<float> af; std::memcpy(&af, &a, sizeof af);
	const int pb = (m + 255) / 256;
	if (d == 2) launch_seq(pb, [&] { setpts_bin_2d(af); }); else launch_seq(pb, [&] { setpts_bin_3d(af); });
	launch_threads(tiles, [&] { setpts_scan_tiles(af); });
	launch_threads(1, [&] { setpts_scan_partials(af); });
	const int sb = (std::max(m, nb) + 255) / 256;
	if (sizeof(T) == 4) { if (d == 2) launch_seq(sb, [&] { setpts_sort_2d_f(*(SetptsArgs<float>*) &a); }); else launch_seq(sb, [&] { setpts_sort_3d_f(*(SetptsArgs<float>*) &a); }); }
	else { if (d == 2) launch_seq(sb, [&] { setpts_sort_2d_d(*(SetptsArgs<double>*) &a); }); else launch_seq(sb, [&] { setpts_sort_3d_d(*(SetptsArgs<double>*) &a); }); }
	if (sizeof(T) == 4) { if (d == 2) launch_seq(pb, [&] { setpts_fill_2d_f(*(SetptsArgs<float>*) &a); }); else launch_seq(pb, [&] { setpts_fill_3d_f(*(SetptsArgs<float>*) &a); }); }
	else { if (d == 2) launch_seq(pb, [&] { setpts_fill_2d_d(*(SetptsArgs<double>*) &a); }); else launch_seq(pb, [&] { setpts_fill_3d_d(*(SetptsArgs<double>*) &a); }); }
	// compare
	int errors = 0;
	auto err = [&](const char* what, long i, long x, long y) { if (errors++ < 5) printf("  %s: %s at %ld: %ld vs %ld\n", name, what, i, x, y); };
	if (starts[nb].x != m) err("total points", 0, starts[nb].x, m);
	if (starts[nb].y != (int) hsubBin.size()) err("total subproblems", 0, starts[nb].y, hsubBin.size());
	for (size_t s = 0; s < hsubBin.size() && s < (size_t) subCap; s++) {
		if (subBin[s] != hsubBin[s]) err("subBin", s, subBin[s], hsubBin[s]);
		if (subStart[s] != hsubStart[s]) err("subStart", s, subStart[s], hsubStart[s]);
		if (subCount[s] != hsubCount[s]) err("subCount", s, subCount[s], hsubCount[s]);
	}
	std::vector<char> seen(m, 0);
	for (int b = 0; b < nb; b++) for (int i = hs[b]; i < hs[b + 1]; i++) {
		const int q = perm[i];
		if (q < 0 || q >= m) { err("perm range", i, q, m); continue; }
		if (seen[q]++) err("perm twice", i, q, 0);
		if (hbin[q] != b) err("bin of point", q, b, hbin[q]);
		for (int x = 0; x < d; x++) {
			if (first[x][i] != hfirst[x][q]) err("first", q, first[x][i], hfirst[x][q]);
			const bool same = sizeof(T) == 8 ? (double) off[x][i] == hoff[x][q] : (float) off[x][i] == floatOffset(hoff[x][q], w);
			if (!same) err("offset", q, (long) (off[x][i] * 1e9), (long) (hoff[x][q] * 1e9));
		}
	}
	printf("%s: %s d=%d m=%d bins=%d (tiles %d) subproblems=%zu errors=%d\n", errors ? "FAIL" : "ok", name, d, m, nb, tiles, hsubBin.size(), errors);
	return errors;
}

int main() {
	std::mt19937_64 r(42);
	std::uniform_real_distribution<double> u(-0.5, 0.5);
	int fails = 0;
	auto rnd = [&](int m, int d, double scale) { std::vector<double> k(m * d); for (auto& x : k) x = u(r) * scale; return k; };
	fails += run<float>(2, {128, 96}, 4, {32, 32}, 1024, rnd(20000, 2, 1), "2D random f W4");
	fails += run<double>(2, {128, 96}, 7, {16, 16}, 1024, rnd(20000, 2, 1), "2D random d W7");
	fails += run<float>(3, {48, 40, 32}, 5, {8, 8, 8}, 1024, rnd(30000, 3, 1), "3D random f W5");
	fails += run<double>(3, {48, 40, 32}, 8, {4, 4, 4}, 1024, rnd(30000, 3, 1), "3D random d W8");
	fails += run<float>(2, {128, 96}, 4, {32, 32}, 1024, rnd(5000, 2, 0.004), "2D cluster f");
	fails += run<float>(2, {512, 384}, 6, {8, 8}, 1024, rnd(50000, 2, 1), "2D many bins f");
	fails += run<float>(2, {2048, 2048}, 3, {2, 2}, 1024, rnd(100000, 2, 1), "2D 1M bins f");
	fails += run<float>(2, {128, 96}, 16, {32, 32}, 7, rnd(3000, 2, 1), "2D maxSub 7 f W16");
	// points on cell boundaries and at +-1/2 (Cartesian)
	{ std::vector<double> k; for (int y = 0; y < 48; y++) for (int x = 0; x < 64; x++) { k.push_back((x - 32) / 64.0); k.push_back((y - 24) / 48.0); }
	  fails += run<float>(2, {128, 96}, 5, {16, 16}, 1024, k, "2D cartesian f W5"); fails += run<double>(2, {128, 96}, 4, {16, 16}, 1024, k, "2D cartesian d W4"); }
	{ std::vector<double> k; for (int i = 0; i < 4000; i++) { double rr = u(r); k.push_back(rr * 6.123e-17); k.push_back(rr); }
	  fails += run<float>(2, {128, 96}, 4, {32, 32}, 1024, k, "2D axis spoke f"); }
	printf(fails ? "FAILURES\n" : "ALL OK\n");
	return fails != 0;
}
