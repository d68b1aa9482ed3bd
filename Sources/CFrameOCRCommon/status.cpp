// The calling thread's last error message (focr_last_error, focr_common.h) and focr::fail, which
// sets it (focr_common/status.hpp).
#include <string>

#include "focr_common.h"
#include "focr_common/status.hpp"

namespace {
thread_local std::string last_error;
}

namespace focr {

focr_status fail(focr_status status, const std::string &message) {
    try {
        last_error = message;
    } catch (...) {
    }
    return status;
}

}  // namespace focr

extern "C" const char *focr_last_error(void) { return last_error.c_str(); }
