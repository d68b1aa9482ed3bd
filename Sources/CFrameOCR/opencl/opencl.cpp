// The OpenCL backend: device enumeration, contexts with a built program, and our kernels.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <atomic>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "focr_common/descriptor.hpp"
#include "focr_common/status.hpp"
#include "focr_opencl.h"

using namespace focr;

namespace {

#if defined(DEBUG) || defined(FRAMEOCR_FAULT_INJECTION)
// focr_cl_debug_inject_fault's state: which kind of call fails, after how many successes, how often.
std::atomic<int32_t> fault_kind{FOCR_CL_FAULT_NONE}, fault_skip{0}, fault_count{0};

/// Whether this call of `kind` is one the test asked to fail.
bool injected(focr_cl_fault kind) {
    if (fault_kind.load() != kind) return false;
    if (fault_skip.fetch_sub(1) > 0) return false;
    return fault_count.fetch_sub(1) > 0;
}
#else
inline bool injected(focr_cl_fault) { return false; }
#endif

focr_status cl_fail(const char *what, cl_int err, const std::string &extra = "") {
    return fail(FOCR_E_OPENCL, std::string(what) + " failed with OpenCL error " + std::to_string(err) +
                                   (extra.empty() ? "" : ": " + extra));
}

/// Every device of every platform, in platform order.
std::vector<std::pair<cl_platform_id, cl_device_id>> all_devices() {
    std::vector<std::pair<cl_platform_id, cl_device_id>> out;
    cl_uint np = 0;
    if (clGetPlatformIDs(0, nullptr, &np) != CL_SUCCESS || np == 0) return out;
    std::vector<cl_platform_id> platforms(np);
    if (clGetPlatformIDs(np, platforms.data(), nullptr) != CL_SUCCESS) return out;
    for (cl_platform_id p : platforms) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
        std::vector<cl_device_id> devices(nd);
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, devices.data(), nullptr) != CL_SUCCESS) continue;
        for (cl_device_id d : devices) out.emplace_back(p, d);
    }
    return out;
}

template <size_t N>
void info_string(cl_device_id d, cl_device_info what, char (&out)[N]) {
    out[0] = '\0';
    size_t n = 0;
    if (clGetDeviceInfo(d, what, N - 1, out, &n) == CL_SUCCESS) out[std::min(n, N - 1)] = '\0';
}

template <typename T>
T info_value(cl_device_id d, cl_device_info what) {
    T v{};
    clGetDeviceInfo(d, what, sizeof v, &v, nullptr);
    return v;
}

}  // namespace

extern "C" focr_status focr_cl_device_count(int32_t *count) {
    return guarded("cl_device_count", [&]() -> focr_status {
        if (count == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "cl_device_count: NULL");
        *count = (int32_t)all_devices().size();
        return FOCR_OK;
    });
}

extern "C" focr_status focr_cl_device_get_info(int32_t index, focr_cl_device_info *out) {
    return guarded("cl_device_get_info", [&]() -> focr_status {
        auto devices = all_devices();
        if (out == nullptr || index < 0 || index >= (int32_t)devices.size())
            return fail(FOCR_E_INVALID_ARGUMENT, "OpenCL device " + std::to_string(index) + " does not exist (" +
                                                     std::to_string(devices.size()) + " devices)");
        std::memset(out, 0, sizeof *out);
        auto [p, d] = devices[index];
        out->index = index;
        size_t n = 0;
        clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof out->platform - 1, out->platform, &n);
        info_string(d, CL_DEVICE_NAME, out->name);
        info_string(d, CL_DEVICE_VENDOR, out->vendor);
        info_string(d, CL_DEVICE_VERSION, out->version);
        info_string(d, CL_DRIVER_VERSION, out->driver);
        const auto type = info_value<cl_device_type>(d, CL_DEVICE_TYPE);
        out->is_gpu = (type & CL_DEVICE_TYPE_GPU) ? 1 : 0;
        out->is_cpu = (type & CL_DEVICE_TYPE_CPU) ? 1 : 0;
        out->compute_units = (int32_t)info_value<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS);
        out->global_memory = info_value<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
        out->max_allocation = info_value<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
        out->local_memory = info_value<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE);
        out->max_work_group_size = info_value<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
        out->host_unified_memory = info_value<cl_bool>(d, CL_DEVICE_HOST_UNIFIED_MEMORY) ? 1 : 0;
        out->image_support = info_value<cl_bool>(d, CL_DEVICE_IMAGE_SUPPORT) ? 1 : 0;
        return FOCR_OK;
    });
}

struct focr_cl_context {
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    cl_program program = nullptr;
    cl_kernel to_gray = nullptr, copy_gray = nullptr, orient = nullptr, orient_tr = nullptr;
    cl_kernel box_rows = nullptr, box_cols = nullptr, gauss_rows = nullptr, gauss_cols = nullptr, area_down = nullptr;
    size_t max_group = 64;
    std::mutex lock;

    ~focr_cl_context() {
        for (cl_kernel k : {to_gray, copy_gray, orient, orient_tr, box_rows, box_cols, gauss_rows, gauss_cols, area_down})
            if (k) clReleaseKernel(k);
        if (program) clReleaseProgram(program);
        if (queue) clReleaseCommandQueue(queue);
        if (context) clReleaseContext(context);
    }
};

extern "C" void focr_cl_context_destroy(focr_cl_context *context) { delete context; }

namespace {

/// FNV-1a 64-bit, hex: the cache key of a program.
std::string fnv1a(const std::string &text) {
    uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char ch : text) h = (h ^ ch) * 0x100000001b3ULL;
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", (unsigned long long)h);
    return buf;
}

focr_status build_program(focr_cl_context *c, cl_device_id d, const char *source, const char *options,
                          const char *cache_dir, int32_t *from_cache) {
    cl_int err = CL_SUCCESS;
    std::string path;
    if (cache_dir != nullptr && *cache_dir != '\0') {
        char name[256], version[256], driver[256];
        info_string(d, CL_DEVICE_NAME, name);
        info_string(d, CL_DEVICE_VERSION, version);
        info_string(d, CL_DRIVER_VERSION, driver);
        const std::string key = std::string(name) + "\n" + version + "\n" + driver + "\n" + (options ? options : "") + "\n" + source;
        path = std::string(cache_dir) + "/frameocr-" + fnv1a(key) + ".clbin";
        std::ifstream f(path, std::ios::binary);
        if (f) {
            std::vector<unsigned char> bin((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
            const unsigned char *ptr = bin.data();
            size_t size = bin.size();
            cl_int status = CL_SUCCESS;
            cl_program p = bin.empty() ? nullptr : clCreateProgramWithBinary(c->context, 1, &d, &size, &ptr, &status, &err);
            if (p != nullptr && err == CL_SUCCESS && status == CL_SUCCESS && !injected(FOCR_CL_FAULT_BUILD) &&
                clBuildProgram(p, 1, &d, options ? options : "", nullptr, nullptr) == CL_SUCCESS) {
                c->program = p;
                if (from_cache) *from_cache = 1;
                return FOCR_OK;
            }
            if (p) clReleaseProgram(p);  // stale or foreign binary: rebuild from source
        }
    }
    c->program = clCreateProgramWithSource(c->context, 1, &source, nullptr, &err);
    if (err != CL_SUCCESS) return cl_fail("clCreateProgramWithSource", err);
    err = injected(FOCR_CL_FAULT_BUILD) ? CL_BUILD_PROGRAM_FAILURE
                                        : clBuildProgram(c->program, 1, &d, options ? options : "", nullptr, nullptr);
    if (err != CL_SUCCESS) {
        size_t n = 0;
        clGetProgramBuildInfo(c->program, d, CL_PROGRAM_BUILD_LOG, 0, nullptr, &n);
        std::string log(n, '\0');
        clGetProgramBuildInfo(c->program, d, CL_PROGRAM_BUILD_LOG, n, log.data(), nullptr);
        return cl_fail("clBuildProgram", err, log);
    }
    if (!path.empty()) {
        size_t size = 0;
        if (clGetProgramInfo(c->program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) == CL_SUCCESS && size > 0) {
            std::vector<unsigned char> bin(size);
            unsigned char *ptr = bin.data();
            if (clGetProgramInfo(c->program, CL_PROGRAM_BINARIES, sizeof ptr, &ptr, nullptr) == CL_SUCCESS) {
                const std::string tmp = path + ".tmp";
                std::ofstream f(tmp, std::ios::binary);
                f.write((const char *)bin.data(), (std::streamsize)bin.size());
                f.close();
                if (f) std::rename(tmp.c_str(), path.c_str());
                else std::remove(tmp.c_str());
            }
        }
    }
    return FOCR_OK;
}

}  // namespace

extern "C" focr_status focr_cl_debug_inject_fault(int32_t kind, int32_t skip, int32_t count) {
#if defined(DEBUG) || defined(FRAMEOCR_FAULT_INJECTION)
    if (kind < FOCR_CL_FAULT_NONE || kind > FOCR_CL_FAULT_MAP || skip < 0 || count < 0)
        return fail(FOCR_E_INVALID_ARGUMENT, "cl_debug_inject_fault: kind 0…4, skip and count ≥ 0");
    fault_kind.store(FOCR_CL_FAULT_NONE);
    fault_skip.store(skip);
    fault_count.store(count);
    fault_kind.store(kind);
    return FOCR_OK;
#else
    (void)kind;
    (void)skip;
    (void)count;
    return fail(FOCR_E_UNSUPPORTED,
                "cl_debug_inject_fault: a debug or test build's setting (neither DEBUG nor FRAMEOCR_FAULT_INJECTION "
                "defined)");
#endif
}

extern "C" focr_cl_requirements focr_cl_default_requirements(void) { return focr_cl_requirements{2048, 64}; }

extern "C" focr_status focr_cl_context_create(int32_t index, const char *source, const char *build_options,
                                              const char *cache_dir, focr_cl_requirements req, focr_cl_context **out,
                                              int32_t *from_cache) {
    return guarded("cl_context_create", [&]() -> focr_status {
        if (out == nullptr || source == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "cl_context_create: NULL");
        *out = nullptr;
        if (from_cache) *from_cache = 0;
        auto devices = all_devices();
        if (devices.empty()) return fail(FOCR_E_NO_OPENCL_DEVICE, "no OpenCL platform or device (is an ICD installed?)");
        if (index < 0 || index >= (int32_t)devices.size())
            return fail(FOCR_E_INVALID_ARGUMENT, "OpenCL device " + std::to_string(index) + " does not exist");
        cl_device_id d = devices[index].second;
        const cl_ulong local = info_value<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE);
        const size_t group = info_value<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
        if (local < req.local_memory || group < req.work_group_size)
            return fail(FOCR_E_OPENCL_DEVICE_UNSUPPORTED, "OpenCL device lacks a needed feature: it has " + std::to_string(local) +
                                                " bytes of local memory and " + std::to_string(group) +
                                                "-item work groups; the kernels need " + std::to_string(req.local_memory) +
                                                " and " + std::to_string(req.work_group_size));
        auto *c = new focr_cl_context();
        std::unique_ptr<focr_cl_context> guard(c);
        c->device = d;
        c->max_group = group;
        cl_int err = CL_SUCCESS;
        c->context = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
        if (err != CL_SUCCESS) return cl_fail("clCreateContext", err);
        c->queue = clCreateCommandQueue(c->context, d, 0, &err);
        if (err != CL_SUCCESS) return cl_fail("clCreateCommandQueue", err);
        focr_status s = build_program(c, d, source, build_options, cache_dir, from_cache);
        if (s != FOCR_OK) return s;
        struct { cl_kernel *k; const char *name; } kernels[] = {
            {&c->to_gray, "to_gray"}, {&c->copy_gray, "copy_gray"}, {&c->orient, "orient"},
            {&c->orient_tr, "orient_transpose_gray"}, {&c->box_rows, "box_rows"},
            {&c->box_cols, "box_cols_threshold"}, {&c->gauss_rows, "gauss_rows"}, {&c->gauss_cols, "gauss_cols_threshold"},
            {&c->area_down, "area_down"}};
        for (auto &k : kernels) {
            *k.k = clCreateKernel(c->program, k.name, &err);
            if (err != CL_SUCCESS) return cl_fail((std::string("clCreateKernel ") + k.name).c_str(), err);
        }
        *out = guard.release();
        return FOCR_OK;
    });
}

namespace {

/// A cl_mem over a plane's bytes (first row start to last row end), no copy.
struct HostBuffer {
    cl_mem mem = nullptr;
    size_t size = 0;
    HostBuffer() = default;
    HostBuffer(const HostBuffer &) = delete;
    ~HostBuffer() { if (mem) clReleaseMemObject(mem); }
};

size_t plane_span(const focr_image &img) {
    const int bpp = packed_bytes_per_pixel(img.format);
    return img.planes[0].bytes_per_row * (size_t)(img.height - 1) + (size_t)img.width * bpp;
}

cl_int wrap(cl_context ctx, const focr_image &img, cl_mem_flags flags, HostBuffer &out) {
    cl_int err = CL_SUCCESS;
    out.size = plane_span(img);
    if (injected(FOCR_CL_FAULT_ALLOCATE)) return CL_OUT_OF_RESOURCES;
    out.mem = clCreateBuffer(ctx, flags | CL_MEM_USE_HOST_PTR, out.size, img.planes[0].data, &err);
    return err;
}

cl_int device_buffer(cl_context ctx, size_t size, HostBuffer &out) {
    cl_int err = CL_SUCCESS;
    out.size = size;
    if (injected(FOCR_CL_FAULT_ALLOCATE)) return CL_OUT_OF_RESOURCES;
    out.mem = clCreateBuffer(ctx, CL_MEM_READ_WRITE, size, nullptr, &err);
    return err;
}

struct Args {
    cl_kernel k;
    cl_uint i = 0;
    cl_int err = CL_SUCCESS;
    explicit Args(cl_kernel k) : k(k) {}
    template <typename T> Args &operator<<(const T &v) {
        if (err == CL_SUCCESS) err = clSetKernelArg(k, i, sizeof(T), &v);
        ++i;
        return *this;
    }
};

size_t round_up(size_t v, size_t m) { return (v + m - 1) / m * m; }

/// Enqueues `k` over w × h items; lw × lh work groups when given (the kernel needs them), else
/// the runtime's choice.
cl_int run2d(cl_command_queue q, cl_kernel k, size_t w, size_t h, size_t lw = 0, size_t lh = 0) {
    if (injected(FOCR_CL_FAULT_ENQUEUE)) return CL_OUT_OF_RESOURCES;
    if (lw == 0) {
        size_t global[2] = {w, h};
        return clEnqueueNDRangeKernel(q, k, 2, nullptr, global, nullptr, 0, nullptr, nullptr);
    }
    size_t local[2] = {lw, lh};
    size_t global[2] = {round_up(w, lw), round_up(h, lh)};
    return clEnqueueNDRangeKernel(q, k, 2, nullptr, global, local, 0, nullptr, nullptr);
}

cl_int run1d(cl_command_queue q, cl_kernel k, size_t n) {
    if (injected(FOCR_CL_FAULT_ENQUEUE)) return CL_OUT_OF_RESOURCES;
    return clEnqueueNDRangeKernel(q, k, 1, nullptr, &n, nullptr, 0, nullptr, nullptr);
}

/// Maps `buffer` for reading so the host memory behind CL_MEM_USE_HOST_PTR holds the result.
cl_int sync_to_host(cl_command_queue q, HostBuffer &b) {
    if (injected(FOCR_CL_FAULT_MAP)) return CL_MAP_FAILURE;
    cl_int err = CL_SUCCESS;
    void *p = clEnqueueMapBuffer(q, b.mem, CL_TRUE, CL_MAP_READ, 0, b.size, 0, nullptr, nullptr, &err);
    if (err != CL_SUCCESS) return err;
    err = clEnqueueUnmapMemObject(q, b.mem, p, 0, nullptr, nullptr);
    if (err != CL_SUCCESS) return err;
    return clFinish(q);
}

focr_status check_images(const focr_image *src, const focr_image *dst, int32_t dst_format, int32_t w, int32_t h,
                         const char *op) {
    focr_status s = validate(src, "src");
    if (s != FOCR_OK) return s;
    if ((s = validate(dst, "dst")) != FOCR_OK) return s;
    if (packed_bytes_per_pixel(src->format) == 0)
        return fail(FOCR_E_INVALID_ARGUMENT, std::string(op) + ": planar source; pass its Y plane as GRAY8");
    if (dst->format != dst_format || dst->width != w || dst->height != h)
        return fail(FOCR_E_INVALID_ARGUMENT, std::string(op) + ": destination has the wrong format or size");
    return FOCR_OK;
}

struct ThresholdPlan {
    bool gaussian = false;
    int radius = 0;
    int idelta = 0;
    std::vector<float> weights;
};

focr_status plan_threshold(int32_t method, int32_t inverted, int32_t block_size, double c, ThresholdPlan &plan) {
    if (block_size < 3 || block_size % 2 == 0 || block_size > 255)
        return fail(FOCR_E_INVALID_ARGUMENT, "adaptive_threshold: blockSize " + std::to_string(block_size) +
                                                 " must be odd and in 3…255 on OpenCL");
    if (method != FOCR_THRESHOLD_MEAN && method != FOCR_THRESHOLD_GAUSSIAN)
        return fail(FOCR_E_INVALID_ARGUMENT, "adaptive_threshold: unknown method");
    plan.gaussian = method == FOCR_THRESHOLD_GAUSSIAN;
    plan.radius = (block_size - 1) / 2;
    plan.idelta = inverted ? (int)std::floor(c) : (int)std::ceil(c);
    if (plan.gaussian) {
        // The same float kernel cv::GaussianBlur uses on the float copy inside adaptiveThreshold.
        cv::Mat k = cv::getGaussianKernel(block_size, 0, CV_32F);
        plan.weights.assign((const float *)k.data, (const float *)k.data + block_size);
    } else {
        plan.weights.assign(1, 0.0f);
    }
    return FOCR_OK;
}

/// Enqueues the two threshold passes reading `in` (a device or host buffer holding a GRAY8
/// image at `in_offset` with `in_step`) and writing `out`.
cl_int enqueue_threshold(focr_cl_context *c, const ThresholdPlan &plan, cl_mem in, int in_step, int in_offset,
                         int rows, int cols, cl_mem out, int out_step, int out_offset, int inverted,
                         HostBuffer &tmp, HostBuffer &weights) {
    cl_int err = device_buffer(c->context, (size_t)rows * cols * 4, tmp);
    if (err != CL_SUCCESS) return err;
    err = CL_SUCCESS;
    weights.size = plan.weights.size() * sizeof(float);
    weights.mem = clCreateBuffer(c->context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, weights.size,
                                 const_cast<float *>(plan.weights.data()), &err);
    if (err != CL_SUCCESS) return err;
    if (plan.gaussian) {
        Args a(c->gauss_rows);
        a << in << in_step << in_offset << rows << cols << tmp.mem << plan.radius << weights.mem;
        if (a.err != CL_SUCCESS) return a.err;
        if ((err = run2d(c->queue, c->gauss_rows, cols, rows)) != CL_SUCCESS) return err;
        Args b(c->gauss_cols);
        b << in << in_step << in_offset << rows << cols << tmp.mem << out << out_step << out_offset << plan.radius
          << weights.mem << plan.idelta << inverted;
        if (b.err != CL_SUCCESS) return b.err;
        return run2d(c->queue, c->gauss_cols, cols, rows);
    }
    // Running sums: one work item per row, then one per column.
    Args a(c->box_rows);
    a << in << in_step << in_offset << rows << cols << tmp.mem << plan.radius;
    if (a.err != CL_SUCCESS) return a.err;
    if ((err = run1d(c->queue, c->box_rows, rows)) != CL_SUCCESS) return err;
    Args b(c->box_cols);
    b << in << in_step << in_offset << rows << cols << tmp.mem << out << out_step << out_offset << plan.radius
      << plan.idelta << inverted;
    if (b.err != CL_SUCCESS) return b.err;
    return run1d(c->queue, c->box_cols, cols);
}

/// Enqueues gray conversion (or a copy for GRAY8) of `src` into `out`.
cl_int enqueue_gray(focr_cl_context *c, const focr_image &src, cl_mem in, cl_mem out, int out_step, int out_offset) {
    const int bpp = packed_bytes_per_pixel(src.format);
    const int step = (int)src.planes[0].bytes_per_row, zero = 0;
    if (bpp == 1) {
        Args a(c->copy_gray);
        a << in << step << zero << out << out_step << out_offset << src.height << src.width;
        if (a.err != CL_SUCCESS) return a.err;
        return run2d(c->queue, c->copy_gray, src.width, src.height);
    }
    const int bidx = blue_index(src.format);
    Args a(c->to_gray);
    a << in << step << zero << out << out_step << out_offset << src.height << src.width << bpp << bidx;
    if (a.err != CL_SUCCESS) return a.err;
    return run2d(c->queue, c->to_gray, src.width, src.height);
}

/// Enqueues orientation of an image in `in` (w × h, `pix` bytes per pixel) into `out`.
cl_int enqueue_orient(focr_cl_context *c, cl_mem in, int in_step, int in_offset, int h, int w, int pix,
                      cl_mem out, int out_step, int out_offset, int orientation) {
    const bool swaps = orientation >= 5;
    const int rows = swaps ? w : h, cols = swaps ? h : w;
    if (swaps && pix == 1 && c->max_group >= 256) {
        Args a(c->orient_tr);
        a << in << in_step << in_offset << h << w << out << out_step << out_offset << rows << cols << orientation;
        if (a.err != CL_SUCCESS) return a.err;
        return run2d(c->queue, c->orient_tr, w, h, 16, 16);  // the grid covers the stored image
    }
    Args a(c->orient);
    a << in << in_step << in_offset << h << w << out << out_step << out_offset << rows << cols << orientation << pix;
    if (a.err != CL_SUCCESS) return a.err;
    return run2d(c->queue, c->orient, cols, rows);
}

/// Waits for every command of `queue` on the way out of an operation, whatever the exit. After a
/// failure with kernels already enqueued (an enqueue or a map that fails), returning at once
/// would leave the device writing into the caller's memory (CL_MEM_USE_HOST_PTR) after the call,
/// memory the caller may free or reuse: heap corruption, found by OpenCLFaultTests. Declared after
/// the buffers, so it runs before they are released.
struct Drain {
    cl_command_queue queue;
    ~Drain() { clFinish(queue); }
};

/// The shape every single-operation entry point shares: under the context's lock, wrap source
/// and destination (no copies), enqueue `body(in, out)`, map the destination back, finish.
template <typename Body>
focr_status run_wrapped(focr_cl_context *c, const focr_image &src, const focr_image &dst, const char *what, Body &&body) {
    std::lock_guard<std::mutex> hold(c->lock);
    HostBuffer in, out;
    Drain drain{c->queue};
    cl_int err = wrap(c->context, src, CL_MEM_READ_ONLY, in);
    if (err != CL_SUCCESS) return cl_fail("clCreateBuffer(src)", err);
    if ((err = wrap(c->context, dst, CL_MEM_WRITE_ONLY, out)) != CL_SUCCESS) return cl_fail("clCreateBuffer(dst)", err);
    if ((err = body(in.mem, out.mem)) != CL_SUCCESS) return cl_fail(what, err);
    if ((err = sync_to_host(c->queue, out)) != CL_SUCCESS) return cl_fail("map(dst)", err);
    return FOCR_OK;
}

}  // namespace

extern "C" focr_status focr_cl_convert_to_gray(focr_cl_context *c, const focr_image *src, focr_image *dst) {
    return guarded("cl_convert_to_gray", [&]() -> focr_status {
        if (c == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "cl_convert_to_gray: NULL context");
        focr_status s = check_images(src, dst, FOCR_FORMAT_GRAY8, src ? src->width : 0, src ? src->height : 0, "cl_convert_to_gray");
        if (s != FOCR_OK) return s;
        return run_wrapped(c, *src, *dst, "to_gray", [&](cl_mem in, cl_mem out) {
            return enqueue_gray(c, *src, in, out, (int)dst->planes[0].bytes_per_row, 0);
        });
    });
}

extern "C" focr_status focr_cl_orient(focr_cl_context *c, const focr_image *src, focr_image *dst, int32_t orientation) {
    return guarded("cl_orient", [&]() -> focr_status {
        if (c == nullptr || src == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "cl_orient: NULL argument");
        if (orientation < 1 || orientation > 8) return fail(FOCR_E_INVALID_ARGUMENT, "cl_orient: orientation not in 1…8");
        const bool swaps = orientation >= 5;
        focr_status s = check_images(src, dst, src->format, swaps ? src->height : src->width,
                                     swaps ? src->width : src->height, "cl_orient");
        if (s != FOCR_OK) return s;
        return run_wrapped(c, *src, *dst, "orient", [&](cl_mem in, cl_mem out) {
            return enqueue_orient(c, in, (int)src->planes[0].bytes_per_row, 0, src->height, src->width,
                                  packed_bytes_per_pixel(src->format), out, (int)dst->planes[0].bytes_per_row, 0, orientation);
        });
    });
}

extern "C" focr_status focr_cl_adaptive_threshold(focr_cl_context *c, const focr_image *src, focr_image *dst,
                                                  int32_t method, int32_t inverted, int32_t block_size, double cval) {
    return guarded("cl_adaptive_threshold", [&]() -> focr_status {
        if (c == nullptr || src == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "cl_adaptive_threshold: NULL argument");
        ThresholdPlan plan;
        focr_status s = plan_threshold(method, inverted, block_size, cval, plan);
        if (s != FOCR_OK) return s;
        if ((s = check_images(src, dst, FOCR_FORMAT_GRAY8, src->width, src->height, "cl_adaptive_threshold")) != FOCR_OK) return s;
        if (src->format != FOCR_FORMAT_GRAY8) return fail(FOCR_E_INVALID_ARGUMENT, "cl_adaptive_threshold: source must be GRAY8");
        HostBuffer tmp, weights;  // released after the map, when the device is done with them
        return run_wrapped(c, *src, *dst, "adaptive_threshold", [&](cl_mem in, cl_mem out) {
            return enqueue_threshold(c, plan, in, (int)src->planes[0].bytes_per_row, 0, src->height, src->width, out,
                                     (int)dst->planes[0].bytes_per_row, 0, inverted ? 1 : 0, tmp, weights);
        });
    });
}

extern "C" focr_status focr_cl_preprocess(focr_cl_context *c, const focr_image *src, int32_t orientation, int32_t method,
                                          int32_t inverted, int32_t block_size, double cval, focr_image *dst) {
    return guarded("cl_preprocess", [&]() -> focr_status {
        if (c == nullptr || src == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "cl_preprocess: NULL argument");
        if (orientation < 1 || orientation > 8) return fail(FOCR_E_INVALID_ARGUMENT, "cl_preprocess: orientation not in 1…8");
        const bool swaps = orientation >= 5;
        const int rows = swaps ? src->width : src->height, cols = swaps ? src->height : src->width;
        focr_status s = check_images(src, dst, FOCR_FORMAT_GRAY8, cols, rows, "cl_preprocess");
        if (s != FOCR_OK) return s;
        ThresholdPlan plan;
        const bool threshold = block_size > 0;
        if (threshold && (s = plan_threshold(method, inverted, block_size, cval, plan)) != FOCR_OK) return s;
        std::lock_guard<std::mutex> hold(c->lock);
        HostBuffer in, out, gray, upright, tmp, weights;
        Drain drain{c->queue};
        cl_int err = wrap(c->context, *src, CL_MEM_READ_ONLY, in);
        if (err != CL_SUCCESS) return cl_fail("clCreateBuffer(src)", err);
        if ((err = wrap(c->context, *dst, CL_MEM_WRITE_ONLY, out)) != CL_SUCCESS) return cl_fail("clCreateBuffer(dst)", err);
        const int w = src->width, h = src->height, dst_step = (int)dst->planes[0].bytes_per_row;
        // Gray of the raw region, on the device (for GRAY8 sources the region is read in place).
        cl_mem gray_mem = in.mem;
        int gray_step = (int)src->planes[0].bytes_per_row;
        const bool need_gray = packed_bytes_per_pixel(src->format) != 1;
        const bool need_orient = orientation != 1;
        // The last stage writes straight into the caller's memory.
        if (need_gray) {
            const bool last = !need_orient && !threshold;
            if (!last && (err = device_buffer(c->context, (size_t)w * h, gray)) != CL_SUCCESS) return cl_fail("clCreateBuffer(gray)", err);
            if ((err = enqueue_gray(c, *src, in.mem, last ? out.mem : gray.mem, last ? dst_step : w, 0)) != CL_SUCCESS)
                return cl_fail("to_gray", err);
            gray_mem = last ? out.mem : gray.mem;
            gray_step = last ? dst_step : w;
        }
        cl_mem up_mem = gray_mem;
        int up_step = gray_step;
        if (need_orient) {
            const bool last = !threshold;
            if (!last && (err = device_buffer(c->context, (size_t)w * h, upright)) != CL_SUCCESS) return cl_fail("clCreateBuffer(upright)", err);
            if ((err = enqueue_orient(c, gray_mem, gray_step, 0, h, w, 1, last ? out.mem : upright.mem, last ? dst_step : cols, 0,
                                      orientation)) != CL_SUCCESS)
                return cl_fail("orient", err);
            up_mem = last ? out.mem : upright.mem;
            up_step = last ? dst_step : cols;
        }
        if (threshold) {
            err = enqueue_threshold(c, plan, up_mem, up_step, 0, rows, cols, out.mem, dst_step, 0, inverted ? 1 : 0, tmp, weights);
            if (err != CL_SUCCESS) return cl_fail("adaptive_threshold", err);
        } else if (!need_gray && !need_orient) {
            // Nothing to do but a copy of the gray region.
            Args a(c->copy_gray);
            const int zero = 0;
            a << in.mem << gray_step << zero << out.mem << dst_step << zero << rows << cols;
            if (a.err != CL_SUCCESS) return cl_fail("copy_gray args", a.err);
            if ((err = run2d(c->queue, c->copy_gray, cols, rows)) != CL_SUCCESS) return cl_fail("copy_gray", err);
        }
        if ((err = sync_to_host(c->queue, out)) != CL_SUCCESS) return cl_fail("map(dst)", err);
        return FOCR_OK;
    });
}

extern "C" focr_status focr_cl_probe_mapping(focr_cl_context *c, const focr_image *image, const void **mapped) {
    return guarded("cl_probe_mapping", [&]() -> focr_status {
        if (c == nullptr || mapped == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "cl_probe_mapping: NULL argument");
        focr_status s = validate(image, "image");
        if (s != FOCR_OK) return s;
        std::lock_guard<std::mutex> hold(c->lock);
        HostBuffer b;
        cl_int err = wrap(c->context, *image, CL_MEM_READ_WRITE, b);
        if (err != CL_SUCCESS) return cl_fail("clCreateBuffer", err);
        void *p = clEnqueueMapBuffer(c->queue, b.mem, CL_TRUE, CL_MAP_READ, 0, b.size, 0, nullptr, nullptr, &err);
        if (err != CL_SUCCESS) return cl_fail("clEnqueueMapBuffer", err);
        *mapped = p;
        clEnqueueUnmapMemObject(c->queue, b.mem, p, 0, nullptr, nullptr);
        clFinish(c->queue);
        return FOCR_OK;
    });
}

extern "C" focr_status focr_cl_area_downscale(focr_cl_context *c, const focr_image *src, focr_image *dst) {
    return guarded("cl_area_downscale", [&]() -> focr_status {
        if (c == nullptr || src == nullptr || dst == nullptr) return fail(FOCR_E_INVALID_ARGUMENT, "cl_area_downscale: NULL argument");
        focr_status s = check_images(src, dst, FOCR_FORMAT_GRAY8, dst->width, dst->height, "cl_area_downscale");
        if (s != FOCR_OK) return s;
        if (src->format != FOCR_FORMAT_GRAY8) return fail(FOCR_E_INVALID_ARGUMENT, "cl_area_downscale: source must be GRAY8");
        const int k = src->width / dst->width;
        if (k < 2 || src->width != k * dst->width || src->height != k * dst->height)
            return fail(FOCR_E_UNSUPPORTED, "cl_area_downscale: source must be exactly k·destination (k ≥ 2) in both axes");
        const int src_step = (int)src->planes[0].bytes_per_row, dst_step = (int)dst->planes[0].bytes_per_row, zero = 0;
        return run_wrapped(c, *src, *dst, "area_down", [&](cl_mem in, cl_mem out) {
            Args a(c->area_down);
            a << in << src_step << zero << out << dst_step << zero << dst->height << dst->width << k;
            return a.err != CL_SUCCESS ? a.err : run2d(c->queue, c->area_down, dst->width, dst->height);
        });
    });
}
