// Internal to the shim: error reporting and the exception firewall.
#pragma once

#include <array>
#include <exception>
#include <new>
#include <string>

#include <opencv2/core.hpp>

#include "focr.h"

namespace focr {

/// Records `message` as the calling thread's last error and returns `status`.
focr_status fail(focr_status status, const std::string &message);

/// Runs `body` (returning focr_status); converts any exception into a status and message.
template <typename Body>
focr_status guarded(const char *where, Body &&body) noexcept {
    try {
        return body();
    } catch (const cv::Exception &e) {
        return fail(FOCR_E_OPENCV, std::string(where) + ": OpenCV: " + e.what());
    } catch (const std::bad_alloc &) {
        return fail(FOCR_E_OUT_OF_MEMORY, std::string(where) + ": out of memory");
    } catch (const std::exception &e) {
        return fail(FOCR_E_INTERNAL, std::string(where) + ": " + e.what());
    } catch (...) {
        return fail(FOCR_E_INTERNAL, std::string(where) + ": unknown exception");
    }
}

/// Bytes per pixel of plane 0 of a packed format (0 for planar formats).
int packed_bytes_per_pixel(int32_t format);

/// Validates `image`; on failure records a message mentioning `role` ("src", "dst").
focr_status validate(const focr_image *image, const char *role);

/// Validates `src` and `dst` as GRAY8 images of the same size; failures name `where`.
focr_status validate_gray_pair(const focr_image *src, const focr_image *dst, const char *where);

/// Validates `src` (a packed or gray format) and `dst` (the same format, not the same pixels);
/// failures name `where`. Sizes are the caller's to check.
focr_status validate_packed_pair(const focr_image *src, const focr_image *dst, const char *where);

/// The p-quantile (0…1) of a 256-bin histogram of gray levels holding `n` samples (the least
/// level with at least ⌈p·n⌉ samples at or below it; 255 when `n` is 0).
int percentile(const std::array<int, 256> &hist, int n, double p);

/// A cv::Mat header over plane 0 of a packed (or gray) image: no copy.
cv::Mat wrap_plane0(const focr_image &image);

}  // namespace focr
