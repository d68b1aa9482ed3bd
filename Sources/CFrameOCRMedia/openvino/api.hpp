// The part of OpenVINO's C API (openvino/c/openvino.h, 2026.4) that the media library calls, declared
// here: the package compiles where OpenVINO is absent, so the wheel's headers are never on its include
// path, and the library is opened with dlopen at first use (openvino/runtime.cpp), never linked.
//
// Each call is one line of FOCR_OV_CALLS (return type, name, parameter list). Every call used is a
// non-variadic one: properties go as arrays of ov_property_t ({key, value} pairs, the count being the
// number of pairs), through the `_props` twins that 2026.4 added beside the variadic calls.
//
// These declarations must match the wheel's: `make openvino-check` compiles
// tools/openvino_api_check.cpp, which includes the wheel's header and then this list with
// FOCR_OV_API_CHECK defined, so that every call is declared a second time with our signature (a
// conflicting declaration of a C function fails to compile), and static_asserts the values and
// layouts of the types mirrored below.
#pragma once

#include <cstddef>
#include <cstdint>

/// The values of the wheel's enums that the mirrored types below give (checked against the wheel's).
namespace focr::ov::mirrored {
constexpr int ok = 0, general_error = -1, not_found = -5, infer_cancelled = -13;
constexpr unsigned dynamic = 0, bf16 = 2, f16 = 3, f32 = 4;
}  // namespace focr::ov::mirrored

#ifndef FOCR_OV_API_CHECK
extern "C" {
// Opaque handles (the same struct tags as the wheel's).
typedef struct ov_core ov_core_t;
typedef struct ov_model ov_model_t;
typedef struct ov_compiled_model ov_compiled_model_t;
typedef struct ov_infer_request ov_infer_request_t;
typedef struct ov_tensor ov_tensor_t;

/// ov_status_e: OK is 0, every error negative (GENERAL_ERROR −1 … UNKNOW_EXCEPTION −17).
typedef enum {
    OK = focr::ov::mirrored::ok,
    GENERAL_ERROR = focr::ov::mirrored::general_error,
    NOT_FOUND = focr::ov::mirrored::not_found,
    INFER_CANCELLED = focr::ov::mirrored::infer_cancelled
} ov_status_e;
/// ov_element_type_e: the element types used here, at the wheel's values.
typedef enum {
    DYNAMIC = focr::ov::mirrored::dynamic,
    BF16 = focr::ov::mirrored::bf16,
    F16 = focr::ov::mirrored::f16,
    F32 = focr::ov::mirrored::f32
} ov_element_type_e;
/// A tensor's shape: `rank` dimensions at `dims` (owned by ov_shape_create / ov_tensor_get_shape).
typedef struct {
    int64_t rank;
    int64_t *dims;
} ov_shape_t;
/// One property: a key (e.g. "INFERENCE_PRECISION_HINT") and its value, a NUL-terminated string.
typedef struct {
    const char *key;
    const void *value;
} ov_property_t;
typedef struct ov_version {
    const char *buildNumber;
    const char *description;
} ov_version_t;
typedef struct {
    char **devices;
    size_t size;
} ov_available_devices_t;
}
#endif

// X(return type, name, (parameters)).
#define FOCR_OV_CALLS(X)                                                                                           \
    X(const char *, ov_get_last_err_msg, ())                                                                       \
    X(ov_status_e, ov_get_openvino_version, (ov_version_t * version))                                              \
    X(void, ov_version_free, (ov_version_t * version))                                                             \
    X(ov_status_e, ov_core_create, (ov_core_t * *core))                                                            \
    X(void, ov_core_free, (ov_core_t * core))                                                                      \
    X(ov_status_e, ov_core_get_available_devices, (const ov_core_t *core, ov_available_devices_t *devices))        \
    X(void, ov_available_devices_free, (ov_available_devices_t * devices))                                         \
    X(ov_status_e, ov_core_compile_model_from_file_props,                                                          \
      (const ov_core_t *core, const char *model_path, const char *device_name, const size_t num_properties,        \
       const ov_property_t *properties, ov_compiled_model_t **compiled_model))                                     \
    X(void, ov_compiled_model_free, (ov_compiled_model_t * compiled_model))                                        \
    X(ov_status_e, ov_compiled_model_create_infer_request,                                                         \
      (const ov_compiled_model_t *compiled_model, ov_infer_request_t **infer_request))                             \
    X(void, ov_infer_request_free, (ov_infer_request_t * infer_request))                                           \
    X(ov_status_e, ov_infer_request_set_input_tensor, (ov_infer_request_t * infer_request, const ov_tensor_t *tensor)) \
    X(ov_status_e, ov_infer_request_infer, (ov_infer_request_t * infer_request))                                   \
    X(ov_status_e, ov_infer_request_get_output_tensor,                                                             \
      (const ov_infer_request_t *infer_request, ov_tensor_t **tensor))                                             \
    X(ov_status_e, ov_tensor_create_from_host_ptr,                                                                 \
      (const ov_element_type_e type, const ov_shape_t shape, void *host_ptr, ov_tensor_t **tensor))                \
    X(ov_status_e, ov_tensor_get_shape, (const ov_tensor_t *tensor, ov_shape_t *shape))                            \
    X(ov_status_e, ov_tensor_data, (const ov_tensor_t *tensor, void **data))                                       \
    X(ov_status_e, ov_tensor_get_element_type, (const ov_tensor_t *tensor, ov_element_type_e *type))               \
    X(void, ov_tensor_free, (ov_tensor_t * tensor))                                                                \
    X(ov_status_e, ov_shape_create, (const int64_t rank, const int64_t *dims, ov_shape_t *shape))                  \
    X(ov_status_e, ov_shape_free, (ov_shape_t * shape))                                                            \
    X(ov_status_e, ov_core_get_property,                                                                           \
      (const ov_core_t *core, const char *device_name, const char *property_key, char **property_value))           \
    X(void, ov_free, (const char *content))
