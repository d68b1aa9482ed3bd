import FrameOCR
print("frameocr")
