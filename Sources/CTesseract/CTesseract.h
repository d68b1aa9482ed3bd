// Tesseract's C API (used by CFrameOCR/tesseract.cpp).
#include <tesseract/capi.h>
