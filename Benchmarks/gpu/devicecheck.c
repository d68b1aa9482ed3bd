/*
 * devicecheck.c — FrameOCR's neural networks on every device OpenVINO lists, against its CPU,
 * without Swift or OpenCV: the same comparison as the library's parity probe (focr_dnn.h), for a
 * machine where a device exists (issue 42, item 6).
 *
 * For each model (the CTC line recognizer's, 1×3×48×W at W = 320, 640 and 320 again on one
 * compiled network; the text detector's, 1×3×96×320), it compiles the model for the CPU and for
 * every other device OpenVINO lists, runs both on one fixed input and compares the outputs as the
 * library does:
 *   - max |Δ|: the largest |CPU − device| over values both give as finite numbers;
 *   - non-finite: the device output's NaNs and infinities;
 *   - mismatches: the recognizer's time steps whose most probable class differs (the CPU's choice
 *     more probable than the device's by more than the tolerance), the detector's map pixels on
 *     different sides of 0.3 (the CPU's value more than the tolerance from it);
 *   - diverged when a value is not finite, max |Δ| > 0.001 (FOCR_DNN_PROBE_TOLERANCE), a mismatch
 *     is counted, the shapes differ, or the device fails to compile or run the network.
 * The networks are compiled with the library's properties for one worker: INFERENCE_PRECISION_HINT
 * f32 on every device (the library's --precision f32, and what it asks of a device other than the
 * CPU), ENABLE_CPU_PINNING NO on the CPU.
 *
 * The input is not the library's probe line (drawn by OpenCV's putText, which this file does not
 * have) but a fixed one made here: thirteen glyph-like boxes of strokes, ink 20 on paper 235, the
 * same on every machine; it is normalized as (v − 127.5) / 127.5. Parity does not depend on which
 * fixed input is used; what the library decides on its own probe line is in its decision
 * (frameocr recognize … --device auto --format json, docs/openvino.md#devices).
 *
 *   cc -O2 -std=c11 -I$OV/include devicecheck.c $OV/lib/libopenvino_c.so.2641 -Wl,-rpath,$OV/lib -o devicecheck
 *   ./devicecheck [--models DIR] [--self] [--perturb D]
 *
 * --models DIR: where ppocrv4-rec.onnx and ppocrv4-det.onnx are (default /usr/local/share/frameocr,
 * where `make deps` installs them). --self: also compare the CPU with a second compile of its own
 * (the harness's check on a machine with the CPU alone: it must find them the same). --perturb D:
 * add D to every value of the device's output before comparing (the control: D over the tolerance
 * must be caught, exit status 1).
 * Exit status: 0 when every device gives the CPU's outputs (or none but the CPU is listed), 1 when
 * one diverges, 2 on a usage or OpenVINO error. Run it through Benchmarks/gpu/run.sh.
 */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openvino/c/openvino.h>

#define TOLERANCE 1e-3f
#define DETECTOR_THRESHOLD 0.3f

/* --perturb: added to every value of the device's output (the control). */
static float perturb = 0;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static void fail(const char *what, ov_status_e status) {
    fprintf(stderr, "devicecheck: %s failed (OpenVINO status %d: %s)\n", what, (int)status, ov_get_last_err_msg());
    exit(2);
}

/* The fixed input: `width` columns and `height` rows of paper 235 with thirteen glyph-like boxes of
 * ink 20 from x = 8 (each 16×24 or the height's half, strokes chosen by the box's index), as a
 * 1×3×height×width blob normalized (v − 127.5) / 127.5, the three channels alike; columns past
 * `drawn` are 0 (the recognizer's padding). */
static float *probe_input(int width, int height, int drawn) {
    float *blob = malloc(sizeof(float) * 3 * (size_t)width * height);
    if (!blob) {
        fprintf(stderr, "devicecheck: out of memory\n");
        exit(2);
    }
    const int box_h = height / 2 < 24 ? height / 2 : 24, top = (height - box_h) / 2;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            float v = 0;
            if (x < drawn) {
                int ink = 0;
                const int i = (x - 8) / 22, dx = (x - 8) % 22, dy = y - top;
                if (x >= 8 && i < 13 && dx < 16 && dy >= 0 && dy < box_h) {
                    const unsigned bits = (unsigned)(i * 2654435761u) >> 7;
                    if ((bits & 1) && dx < 3) ink = 1;                            /* left stem */
                    if ((bits & 2) && dx >= 13) ink = 1;                          /* right stem */
                    if ((bits & 4) && dy < 3) ink = 1;                            /* top bar */
                    if ((bits & 8) && dy >= box_h / 2 - 1 && dy < box_h / 2 + 2) ink = 1; /* middle */
                    if ((bits & 16) && dy >= box_h - 3) ink = 1;                  /* bottom bar */
                    if (!(bits & 31) && dx >= 6 && dx < 9) ink = 1;               /* a lone stem */
                }
                v = ((ink ? 20.0f : 235.0f) - 127.5f) / 127.5f;
            }
            for (int c = 0; c < 3; ++c) blob[((size_t)c * height + y) * width + x] = v;
        }
    }
    return blob;
}

typedef struct {
    float max_diff;
    long non_finite, mismatches, compared;
    int same_shape;
} comparison;

static int diverged(const comparison *c) {
    return !c->same_shape || c->non_finite > 0 || c->mismatches > 0 || !(c->max_diff <= TOLERANCE);
}

/* One network's run on `input` (shape 1×3×h×w): its output copied into *out (malloc'd), its shape
 * into dims/rank. */
static void run(ov_compiled_model_t *model, float *input, int h, int w, float **out, int64_t dims[8], size_t *rank,
                double *ms) {
    ov_infer_request_t *request = NULL;
    ov_status_e s = ov_compiled_model_create_infer_request(model, &request);
    if (s != OK) fail("ov_compiled_model_create_infer_request", s);
    const int64_t in_dims[4] = {1, 3, h, w};
    ov_shape_t shape;
    if ((s = ov_shape_create(4, in_dims, &shape)) != OK) fail("ov_shape_create", s);
    ov_tensor_t *tensor = NULL;
    if ((s = ov_tensor_create_from_host_ptr(F32, shape, input, &tensor)) != OK) fail("ov_tensor_create_from_host_ptr", s);
    ov_shape_free(&shape);
    if ((s = ov_infer_request_set_input_tensor(request, tensor)) != OK) fail("ov_infer_request_set_input_tensor", s);
    const double start = now_ms();
    if ((s = ov_infer_request_infer(request)) != OK) fail("ov_infer_request_infer", s);
    *ms = now_ms() - start;
    ov_tensor_t *output = NULL;
    if ((s = ov_infer_request_get_output_tensor(request, &output)) != OK) fail("ov_infer_request_get_output_tensor", s);
    ov_shape_t out_shape;
    if ((s = ov_tensor_get_shape(output, &out_shape)) != OK) fail("ov_tensor_get_shape", s);
    size_t n = 1;
    *rank = (size_t)out_shape.rank < 8 ? (size_t)out_shape.rank : 8;
    for (size_t i = 0; i < *rank; ++i) {
        dims[i] = out_shape.dims[i];
        n *= (size_t)out_shape.dims[i];
    }
    ov_shape_free(&out_shape);
    void *data = NULL;
    if ((s = ov_tensor_data(output, &data)) != OK) fail("ov_tensor_data", s);
    *out = malloc(sizeof(float) * n);
    memcpy(*out, data, sizeof(float) * n);
    ov_tensor_free(output);
    ov_tensor_free(tensor);
    ov_infer_request_free(request);
}

static size_t count(const int64_t *dims, size_t rank) {
    size_t n = 1;
    for (size_t i = 0; i < rank; ++i) n *= (size_t)dims[i];
    return n;
}

static void compare(const float *a, const float *b, const int64_t *da, size_t ra, const int64_t *db, size_t rb,
                    int recognizer, comparison *c) {
    if (ra != rb || memcmp(da, db, ra * sizeof(int64_t)) != 0) {
        c->same_shape = 0;
        return;
    }
    const size_t n = count(da, ra);
    for (size_t i = 0; i < n; ++i) {
        if (!isfinite(b[i])) {
            ++c->non_finite;
            continue;
        }
        if (isfinite(a[i]) && fabsf(a[i] - b[i]) > c->max_diff) c->max_diff = fabsf(a[i] - b[i]);
    }
    if (recognizer) {
        const size_t classes = (size_t)da[ra - 1], steps = n / classes;
        for (size_t t = 0; t < steps; ++t) {
            const float *pa = a + t * classes, *pb = b + t * classes;
            size_t ia = 0, ib = 0;
            for (size_t k = 1; k < classes; ++k) {
                if (pa[k] > pa[ia]) ia = k;
                if (pb[k] > pb[ib]) ib = k;
            }
            if (ia != ib && pa[ia] - pa[ib] > TOLERANCE) ++c->mismatches;
        }
        c->compared += (long)steps;
    } else {
        for (size_t i = 0; i < n; ++i)
            if ((a[i] >= DETECTOR_THRESHOLD) != (b[i] >= DETECTOR_THRESHOLD) &&
                fabsf(a[i] - DETECTOR_THRESHOLD) > TOLERANCE)
                ++c->mismatches;
        c->compared += (long)n;
    }
}

static ov_compiled_model_t *compile(ov_core_t *core, const char *path, const char *device, double *ms,
                                    const char **error) {
    ov_property_t props[2];
    size_t n = 0;
    props[n++] = (ov_property_t){"INFERENCE_PRECISION_HINT", "f32"};
    if (strncmp(device, "CPU", 3) == 0) props[n++] = (ov_property_t){"ENABLE_CPU_PINNING", "NO"};
    ov_compiled_model_t *model = NULL;
    const double start = now_ms();
    const ov_status_e s = ov_core_compile_model_from_file_props(core, path, device, n, props, &model);
    *ms = now_ms() - start;
    if (s != OK) {
        *error = ov_get_last_err_msg();
        return NULL;
    }
    return model;
}

/* One model on one device against the CPU: prints a row, returns 1 when it diverged. */
static int check(ov_core_t *core, ov_compiled_model_t *cpu, const char *name, const char *path, const char *device,
                 int recognizer) {
    double compile_ms = 0;
    const char *error = NULL;
    ov_compiled_model_t *other = compile(core, path, device, &compile_ms, &error);
    if (!other) {
        printf("%-11s %-12s diverged: it cannot compile the network: %s\n", name, device, error ? error : "?");
        return 1;
    }
    static const int widths[3] = {320, 640, 320};
    const int h = recognizer ? 48 : 96, runs = recognizer ? 3 : 1;
    comparison c = {0, 0, 0, 0, 1};
    double cpu_ms = 0, device_ms = 0;
    for (int r = 0; r < runs; ++r) {
        const int w = recognizer ? widths[r] : 320;
        float *input = probe_input(w, h, 320);
        float *a = NULL, *b = NULL;
        int64_t da[8], db[8];
        size_t ra = 0, rb = 0;
        double ta = 0, tb = 0;
        run(cpu, input, h, w, &a, da, &ra, &ta);
        run(other, input, h, w, &b, db, &rb, &tb);
        if (perturb != 0)
            for (size_t i = 0, n = count(db, rb); i < n; ++i) b[i] += perturb;
        cpu_ms += ta;
        device_ms += tb;
        compare(a, b, da, ra, db, rb, recognizer, &c);
        free(a);
        free(b);
        free(input);
        if (diverged(&c)) break;
    }
    ov_compiled_model_free(other);
    if (!c.same_shape) {
        printf("%-11s %-12s diverged: the outputs' shapes differ\n", name, device);
        return 1;
    }
    printf("%-11s %-12s %s: %ld values not finite, %ld of %ld %s, max |Δ| %.2g (tolerance %g); "
           "CPU %.1f ms, device %.1f ms (compile %.0f ms)\n",
           name, device, diverged(&c) ? "diverged" : "same", c.non_finite, c.mismatches, c.compared,
           recognizer ? "steps of another class" : "pixels across the threshold", (double)c.max_diff,
           (double)TOLERANCE, cpu_ms, device_ms, compile_ms);
    return diverged(&c);
}

int main(int argc, char **argv) {
    const char *models = "/usr/local/share/frameocr";
    int self = 0;
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--models") == 0 && i + 1 < argc) {
            models = argv[++i];
        } else if (strcmp(argv[i], "--self") == 0) {
            self = 1;
        } else if (strcmp(argv[i], "--perturb") == 0 && i + 1 < argc) {
            perturb = strtof(argv[++i], NULL);
        } else {
            fprintf(stderr, "usage: devicecheck [--models DIR] [--self] [--perturb D]\n");
            return 2;
        }
    }
    ov_core_t *core = NULL;
    ov_status_e s = ov_core_create(&core);
    if (s != OK) fail("ov_core_create", s);
    ov_version_t version;
    if (ov_get_openvino_version(&version) == OK) {
        printf("OpenVINO %s\n", version.buildNumber);
        ov_version_free(&version);
    }
    ov_available_devices_t devices;
    if ((s = ov_core_get_available_devices(core, &devices)) != OK) fail("ov_core_get_available_devices", s);
    printf("devices:");
    for (size_t i = 0; i < devices.size; ++i) printf(" %s", devices.devices[i]);
    printf("\n");

    const struct {
        const char *name, *file;
        int recognizer;
    } networks[2] = {{"recognizer", "ppocrv4-rec.onnx", 1}, {"detector", "ppocrv4-det.onnx", 0}};
    int divergences = 0, others = 0;
    for (int m = 0; m < 2; ++m) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", models, networks[m].file);
        double ms = 0;
        const char *error = NULL;
        ov_compiled_model_t *cpu = compile(core, path, "CPU", &ms, &error);
        if (!cpu) {
            fprintf(stderr, "devicecheck: %s: the CPU cannot compile it: %s\n", path, error ? error : "?");
            return 2;
        }
        if (self) divergences += check(core, cpu, networks[m].name, path, "CPU", networks[m].recognizer);
        for (size_t i = 0; i < devices.size; ++i) {
            if (strncmp(devices.devices[i], "CPU", 3) == 0) continue;
            ++others;
            divergences += check(core, cpu, networks[m].name, path, devices.devices[i], networks[m].recognizer);
        }
        ov_compiled_model_free(cpu);
    }
    if (others == 0)
        printf("no device besides the CPU: FrameOCR's --device gpu, npu and auto run on the CPU here\n");
    printf("%d comparison(s) diverged\n", divergences);
    ov_available_devices_free(&devices);
    ov_core_free(core);
    return divergences > 0 ? 1 : 0;
}
