/* CFrameOCR — umbrella header of FrameOCR's C shim. */
#include "focr.h"
#include "focr_tesseract.h"
#include "focr_video.h"
#include "focr_opencl.h"
#include "focr_fast.h"
#include "focr_auto.h"
#include "focr_mrz.h"
