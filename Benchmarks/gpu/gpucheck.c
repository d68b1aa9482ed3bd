/*
 * gpucheck.c — FrameOCR's OpenCL kernels on any OpenCL device, without Swift or OpenCV.
 *
 * For each kernel of Kernels/ (the .cl files), at 1920×1080 and 3840×2160, on one synthetic page-like frame:
 *   - parity: the device's output against a plain C reference of the same op in this file
 *     (bytes identical, or how many differ and by how much at most);
 *   - throughput in GPix/s (input frame pixels per second, median of --runs), once with the data
 *     already on the device (kernel time: enqueue … clFinish), once with the transfers (write
 *     the input, run, read the output back).
 * Exit status: 0 when every output is identical, 1 when one differs, 2 on a usage or OpenCL error.
 *
 *   cc -O2 -std=c11 -ffp-contract=off gpucheck.c -lOpenCL -lm -o gpucheck
 *   ./gpucheck --kernels ../../Kernels [--device NAME] [--runs N] [--sizes 1920x1080,3840x2160]
 *
 * The references use the kernels' own arithmetic (BT.601 in OpenCV's fixed point, EXIF
 * orientation maps, box and Gaussian local means with BORDER_REPLICATE, area averaging), so
 * "identical" is checkable on every device; -ffp-contract=off keeps the C side's float
 * multiply-adds unfused, in the kernels' order. A device compiler that fuses them into FMA (the
 * OpenCL default is FP_CONTRACT ON) may move a Gaussian mean by one level near a rounding tie:
 * that is what the parity column is there to show. Run it through Benchmarks/gpu/run.sh.
 */
#define CL_TARGET_OPENCL_VERSION 120
#define _POSIX_C_SOURCE 200809L

#include <CL/cl.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TILE 16

static void die(const char *what, cl_int err) {
    fprintf(stderr, "gpucheck: %s failed (OpenCL error %d)\n", what, (int)err);
    exit(2);
}

#define CHECK(call)                          \
    do {                                     \
        cl_int e_ = (call);                  \
        if (e_ != CL_SUCCESS) die(#call, e_); \
    } while (0)

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static char *read_text(const char *dir, const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "gpucheck: cannot read %s\n", path);
        exit(2);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *s = malloc((size_t)n + 1);
    if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "gpucheck: cannot read %s\n", path);
        exit(2);
    }
    s[n] = 0;
    fclose(f);
    return s;
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

/* MARK: - References (the kernels' arithmetic, row-major, tight rows) */

static void ref_gray(const uint8_t *src, int rows, int cols, int scn, int bidx, uint8_t *dst) {
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x) {
            const uint8_t *p = src + ((size_t)y * cols + x) * scn;
            const int b = p[bidx], g = p[1], r = p[2 - bidx];
            dst[(size_t)y * cols + x] = (uint8_t)((b * 3735 + g * 19235 + r * 9798 + (1 << 14)) >> 15);
        }
}

/* EXIF orientation o (1…8): upright (u, v) reads stored (x, y) of a w × h stored image. */
static void stored_coordinate(int u, int v, int w, int h, int o, int *x, int *y) {
    switch (o) {
    case 2: *x = w - 1 - u; *y = v; break;
    case 3: *x = w - 1 - u; *y = h - 1 - v; break;
    case 4: *x = u; *y = h - 1 - v; break;
    case 5: *x = v; *y = u; break;
    case 6: *x = v; *y = h - 1 - u; break;
    case 7: *x = w - 1 - v; *y = h - 1 - u; break;
    case 8: *x = w - 1 - v; *y = u; break;
    default: *x = u; *y = v; break;
    }
}

static void ref_orient(const uint8_t *src, int srows, int scols, int o, int pix, uint8_t *dst) {
    const int swap = o >= 5, rows = swap ? scols : srows, cols = swap ? srows : scols;
    for (int v = 0; v < rows; ++v)
        for (int u = 0; u < cols; ++u) {
            int x, y;
            stored_coordinate(u, v, scols, srows, o, &x, &y);
            memcpy(dst + ((size_t)v * cols + u) * pix, src + ((size_t)y * scols + x) * pix, (size_t)pix);
        }
}

static uint8_t decide(int s, int mean, int idelta, int inverted) {
    const int d = s - mean;
    return inverted ? (d <= -idelta ? 255 : 0) : (d > -idelta ? 255 : 0);
}

static void ref_box_threshold(const uint8_t *src, int rows, int cols, int radius, int idelta, int inverted,
                              uint8_t *dst) {
    int *tmp = malloc(sizeof(int) * (size_t)rows * cols);
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x) {
            int s = 0;
            for (int k = -radius; k <= radius; ++k) s += src[(size_t)y * cols + clampi(x + k, 0, cols - 1)];
            tmp[(size_t)y * cols + x] = s;
        }
    const int area = (2 * radius + 1) * (2 * radius + 1);
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x) {
            int s = 0;
            for (int k = -radius; k <= radius; ++k) s += tmp[(size_t)clampi(y + k, 0, rows - 1) * cols + x];
            const int mean = (2 * s + area) / (2 * area);
            dst[(size_t)y * cols + x] = decide(src[(size_t)y * cols + x], mean, idelta, inverted);
        }
    free(tmp);
}

static void ref_gauss_threshold(const uint8_t *src, int rows, int cols, int radius, const float *w, int idelta,
                                int inverted, uint8_t *dst) {
    float *tmp = malloc(sizeof(float) * (size_t)rows * cols);
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x) {
            float s = 0.0f;
            for (int k = 0; k <= 2 * radius; ++k)
                s += w[k] * (float)src[(size_t)y * cols + clampi(x + k - radius, 0, cols - 1)];
            tmp[(size_t)y * cols + x] = s;
        }
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x) {
            float s = w[radius] * tmp[(size_t)y * cols + x];
            for (int k = 1; k <= radius; ++k)
                s += w[radius + k] * (tmp[(size_t)clampi(y + k, 0, rows - 1) * cols + x] +
                                      tmp[(size_t)clampi(y - k, 0, rows - 1) * cols + x]);
            const int mean = clampi((int)lrintf(s), 0, 255); /* nearest-even, as convert_int_rte */
            dst[(size_t)y * cols + x] = decide(src[(size_t)y * cols + x], mean, idelta, inverted);
        }
    free(tmp);
}

static void ref_area_down(const uint8_t *src, int rows, int cols, int k, uint8_t *dst) {
    const int scols = cols * k, area = k * k;
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x) {
            int sum = 0;
            for (int j = 0; j < k; ++j)
                for (int i = 0; i < k; ++i) sum += src[(size_t)(y * k + j) * scols + x * k + i];
            int v;
            if (k == 2) {
                v = (sum + 2) >> 2;
            } else {
                const int q = sum / area, r = sum - q * area;
                v = 2 * r > area ? q + 1 : (2 * r < area ? q : q + (q & 1));
            }
            dst[(size_t)y * cols + x] = (uint8_t)v;
        }
}

/* The Gaussian kernel of a blockSize-wide adaptive threshold: sigma = 0.3·((n−1)/2 − 1) + 0.8
 * (OpenCV's rule for sigma 0), computed in double, normalized, stored as float. The kernel and
 * the reference get the same weights, so parity does not depend on how they were made. */
static void gaussian_weights(int n, float *w) {
    const double sigma = 0.3 * ((n - 1) * 0.5 - 1) + 0.8;
    double sum = 0, t[256];
    for (int i = 0; i < n; ++i) {
        const double x = i - (n - 1) * 0.5;
        t[i] = exp(-x * x / (2 * sigma * sigma));
        sum += t[i];
    }
    for (int i = 0; i < n; ++i) w[i] = (float)(t[i] / sum);
}

/* MARK: - The frame: page-like, deterministic */

static uint32_t lcg(uint32_t *s) {
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* BGRA: paper lit from one side, dark "glyph" blocks in lines, a little noise. */
static void make_frame(uint8_t *bgra, int rows, int cols) {
    uint32_t seed = 12345;
    for (int y = 0; y < rows; ++y)
        for (int x = 0; x < cols; ++x) {
            const int paper = 150 + (90 * x) / cols;
            uint8_t *p = bgra + ((size_t)y * cols + x) * 4;
            const int n = (int)(lcg(&seed) % 17) - 8;
            p[0] = (uint8_t)clampi(paper - 10 + n, 0, 255);
            p[1] = (uint8_t)clampi(paper + n, 0, 255);
            p[2] = (uint8_t)clampi(paper + 12 + n, 0, 255);
            p[3] = 255;
        }
    const int line = rows / 40 > 8 ? rows / 40 : 8, glyph = line * 2 / 3;
    for (int top = line; top + glyph < rows - line; top += line * 2) {
        for (int left = cols / 20; left + glyph < cols - cols / 20;) {
            const int w = glyph / 2 + (int)(lcg(&seed) % (uint32_t)glyph);
            const int ink = 20 + (int)(lcg(&seed) % 60);
            for (int y = top; y < top + glyph; ++y)
                for (int x = left; x < left + w && x < cols; ++x) {
                    if (((x - left) / 3 + (y - top) / 4) % 3 == 0) continue; /* strokes, not solid boxes */
                    uint8_t *p = bgra + ((size_t)y * cols + x) * 4;
                    p[0] = p[1] = p[2] = (uint8_t)ink;
                }
            left += w + glyph / 3 + (int)(lcg(&seed) % 4 == 0 ? glyph : 0);
        }
    }
}

/* MARK: - OpenCL plumbing */

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    cl_context context;
    cl_command_queue queue;
    cl_program program; /* all the .cl files, built together */
} Device;

static int contains(const char *haystack, const char *needle) {
    if (!needle || !*needle) return 1;
    for (const char *h = haystack; *h; ++h) {
        size_t i = 0;
        while (needle[i] && h[i] && ((h[i] | 32) == (needle[i] | 32))) ++i;
        if (!needle[i]) return 1;
    }
    return 0;
}

/* The first device whose name holds `want`; without `want`, the first GPU, else the first device. */
static int pick_device(const char *want, Device *d) {
    cl_uint np = 0;
    if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0) return 0;
    cl_platform_id ps[16];
    if (np > 16) np = 16;
    CHECK(clGetPlatformIDs(np, ps, NULL));
    int found = 0;
    for (int pass = want ? 1 : 0; pass < 2 && !found; ++pass) {
        for (cl_uint i = 0; i < np && !found; ++i) {
            cl_uint nd = 0;
            const cl_device_type type = pass == 0 ? CL_DEVICE_TYPE_GPU : CL_DEVICE_TYPE_ALL;
            if (clGetDeviceIDs(ps[i], type, 0, NULL, &nd) != CL_SUCCESS || nd == 0) continue;
            cl_device_id ds[16];
            if (nd > 16) nd = 16;
            CHECK(clGetDeviceIDs(ps[i], type, nd, ds, NULL));
            for (cl_uint j = 0; j < nd && !found; ++j) {
                char name[256] = {0};
                clGetDeviceInfo(ds[j], CL_DEVICE_NAME, sizeof name - 1, name, NULL);
                if (contains(name, want)) {
                    d->platform = ps[i];
                    d->device = ds[j];
                    found = 1;
                }
            }
        }
    }
    return found;
}

static void list_devices(void) {
    cl_uint np = 0;
    if (clGetPlatformIDs(0, NULL, &np) != CL_SUCCESS || np == 0) {
        printf("OpenCL: no platform (no ICD in /etc/OpenCL/vendors, or the loader found none)\n");
        return;
    }
    cl_platform_id ps[16];
    if (np > 16) np = 16;
    CHECK(clGetPlatformIDs(np, ps, NULL));
    for (cl_uint i = 0; i < np; ++i) {
        char pname[256] = {0}, pver[256] = {0};
        clGetPlatformInfo(ps[i], CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL);
        clGetPlatformInfo(ps[i], CL_PLATFORM_VERSION, sizeof pver - 1, pver, NULL);
        printf("platform %u: %s (%s)\n", i, pname, pver);
        cl_uint nd = 0;
        if (clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS) continue;
        cl_device_id ds[16];
        if (nd > 16) nd = 16;
        CHECK(clGetDeviceIDs(ps[i], CL_DEVICE_TYPE_ALL, nd, ds, NULL));
        for (cl_uint j = 0; j < nd; ++j) {
            char name[256] = {0}, driver[256] = {0};
            cl_ulong mem = 0;
            cl_uint units = 0;
            clGetDeviceInfo(ds[j], CL_DEVICE_NAME, sizeof name - 1, name, NULL);
            clGetDeviceInfo(ds[j], CL_DRIVER_VERSION, sizeof driver - 1, driver, NULL);
            clGetDeviceInfo(ds[j], CL_DEVICE_GLOBAL_MEM_SIZE, sizeof mem, &mem, NULL);
            clGetDeviceInfo(ds[j], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof units, &units, NULL);
            printf("  device %u: %s, driver %s, %u compute units, %.1f GiB\n", j, name, driver, units,
                   (double)mem / (1024.0 * 1024.0 * 1024.0));
        }
    }
}

static void open_device(Device *d, const char *kernels_dir) {
    cl_int err;
    d->context = clCreateContext(NULL, 1, &d->device, NULL, NULL, &err);
    if (err != CL_SUCCESS) die("clCreateContext", err);
    d->queue = clCreateCommandQueue(d->context, d->device, 0, &err);
    if (err != CL_SUCCESS) die("clCreateCommandQueue", err);
    const char *files[] = {"gray.cl", "orient.cl", "adaptive_threshold.cl", "resize.cl"};
    char *sources[4];
    for (int i = 0; i < 4; ++i) sources[i] = read_text(kernels_dir, files[i]);
    d->program = clCreateProgramWithSource(d->context, 4, (const char **)sources, NULL, &err);
    if (err != CL_SUCCESS) die("clCreateProgramWithSource", err);
    char options[64];
    snprintf(options, sizeof options, "-DTILE=%d", TILE);
    const double t0 = now_s();
    err = clBuildProgram(d->program, 1, &d->device, options, NULL, NULL);
    const double built = now_s() - t0;
    if (err != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(d->program, d->device, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
        char *log = malloc(n + 1);
        clGetProgramBuildInfo(d->program, d->device, CL_PROGRAM_BUILD_LOG, n, log, NULL);
        log[n] = 0;
        fprintf(stderr, "gpucheck: the kernels did not build:\n%s\n", log);
        exit(2);
    }
    printf("kernels: %s/{gray,orient,adaptive_threshold,resize}.cl built in %.0f ms\n", kernels_dir, built * 1e3);
    for (int i = 0; i < 4; ++i) free(sources[i]);
}

static cl_mem buffer(Device *d, cl_mem_flags flags, size_t bytes) {
    cl_int err;
    cl_mem m = clCreateBuffer(d->context, flags, bytes ? bytes : 1, NULL, &err);
    if (err != CL_SUCCESS) die("clCreateBuffer", err);
    return m;
}

static cl_kernel kernel(Device *d, const char *name) {
    cl_int err;
    cl_kernel k = clCreateKernel(d->program, name, &err);
    if (err != CL_SUCCESS) die(name, err);
    return k;
}

/* Sets arguments in order: 'm' cl_mem, 'i' int. */
static void args(cl_kernel k, const char *kinds, ...) {
    va_list ap;
    va_start(ap, kinds);
    for (cl_uint i = 0; kinds[i]; ++i) {
        if (kinds[i] == 'm') {
            cl_mem m = va_arg(ap, cl_mem);
            CHECK(clSetKernelArg(k, i, sizeof m, &m));
        } else {
            int v = va_arg(ap, int);
            CHECK(clSetKernelArg(k, i, sizeof v, &v));
        }
    }
    va_end(ap);
}

/* One op: its kernels (1 or 2 launches), its buffers and its reference. */
typedef struct {
    const char *name;
    int launches;
    cl_kernel k[2];
    size_t global[2][2];
    size_t local[2][2]; /* 0: let the runtime choose */
    int dims[2];
    cl_mem in, out;
    size_t in_bytes, out_bytes;
    const uint8_t *in_host;
    uint8_t *expected;
    uint8_t *got;
} Op;

static void enqueue(Device *d, Op *op) {
    for (int i = 0; i < op->launches; ++i) {
        const size_t *local = op->local[i][0] ? op->local[i] : NULL;
        CHECK(clEnqueueNDRangeKernel(d->queue, op->k[i], (cl_uint)op->dims[i], NULL, op->global[i], local, 0, NULL,
                                     NULL));
    }
}

static int cmp_double(const void *a, const void *b) {
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static size_t round_up(size_t v, size_t m) { return (v + m - 1) / m * m; }

static int failures = 0;

/* Parity and both throughputs of one op; `pixels` is the input frame's pixel count. */
static void measure(Device *d, Op *op, int runs, int rows, int cols, double pixels) {
    CHECK(clEnqueueWriteBuffer(d->queue, op->in, CL_TRUE, 0, op->in_bytes, op->in_host, 0, NULL, NULL));
    enqueue(d, op); /* warm-up (first launch compiles or uploads on some drivers) */
    CHECK(clFinish(d->queue));
    double *kt = malloc(sizeof(double) * (size_t)runs), *tt = malloc(sizeof(double) * (size_t)runs);
    for (int r = 0; r < runs; ++r) {
        const double t0 = now_s();
        enqueue(d, op);
        CHECK(clFinish(d->queue));
        kt[r] = now_s() - t0;
    }
    memset(op->got, 0, op->out_bytes);
    CHECK(clEnqueueReadBuffer(d->queue, op->out, CL_TRUE, 0, op->out_bytes, op->got, 0, NULL, NULL));
    size_t differ = 0;
    int worst = 0;
    for (size_t i = 0; i < op->out_bytes; ++i)
        if (op->got[i] != op->expected[i]) {
            ++differ;
            const int dlt = abs((int)op->got[i] - (int)op->expected[i]);
            if (dlt > worst) worst = dlt;
        }
    for (int r = 0; r < runs; ++r) {
        const double t0 = now_s();
        CHECK(clEnqueueWriteBuffer(d->queue, op->in, CL_FALSE, 0, op->in_bytes, op->in_host, 0, NULL, NULL));
        enqueue(d, op);
        CHECK(clEnqueueReadBuffer(d->queue, op->out, CL_TRUE, 0, op->out_bytes, op->got, 0, NULL, NULL));
        tt[r] = now_s() - t0;
    }
    const double k = median(kt, runs), t = median(tt, runs);
    char parity[96];
    if (differ == 0)
        snprintf(parity, sizeof parity, "identical");
    else {
        snprintf(parity, sizeof parity, "%zu of %zu bytes differ (max %d)", differ, op->out_bytes, worst);
        ++failures;
    }
    printf("%4dx%-5d %-32s %-34s %9.3f %9.2f %9.3f %9.2f\n", cols, rows, op->name, parity, k * 1e3,
           pixels / k / 1e9, t * 1e3, pixels / t / 1e9);
    free(kt);
    free(tt);
}

static void run_size(Device *d, int rows, int cols, int runs) {
    const size_t n = (size_t)rows * cols;
    const double pixels = (double)n;
    uint8_t *bgra = malloc(n * 4), *gray = malloc(n), *expected = malloc(n * 4), *got = malloc(n * 4);
    make_frame(bgra, rows, cols);
    ref_gray(bgra, rows, cols, 4, 0, gray);
    cl_mem in4 = buffer(d, CL_MEM_READ_ONLY, n * 4), in1 = buffer(d, CL_MEM_READ_ONLY, n);
    cl_mem out4 = buffer(d, CL_MEM_WRITE_ONLY, n * 4), out1 = buffer(d, CL_MEM_WRITE_ONLY, n);
    cl_mem tmp = buffer(d, CL_MEM_READ_WRITE, n * sizeof(float));
    const int radius = 15, idelta = 10; /* blockSize 31, C 10 (THRESH_BINARY: ceil(C)) */
    float w[31];
    gaussian_weights(31, w);
    cl_int err;
    cl_mem weights = clCreateBuffer(d->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof w, w, &err);
    if (err != CL_SUCCESS) die("clCreateBuffer(weights)", err);
    const size_t g2[2] = {(size_t)cols, (size_t)rows};

    /* BGRA and RGBA to gray. */
    for (int bidx = 0; bidx <= 2; bidx += 2) {
        Op op = {bidx == 0 ? "to_gray bgra" : "to_gray rgba", 1, {kernel(d, "to_gray")}, {{g2[0], g2[1]}},
                 {{0}}, {2}, in4, out1, n * 4, n, bgra, expected, got};
        args(op.k[0], "miimiiiiii", in4, cols * 4, 0, out1, cols, 0, rows, cols, 4, bidx);
        ref_gray(bgra, rows, cols, 4, bidx, expected);
        measure(d, &op, runs, rows, cols, pixels);
        clReleaseKernel(op.k[0]);
    }
    {
        Op op = {"copy_gray", 1, {kernel(d, "copy_gray")}, {{g2[0], g2[1]}}, {{0}}, {2}, in1, out1, n, n, gray,
                 expected, got};
        args(op.k[0], "miimiiii", in1, cols, 0, out1, cols, 0, rows, cols);
        memcpy(expected, gray, n);
        measure(d, &op, runs, rows, cols, pixels);
        clReleaseKernel(op.k[0]);
    }
    /* Orientation: 180° of BGRA, a quarter turn of BGRA (orient) and of gray (the tiled transpose). */
    const int turns[2] = {3, 6};
    for (int i = 0; i < 2; ++i) {
        const int o = turns[i], swap = o >= 5, urows = swap ? cols : rows, ucols = swap ? rows : cols;
        Op op = {o == 3 ? "orient bgra down (3)" : "orient bgra right (6)", 1, {kernel(d, "orient")},
                 {{(size_t)ucols, (size_t)urows}}, {{0}}, {2}, in4, out4, n * 4, n * 4, bgra, expected, got};
        args(op.k[0], "miiiimiiiiii", in4, cols * 4, 0, rows, cols, out4, ucols * 4, 0, urows, ucols, o, 4);
        ref_orient(bgra, rows, cols, o, 4, expected);
        measure(d, &op, runs, rows, cols, pixels);
        clReleaseKernel(op.k[0]);
    }
    {
        const int urows = cols, ucols = rows;
        Op op = {"orient_transpose_gray right (6)", 1, {kernel(d, "orient_transpose_gray")},
                 {{round_up((size_t)cols, TILE), round_up((size_t)rows, TILE)}}, {{TILE, TILE}}, {2}, in1, out1, n, n,
                 gray, expected, got};
        args(op.k[0], "miiiimiiiii", in1, cols, 0, rows, cols, out1, ucols, 0, urows, ucols, 6);
        ref_orient(gray, rows, cols, 6, 1, expected);
        measure(d, &op, runs, rows, cols, pixels);
        clReleaseKernel(op.k[0]);
    }
    /* Adaptive threshold, blockSize 31, C 10: the box (mean) and the Gaussian. */
    {
        Op op = {"threshold mean 31 (2 kernels)", 2, {kernel(d, "box_rows"), kernel(d, "box_cols_threshold")},
                 {{(size_t)rows}, {(size_t)cols}}, {{0}, {0}}, {1, 1}, in1, out1, n, n, gray, expected, got};
        args(op.k[0], "miiiimi", in1, cols, 0, rows, cols, tmp, radius);
        args(op.k[1], "miiiimmiiiii", in1, cols, 0, rows, cols, tmp, out1, cols, 0, radius, idelta, 0);
        ref_box_threshold(gray, rows, cols, radius, idelta, 0, expected);
        measure(d, &op, runs, rows, cols, pixels);
        clReleaseKernel(op.k[0]);
        clReleaseKernel(op.k[1]);
    }
    {
        Op op = {"threshold gauss 31 (2 kernels)", 2, {kernel(d, "gauss_rows"), kernel(d, "gauss_cols_threshold")},
                 {{g2[0], g2[1]}, {g2[0], g2[1]}}, {{0}, {0}}, {2, 2}, in1, out1, n, n, gray, expected, got};
        args(op.k[0], "miiiimim", in1, cols, 0, rows, cols, tmp, radius, weights);
        args(op.k[1], "miiiimmiiimii", in1, cols, 0, rows, cols, tmp, out1, cols, 0, radius, weights, idelta, 0);
        ref_gauss_threshold(gray, rows, cols, radius, w, idelta, 0, expected);
        measure(d, &op, runs, rows, cols, pixels);
        clReleaseKernel(op.k[0]);
        clReleaseKernel(op.k[1]);
    }
    /* Area downscale by 2 and by 3 (the frame cropped to a multiple of 3). */
    for (int k = 2; k <= 3; ++k) {
        const int drows = rows / k, dcols = cols / k;
        Op op = {k == 2 ? "area_down k=2" : "area_down k=3", 1, {kernel(d, "area_down")},
                 {{(size_t)dcols, (size_t)drows}}, {{0}}, {2}, in1, out1, n, (size_t)drows * dcols, gray, expected,
                 got};
        /* The source is read with its own step: rows·k × cols·k of the frame's top-left. */
        args(op.k[0], "miimiiiii", in1, cols, 0, out1, dcols, 0, drows, dcols, k);
        uint8_t *crop = malloc((size_t)drows * k * dcols * k);
        for (int y = 0; y < drows * k; ++y) memcpy(crop + (size_t)y * dcols * k, gray + (size_t)y * cols, (size_t)dcols * k);
        ref_area_down(crop, drows, dcols, k, expected);
        free(crop);
        measure(d, &op, runs, rows, cols, (double)drows * k * dcols * k);
        clReleaseKernel(op.k[0]);
    }
    clReleaseMemObject(in4);
    clReleaseMemObject(in1);
    clReleaseMemObject(out4);
    clReleaseMemObject(out1);
    clReleaseMemObject(tmp);
    clReleaseMemObject(weights);
    free(bgra);
    free(gray);
    free(expected);
    free(got);
}

int main(int argc, char **argv) {
    const char *kernels_dir = "Kernels", *want = NULL, *sizes = "1920x1080,3840x2160";
    int runs = 10, list = 0;
    for (int i = 1; i < argc; ++i) {
        if (!strcmp(argv[i], "--kernels") && i + 1 < argc) kernels_dir = argv[++i];
        else if (!strcmp(argv[i], "--device") && i + 1 < argc) want = argv[++i];
        else if (!strcmp(argv[i], "--runs") && i + 1 < argc) runs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--sizes") && i + 1 < argc) sizes = argv[++i];
        else if (!strcmp(argv[i], "--list")) list = 1;
        else {
            fprintf(stderr, "usage: gpucheck [--kernels DIR] [--device NAME] [--runs N] [--sizes WxH,…] [--list]\n");
            return 2;
        }
    }
    if (runs < 1 || runs > 1000) {
        fprintf(stderr, "gpucheck: --runs must be 1…1000\n");
        return 2;
    }
    list_devices();
    if (list) return 0;
    Device d = {0};
    if (!pick_device(want, &d)) {
        fprintf(stderr, "gpucheck: no OpenCL device%s%s\n", want ? " matching " : "", want ? want : "");
        return 2;
    }
    char name[256] = {0}, version[256] = {0};
    clGetDeviceInfo(d.device, CL_DEVICE_NAME, sizeof name - 1, name, NULL);
    clGetDeviceInfo(d.device, CL_DEVICE_VERSION, sizeof version - 1, version, NULL);
    printf("device: %s (%s)\n", name, version);
    open_device(&d, kernels_dir);
    printf("runs: %d per measurement (median); GPix/s = input frame pixels per second\n\n", runs);
    printf("%-10s %-32s %-34s %9s %9s %9s %9s\n", "size", "kernel", "parity (vs the C reference)", "kernel ms",
           "GPix/s", "+xfer ms", "GPix/s");
    const char *p = sizes;
    while (*p) {
        int w = 0, h = 0, used = 0;
        if (sscanf(p, "%dx%d%n", &w, &h, &used) != 2 || w < 16 || h < 16 || w > 16384 || h > 16384) {
            fprintf(stderr, "gpucheck: bad size in --sizes: %s\n", p);
            return 2;
        }
        run_size(&d, h, w, runs);
        p += used;
        if (*p == ',') ++p;
    }
    printf("\n%s\n", failures ? "PARITY FAILED" : "parity: every output identical to the C reference");
    clReleaseProgram(d.program);
    clReleaseCommandQueue(d.queue);
    clReleaseContext(d.context);
    return failures ? 1 : 0;
}
