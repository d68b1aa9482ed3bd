// Internal to FrameOCR's C code (CFrameOCRCommon, shared by the shim and libFrameOCRMedia): error
// reporting and the exception firewall every entry point runs in (implemented in status.cpp). See
// focr_common.h for the rules the callers see: a focr_status, a thread-local message, no C++
// exception across the boundary. Each binary that links this code (a program, libFrameOCRMedia.so
// when it is loaded with dlopen) has its own thread-local message.
#pragma once

#include <exception>
#include <new>
#include <stdexcept>
#include <string>

#include <opencv2/core.hpp>

#include "focr_common.h"

namespace focr {

/// Records `message` as the calling thread's last error and returns `status`.
focr_status fail(focr_status status, const std::string &message);

/// An error that carries its own status (thrown deep inside a call, e.g. by the OpenVINO runtime:
/// FOCR_E_RUNTIME_MISSING, FOCR_E_INFERENCE); guarded() returns that status with the message.
struct StatusError : std::runtime_error {
    focr_status status;
    StatusError(focr_status status, const std::string &message) : std::runtime_error(message), status(status) {}
};

/// Runs `body` (returning focr_status); converts any exception into a status and message.
template <typename Body>
focr_status guarded(const char *where, Body &&body) noexcept {
    try {
        return body();
    } catch (const StatusError &e) {
        return fail(e.status, std::string(where) + ": " + e.what());
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

}  // namespace focr
