// `make openvino-check`: FrameOCR's declarations of OpenVINO's C API
// (Sources/CFrameOCRMedia/openvino/api.hpp) against the wheel's own header. Compiled only
// (-fsyntax-only), with the wheel's include folder on the path.
#include <openvino/c/openvino.h>

#include <cstddef>
#include <type_traits>

// Every call of the list declared again, with the signature api.hpp gives it: a C function declared
// twice with different types is an error, so any difference fails the compile.
#define FOCR_OV_API_CHECK
#include "openvino/api.hpp"
extern "C" {
#define FOCR_OV_REDECLARE(ret, name, params) ret name params;
FOCR_OV_CALLS(FOCR_OV_REDECLARE)
#undef FOCR_OV_REDECLARE
}

// The values and layouts api.hpp mirrors when the wheel's header is absent (its layouts: two 8-byte
// fields each, on the 64-bit platforms of the wheels).
namespace m = focr::ov::mirrored;
static_assert(OK == m::ok && GENERAL_ERROR == m::general_error && NOT_FOUND == m::not_found &&
                  INFER_CANCELLED == m::infer_cancelled,
              "ov_status_e");
static_assert(DYNAMIC == m::dynamic && BF16 == m::bf16 && F16 == m::f16 && F32 == m::f32, "ov_element_type_e");
static_assert(sizeof(ov_status_e) == sizeof(int) && sizeof(ov_element_type_e) == sizeof(int), "enum sizes");
static_assert(sizeof(ov_shape_t) == 16 && offsetof(ov_shape_t, rank) == 0 && offsetof(ov_shape_t, dims) == 8,
              "ov_shape_t");
static_assert(sizeof(ov_property_t) == 16 && offsetof(ov_property_t, key) == 0 && offsetof(ov_property_t, value) == 8,
              "ov_property_t");
static_assert(sizeof(ov_version_t) == 16 && offsetof(ov_version_t, buildNumber) == 0, "ov_version_t");
static_assert(sizeof(ov_available_devices_t) == 16 && offsetof(ov_available_devices_t, size) == 8,
              "ov_available_devices_t");
