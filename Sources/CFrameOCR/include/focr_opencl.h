/*
 * focr_opencl.h — FrameOCR's OpenCL backend: devices, a context per device, and our kernels
 * (the .cl files in Kernels/, passed in as source) run on borrowed images. Implemented in
 * opencl/opencl.cpp.
 *
 * Ownership and lifetime rules
 * ----------------------------
 * - focr_cl_context owns a cl_context, one in-order command queue and the built program (built
 *   once, in focr_cl_context_create: never on the per-frame path). Free with
 *   focr_cl_context_destroy (NULL is a no-op).
 * - A context may be used from several threads: every operation holds the context's lock from
 *   the first enqueue to clFinish, so results never cross between threads (one frame in flight per
 *   context; use one context per worker for parallel frames).
 * - Images are borrowed for the call. Source and destination memory are wrapped with
 *   CL_MEM_USE_HOST_PTR (no copy where the device shares host memory, as PoCL's CPU device and
 *   integrated GPUs do); the destination is mapped before the call returns, so the caller's
 *   memory holds the result and the device holds no reference to it afterwards.
 * - Errors follow focr.h (status + focr_last_error()). FOCR_E_NO_OPENCL_DEVICE: no OpenCL
 *   platform or device; FOCR_E_OPENCL_DEVICE_UNSUPPORTED: a device that lacks a needed feature
 *   (focr_cl_requirements); FOCR_E_OPENCL: an OpenCL call failed (the message names it and the
 *   error code, and includes the build log for a failed build); FOCR_E_UNSUPPORTED: an operation
 *   the kernels do not cover (focr_cl_area_downscale of a size that is not an exact multiple).
 */
#ifndef FOCR_OPENCL_H
#define FOCR_OPENCL_H

#include "focr.h"

#ifdef __cplusplus
extern "C" {
#endif


typedef struct focr_cl_device_info {
    int32_t index;                 /* across all platforms, 0-based */
    char platform[128];
    char name[128];
    char vendor[128];
    char version[128];             /* CL_DEVICE_VERSION */
    char driver[64];               /* CL_DRIVER_VERSION */
    int32_t is_gpu;                /* CL_DEVICE_TYPE_GPU */
    int32_t is_cpu;                /* CL_DEVICE_TYPE_CPU */
    int32_t compute_units;
    uint64_t global_memory;        /* bytes */
    uint64_t max_allocation;       /* bytes */
    uint64_t local_memory;         /* bytes */
    uint64_t max_work_group_size;
    int32_t host_unified_memory;   /* CL_DEVICE_HOST_UNIFIED_MEMORY */
    int32_t image_support;
} focr_cl_device_info;

/** Number of OpenCL devices over all platforms (0 with no ICD or no platform — not an error). */
focr_status focr_cl_device_count(int32_t *count);

/** Information about device `index` (0 ≤ index < count). */
focr_status focr_cl_device_get_info(int32_t index, focr_cl_device_info *out);

typedef struct focr_cl_context focr_cl_context;

/** Local memory (bytes) and work-group size (items) a device must offer. */
typedef struct focr_cl_requirements {
    uint64_t local_memory;    /* 2048 for FrameOCR's kernels */
    uint64_t work_group_size; /* 64 */
} focr_cl_requirements;

/** What FrameOCR's kernels need: 2 KiB of local memory, work groups of 64 items. */
focr_cl_requirements focr_cl_default_requirements(void);

/**
 * Creates a context and an in-order queue on device `index` (0 ≤ index < focr_cl_device_count)
 * and builds `source` with `build_options` (NULL: none). `requirements` (usually
 * focr_cl_default_requirements()) are checked against the device's local memory and largest work
 * group before anything is built.
 *
 * Program cache: `cache_dir` (NULL: none) holds program binaries named by a hash of the device
 * name, device version, driver version, build options and source. A cached binary is loaded
 * instead of compiling; a missing, stale or unloadable one is rebuilt from source and written
 * back (best effort: an unwritable folder only costs the cache). `*from_cache` (NULL: not
 * wanted) says which happened.
 *
 * `*out` is set on success and must be freed with focr_cl_context_destroy.
 * Errors: FOCR_E_INVALID_ARGUMENT (NULL `source` or `out`, no device `index`);
 * FOCR_E_NO_OPENCL_DEVICE (no OpenCL platform or device at all); FOCR_E_OPENCL_DEVICE_UNSUPPORTED
 * (the device does not meet `requirements`); FOCR_E_OPENCL (an OpenCL call failed; for a program
 * that does not build, with its build log).
 */
focr_status focr_cl_context_create(int32_t index, const char *source, const char *build_options, const char *cache_dir,
                                   focr_cl_requirements requirements, focr_cl_context **out, int32_t *from_cache);

void focr_cl_context_destroy(focr_cl_context *context);

/** gray.cl: packed color or gray → GRAY8 (same size). NV12/I420: pass the Y plane as GRAY8. */
focr_status focr_cl_convert_to_gray(focr_cl_context *context, const focr_image *src, focr_image *dst);

/** orient.cl: packed image → upright image (swapped size for orientations 5…8). */
focr_status focr_cl_orient(focr_cl_context *context, const focr_image *src, focr_image *dst, int32_t orientation);

/** adaptive_threshold.cl: GRAY8 → GRAY8 (same size); block_size odd, 3…255. */
focr_status focr_cl_adaptive_threshold(focr_cl_context *context, const focr_image *src, focr_image *dst,
                                       int32_t method, int32_t inverted, int32_t block_size, double c);

/**
 * resize.cl: GRAY8 downscale by an integer factor k ≥ 2 (src exactly k·dst in both axes), the
 * cv::resize INTER_AREA "fast area" case, bit-exact. FOCR_E_UNSUPPORTED for other sizes.
 */
focr_status focr_cl_area_downscale(focr_cl_context *context, const focr_image *src, focr_image *dst);

/**
 * The fused chain, one round trip: reads the raw region of `src` in place (an offset, no crop
 * copy), converts to gray, turns it upright and thresholds it, all on the device, and maps
 * only the final image back into `dst` (GRAY8, the upright region's size). `src` is the raw
 * region (a view of the frame); for NV12/I420 give its Y plane as GRAY8. block_size ≤ 0: no
 * threshold.
 */
focr_status focr_cl_preprocess(focr_cl_context *context, const focr_image *src, int32_t orientation,
                               int32_t method, int32_t inverted, int32_t block_size, double c,
                               focr_image *dst);

/**
 * Wraps plane 0 of `image` as the kernels' buffers are wrapped (CL_MEM_USE_HOST_PTR), maps it
 * for reading and reports the mapped address in `*mapped` (then unmaps). Equal to the plane's
 * own address when the device works in host memory without a copy (PoCL's CPU device,
 * integrated GPUs); a discrete GPU may map a staging copy instead.
 */
focr_status focr_cl_probe_mapping(focr_cl_context *context, const focr_image *image, const void **mapped);

/* MARK: - Fault injection (debug builds only, for tests) */

typedef enum focr_cl_fault {
    FOCR_CL_FAULT_NONE = 0,
    FOCR_CL_FAULT_BUILD = 1,    /* clBuildProgram fails with CL_BUILD_PROGRAM_FAILURE */
    FOCR_CL_FAULT_ALLOCATE = 2, /* clCreateBuffer fails with CL_OUT_OF_RESOURCES */
    FOCR_CL_FAULT_ENQUEUE = 3,  /* clEnqueueNDRangeKernel fails with CL_OUT_OF_RESOURCES */
    FOCR_CL_FAULT_MAP = 4       /* mapping a result back (clEnqueueMapBuffer) fails with CL_MAP_FAILURE */
} focr_cl_fault;

/**
 * Makes the OpenCL calls of `kind` fail, process-wide: the first `skip` of them still succeed,
 * the `count` after those fail (then they succeed again). FOCR_CL_FAULT_NONE clears it. For the
 * tests of the fallbacks: in a debug build (DEBUG defined, as `swift build` does) or a test build
 * (FRAMEOCR_FAULT_INJECTION defined: `make test`'s optimized build, -Xcc -DFRAMEOCR_FAULT_INJECTION)
 * this returns FOCR_OK; in a release build it does nothing and returns FOCR_E_UNSUPPORTED, and no
 * OpenCL call ever checks for a fault.
 */
focr_status focr_cl_debug_inject_fault(int32_t kind, int32_t skip, int32_t count);

#ifdef __cplusplus
}
#endif

#endif /* FOCR_OPENCL_H */
