/*
 * ismrmrd_noncart_fixture.c: writes a non-Cartesian (radial, golden-angle radial or spiral) 2D ISMRMRD file with
 * the ISMRMRD C library (Debian libismrmrd-dev), for NUFFT-J's reader tests and sample data.
 *
 * Build:  gcc -O2 -I/usr/include/hdf5/serial -o ismrmrd_noncart_fixture ismrmrd_noncart_fixture.c -lismrmrd -lm
 * Usage:  ismrmrd_noncart_fixture OUT.h5 [options]
 *   --kind radial|golden|spiral   trajectory (default radial)
 *   --matrix N                    recon matrix N x N (default 64); FOV 256 mm
 *   --readout R                   samples per readout (default 2N: readout oversampling 2)
 *   --shots S                     spokes / spiral interleaves (default N)
 *   --coils C                     (default 4)
 *   --slices Z, --reps T          frames (default 1, 1)
 *   --noise-scan                  prepend one readout flagged IS_NOISE_MEASUREMENT (random data)
 *   --discard-pre P               P extra samples at the start of each readout, flagged by discard_pre
 *   --traj-dims D                 store D trajectory components (2, or 3 with the third = sample density weight)
 *   --sigma S                     complex Gaussian noise of standard deviation S per component (default 0)
 *   --object shepp|points         the imaged object (default shepp)
 *   --point x,y,re,im             a point source at pixel (x, y) (centred pixel units) with complex amplitude;
 *                                 repeatable; only for --object points
 *
 * Conventions (what the reader must undo):
 *   - trajectory in cycles per pixel of the encoded space, k in [-1/2, 1/2]; encoded space = readout R samples over
 *     FOV * R / N mm in x (readout oversampling R/N), N over FOV in y; recon space N x N over FOV x FOV.
 *   - data(s, c) = sum over the object of f(x) * sens_c(x) * exp(-2 pi i k_s . x), x in centred recon pixels.
 *     points:  f = sum_j a_j delta(x - x_j), sens_c = (1 + c) exp(0.5 i c), slice z scales by (1 + z), repetition t
 *              multiplies by exp(0.3 i t).
 *     shepp:   the continuous Shepp-Logan ellipses (Toft's modified intensities) of diameter N pixels, whose Fourier
 *              transform is analytic (A B J1(2 pi r) / r per ellipse), coil c sensitivity
 *              exp(i phi_c) (0.6 + 0.4 cos(2 pi q_c . x + beta_c)), also analytic (three shifted copies).
 *   - radial: spoke s at angle pi s / S; golden: angle s * 111.246 deg; spiral: Archimedean, S interleaves,
 *     k(t) = 0.5 t exp(i (2 pi (N / (2 S)) t + 2 pi s / S)), t in [0, 1].
 */
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ismrmrd/dataset.h>
#include <ismrmrd/ismrmrd.h>

#define MAX_POINTS 64

static double px[MAX_POINTS], py[MAX_POINTS];
static double complex pa[MAX_POINTS];
static int npoints = 0;

/* Toft's modified Shepp-Logan: intensity, semi-axes a, b, centre x, y, angle (deg); unit disc coordinates. */
static const double SL[10][6] = {
	{ 1.0, 0.69, 0.92, 0.0, 0.0, 0 },        { -0.8, 0.6624, 0.8740, 0.0, -0.0184, 0 },
	{ -0.2, 0.1100, 0.3100, 0.22, 0.0, -18 }, { -0.2, 0.1600, 0.4100, -0.22, 0.0, 18 },
	{ 0.1, 0.2100, 0.2500, 0.0, 0.35, 0 },    { 0.1, 0.0460, 0.0460, 0.0, 0.1, 0 },
	{ 0.1, 0.0460, 0.0460, 0.0, -0.1, 0 },    { 0.1, 0.0460, 0.0230, -0.08, -0.605, 0 },
	{ 0.1, 0.0230, 0.0230, 0.0, -0.606, 0 },  { 0.1, 0.0230, 0.0460, 0.06, -0.605, 0 } };

/* Fourier transform (exp(-2 pi i k.x), x in pixels) of the Shepp-Logan object of diameter n pixels at k (cycles/px). */
static double complex shepp_ft(double kx, double ky, int n) {
	const double half = n / 2.0;
	double complex sum = 0;
	for (int e = 0; e < 10; e++) {
		const double rho = SL[e][0], a = SL[e][1] * half, b = SL[e][2] * half;
		/* image y axis points down in pixel index; the phantom's +y (top) is at negative pixel y */
		const double cx = SL[e][3] * half, cy = -SL[e][4] * half, th = -SL[e][5] * M_PI / 180;
		const double kr = kx * cos(th) + ky * sin(th), ks = -kx * sin(th) + ky * cos(th);
		const double r = sqrt(a * a * kr * kr + b * b * ks * ks);
		const double mag = r < 1e-9 ? M_PI * a * b : a * b * j1(2 * M_PI * r) / r;
		sum += rho * mag * cexp(-2 * M_PI * I * (kx * cx + ky * cy));
	}
	return sum;
}

static double complex object_ft(const char *object, double kx, double ky, int n) {
	if (strcmp(object, "points") == 0) {
		double complex s = 0;
		for (int j = 0; j < npoints; j++) s += pa[j] * cexp(-2 * M_PI * I * (kx * px[j] + ky * py[j]));
		return s;
	}
	return shepp_ft(kx, ky, n);
}

/* Coil-weighted object spectrum; analytic for both objects. */
static double complex coil_ft(const char *object, int c, double kx, double ky, int n) {
	if (strcmp(object, "points") == 0) return (1.0 + c) * cexp(0.5 * I * c) * object_ft(object, kx, ky, n);
	const double alpha = 2 * M_PI * c / 8.0, beta = 0.9 * c, phi = 0.7 * c;
	const double qx = cos(alpha) / (2.0 * n), qy = sin(alpha) / (2.0 * n);
	/* f(x) cos(2 pi q.x + beta) -> (e^{i beta} F(k - q) + e^{-i beta} F(k + q)) / 2 */
	const double complex v = 0.6 * object_ft(object, kx, ky, n) +
		0.2 * cexp(I * beta) * object_ft(object, kx - qx, ky - qy, n) +
		0.2 * cexp(-I * beta) * object_ft(object, kx + qx, ky + qy, n);
	return cexp(I * phi) * v;
}

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static double uniform01(void) {
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return ((rng_state >> 11) + 0.5) / 9007199254740992.0;
}
static double gauss(void) {
	return sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}

static void fail(const char *what) {
	fprintf(stderr, "ismrmrd_noncart_fixture: %s\n", what);
	exit(2);
}

int main(int argc, char **argv) {
	if (argc < 2) fail("usage: ismrmrd_noncart_fixture OUT.h5 [options] (see the source header)");
	const char *out = argv[1], *kind = "radial", *object = "shepp";
	int n = 64, readout = 0, shots = 0, coils = 4, slices = 1, reps = 1, noise_scan = 0, pre = 0, tdims = 2;
	double sigma = 0;
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--noise-scan")) { noise_scan = 1; continue; }
		if (!v) fail("option without value");
		i++;
		if (!strcmp(a, "--kind")) kind = v;
		else if (!strcmp(a, "--matrix")) n = atoi(v);
		else if (!strcmp(a, "--readout")) readout = atoi(v);
		else if (!strcmp(a, "--shots")) shots = atoi(v);
		else if (!strcmp(a, "--coils")) coils = atoi(v);
		else if (!strcmp(a, "--slices")) slices = atoi(v);
		else if (!strcmp(a, "--reps")) reps = atoi(v);
		else if (!strcmp(a, "--discard-pre")) pre = atoi(v);
		else if (!strcmp(a, "--traj-dims")) tdims = atoi(v);
		else if (!strcmp(a, "--sigma")) sigma = atof(v);
		else if (!strcmp(a, "--object")) object = v;
		else if (!strcmp(a, "--point")) {
			double x, y, re, im;
			if (npoints == MAX_POINTS || sscanf(v, "%lf,%lf,%lf,%lf", &x, &y, &re, &im) != 4) fail("bad --point");
			px[npoints] = x; py[npoints] = y; pa[npoints] = re + I * im; npoints++;
		}
		else fail("unknown option");
	}
	if (readout <= 0) readout = 2 * n;
	if (shots <= 0) shots = n;
	if (n < 2 || coils < 1 || slices < 1 || reps < 1 || (tdims != 2 && tdims != 3)) fail("bad sizes");
	const int spiral = !strcmp(kind, "spiral"), golden = !strcmp(kind, "golden");
	if (!spiral && !golden && strcmp(kind, "radial")) fail("--kind must be radial, golden or spiral");
	const double fov = 256.0;
	const int ns = readout + pre;

	remove(out);
	ISMRMRD_Dataset d;
	if (ismrmrd_init_dataset(&d, out, "dataset") != ISMRMRD_NOERROR) fail("init dataset");
	if (ismrmrd_open_dataset(&d, true) != ISMRMRD_NOERROR) fail("open dataset");

	char xml[4096];
	snprintf(xml, sizeof xml,
		"<?xml version=\"1.0\"?>\n<ismrmrdHeader xmlns=\"http://www.ismrm.org/ISMRMRD\">\n"
		"<acquisitionSystemInformation><receiverChannels>%d</receiverChannels></acquisitionSystemInformation>\n"
		"<experimentalConditions><H1resonanceFrequency_Hz>63500000</H1resonanceFrequency_Hz></experimentalConditions>\n"
		"<encoding>\n"
		"<encodedSpace><matrixSize><x>%d</x><y>%d</y><z>1</z></matrixSize>"
		"<fieldOfView_mm><x>%f</x><y>%f</y><z>5</z></fieldOfView_mm></encodedSpace>\n"
		"<reconSpace><matrixSize><x>%d</x><y>%d</y><z>1</z></matrixSize>"
		"<fieldOfView_mm><x>%f</x><y>%f</y><z>5</z></fieldOfView_mm></reconSpace>\n"
		"<encodingLimits><kspace_encoding_step_1><minimum>0</minimum><maximum>%d</maximum><center>0</center>"
		"</kspace_encoding_step_1><slice><minimum>0</minimum><maximum>%d</maximum><center>0</center></slice>"
		"<repetition><minimum>0</minimum><maximum>%d</maximum><center>0</center></repetition></encodingLimits>\n"
		"<trajectory>%s</trajectory>\n</encoding>\n</ismrmrdHeader>\n",
		coils, readout, n, fov * readout / n, fov, n, n, fov, fov, shots - 1, slices - 1, reps - 1,
		spiral ? "spiral" : (golden ? "goldenangle" : "radial"));
	if (ismrmrd_write_header(&d, xml) != ISMRMRD_NOERROR) fail("write header");

	ISMRMRD_Acquisition acq;
	if (noise_scan) {
		ismrmrd_init_acquisition(&acq);
		acq.head.number_of_samples = ns;
		acq.head.active_channels = coils;
		acq.head.available_channels = coils;
		ismrmrd_make_consistent_acquisition(&acq);
		ismrmrd_set_flag(&acq.head.flags, ISMRMRD_ACQ_IS_NOISE_MEASUREMENT);
		for (int i = 0; i < ns * coils; i++) acq.data[i] = 100 * gauss() + 100 * I * gauss();
		ismrmrd_append_acquisition(&d, &acq);
		ismrmrd_cleanup_acquisition(&acq);
	}
	for (int t = 0; t < reps; t++) {
		for (int z = 0; z < slices; z++) {
			for (int s = 0; s < shots; s++) {
				ismrmrd_init_acquisition(&acq);
				acq.head.number_of_samples = ns;
				acq.head.active_channels = coils;
				acq.head.available_channels = coils;
				acq.head.trajectory_dimensions = tdims;
				acq.head.discard_pre = pre;
				acq.head.center_sample = spiral ? pre : pre + readout / 2;
				acq.head.idx.kspace_encode_step_1 = s;
				acq.head.idx.slice = z;
				acq.head.idx.repetition = t;
				acq.head.sample_time_us = 2.0f;
				ismrmrd_make_consistent_acquisition(&acq);
				if (s == 0) ismrmrd_set_flag(&acq.head.flags, ISMRMRD_ACQ_FIRST_IN_SLICE);
				if (s == shots - 1) ismrmrd_set_flag(&acq.head.flags, ISMRMRD_ACQ_LAST_IN_SLICE);
				const double angle = golden ? s * 111.246117975 * M_PI / 180 : M_PI * s / shots;
				for (int j = 0; j < ns; j++) {
					double kx, ky, w;
					const int r = j - pre; /* discarded samples get position of sample 0 */
					const int rr = r < 0 ? 0 : r;
					if (spiral) {
						const double tt = (double) rr / (readout - 1);
						const double ph = 2 * M_PI * (n / (2.0 * shots)) * tt + 2 * M_PI * s / shots;
						kx = 0.5 * tt * cos(ph);
						ky = 0.5 * tt * sin(ph);
						w = tt;
					}
					else {
						const double kr = (rr - readout / 2) / (double) readout;
						kx = kr * cos(angle);
						ky = kr * sin(angle);
						w = fabs(kr);
					}
					acq.traj[j * tdims] = (float) kx;
					acq.traj[j * tdims + 1] = (float) ky;
					if (tdims == 3) acq.traj[j * tdims + 2] = (float) w;
					for (int c = 0; c < coils; c++) {
						double complex v;
						if (r < 0) v = 1e6; /* garbage the reader must discard */
						else {
							v = coil_ft(object, c, kx, ky, n);
							if (!strcmp(object, "points")) v *= (1.0 + z) * cexp(0.3 * I * t);
							if (sigma > 0) v += sigma * (gauss() + I * gauss());
						}
						acq.data[c * ns + j] = (float complex) v;
					}
				}
				if (ismrmrd_append_acquisition(&d, &acq) != ISMRMRD_NOERROR) fail("append acquisition");
				ismrmrd_cleanup_acquisition(&acq);
			}
		}
	}
	ismrmrd_close_dataset(&d);
	return 0;
}
