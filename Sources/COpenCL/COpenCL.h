#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
