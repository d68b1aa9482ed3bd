// Intentionally empty: see module.modulemap. OpenCV headers are included by CFrameOCRSynthesis/*.cpp only.
