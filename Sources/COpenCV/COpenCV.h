// Intentionally empty: see module.modulemap. OpenCV headers are included by CFrameOCR/*.cpp only.
