/*
 * CFrameOCR — umbrella header of FrameOCR's C shim (the module Swift imports). Each header names
 * where it is implemented: a folder of Sources/CFrameOCR, the common target (CFrameOCRCommon), or
 * the media library (CFrameOCRMedia, reached through the shim's loader/):
 *
 *   focr_common.h     status, last error, image descriptor, decoded images   CFrameOCRCommon
 *   focr.h            operations: gray, BGR, orientation, threshold, resize,  image/ (SIMD rows: fast/)
 *                     copy; borders, small rotations, smoothing
 *   focr_files.h      image files: decoded, written                          CFrameOCRMedia files/
 *   focr_video.h      video: files, cameras, streams, pipelines; read, written CFrameOCRMedia video/
 *   focr_detect.h     scene text found by a DB text detector (OpenVINO)      CFrameOCRMedia detection/
 *   focr_recognize.h  a text line read by a CTC recognizer (OpenVINO)        CFrameOCRMedia recognition/
 *   focr_dnn.h        where those networks run: CPU, OpenCL, auto (a probe)  CFrameOCRMedia dnn/
 *   focr_openvino.h   OpenVINO, the neural runtime: found, loaded (dlopen)   CFrameOCRMedia openvino/
 *   focr_fast.h       the fused SIMD CPU chain                                fast/
 *   focr_opencl.h     OpenCL devices, contexts and FrameOCR's kernels         opencl/
 *   focr_tesseract.h  Tesseract engines and recognition                       tesseract/
 *   focr_auto.h       polarity, light, text size; skew                        analysis/
 *   focr_lines.h      lines of large text (dominant line, text lines)         analysis/
 *   focr_document.h   a sheet of paper on a surface: found and flattened      analysis/
 *   focr_mrz.h        machine readable zones                                  analysis/
 *   focr_frames.h     a frame against the ones before it: signature, motion   analysis/
 *   focr_annotate.h   boxes and labels drawn for people to look at            image/
 *
 * focr_common.h, focr_files.h, focr_video.h, focr_dnn.h, focr_openvino.h, focr_detect.h and focr_recognize.h are
 * CFrameOCRCommon's headers (both the shim and the media library need their types); this module
 * re-exports them. Generated test scenes (focr_synthetic.h) are not here: they are the
 * CFrameOCRSynthesis test-support target.
 */
#include "focr_common.h"
#include "focr.h"
#include "focr_files.h"
#include "focr_video.h"
#include "focr_dnn.h"
#include "focr_openvino.h"
#include "focr_detect.h"
#include "focr_recognize.h"
#include "focr_tesseract.h"
#include "focr_opencl.h"
#include "focr_fast.h"
#include "focr_auto.h"
#include "focr_lines.h"
#include "focr_document.h"
#include "focr_mrz.h"
#include "focr_frames.h"
#include "focr_annotate.h"
