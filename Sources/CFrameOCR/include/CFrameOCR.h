/*
 * CFrameOCR — umbrella header of FrameOCR's C shim (the module Swift imports). Each header names
 * the folder of Sources/CFrameOCR that implements it:
 *
 *   focr.h            status, image descriptor, OpenCV operations, image files   common/, image/
 *   focr_fast.h       the fused SIMD CPU chain                                    fast/
 *   focr_opencl.h     OpenCL devices, contexts and FrameOCR's kernels             opencl/
 *   focr_tesseract.h  Tesseract engines and recognition                           tesseract/
 *   focr_auto.h       polarity, light, text size; skew and small rotation         analysis/
 *   focr_lines.h      lines of large text (dominant line, text lines)             analysis/
 *   focr_document.h   a sheet of paper on a surface: found and flattened          analysis/
 *   focr_mrz.h        machine readable zones                                      analysis/
 *   focr_frames.h     a frame against the ones before it: signature, motion       analysis/
 *   focr_synthetic.h  generated test scenes: text in a TrueType font, warps       image/
 *   focr_video.h      video: files, cameras, streams, pipelines; read and written video/
 *   focr_annotate.h   boxes and labels drawn for people to look at                image/
 *   focr_detect.h     scene text found by a DB text detector (OpenCV dnn)         media lib, detection/
 */
#include "focr.h"
#include "focr_tesseract.h"
#include "focr_video.h"
#include "focr_opencl.h"
#include "focr_fast.h"
#include "focr_auto.h"
#include "focr_lines.h"
#include "focr_document.h"
#include "focr_mrz.h"
#include "focr_frames.h"
#include "focr_synthetic.h"
#include "focr_annotate.h"
#include "focr_detect.h"
