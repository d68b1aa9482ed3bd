// Intentionally empty: see module.modulemap. OpenCV headers are included by CFrameOCRMedia/*.cpp only.
