// Writes the short test video used by VideoSourceTests.swift and the `frameocr video` CLI tests.
//
//   g++ -std=c++17 -O1 Tests/FixtureGenerators/make_video_fixture.cpp \
//       $(pkg-config --cflags --libs opencv4) -o /tmp/make_video_fixture
//   /tmp/make_video_fixture Tests/FrameOCRTests/Fixtures/frame_ocr_42.mp4
//
// The video: 50 frames at 25 fps (2 s), 320×120 pixels, white background with "FRAME OCR 42" in
// large black letters (cv::putText, FONT_HERSHEY_SIMPLEX, scale 1.1, thickness 3). The text
// moves one pixel to the right per frame (0…49), so consecutive frames differ, and a frame
// number is drawn small in the bottom-right corner. Encoded by OpenCV's FFmpeg backend with the
// codec given as the second argument (FourCC, default "avc1": H.264 through libx264), which
// Debian's OpenCV reads back.
#include <cstdio>
#include <string>

#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s OUT.mp4 [FOURCC]\n", argv[0]);
        return 2;
    }
    const std::string fourcc = argc > 2 ? argv[2] : "avc1";
    const int width = 320, height = 120, frames = 50;
    const double fps = 25;
    cv::VideoWriter writer(argv[1], cv::CAP_FFMPEG,
                           cv::VideoWriter::fourcc(fourcc[0], fourcc[1], fourcc[2], fourcc[3]), fps,
                           cv::Size(width, height));
    if (!writer.isOpened()) {
        std::fprintf(stderr, "cannot open a %s writer for %s\n", fourcc.c_str(), argv[1]);
        return 1;
    }
    for (int i = 0; i < frames; ++i) {
        cv::Mat frame(height, width, CV_8UC3, cv::Scalar(255, 255, 255));
        cv::putText(frame, "FRAME OCR 42", cv::Point(12 + i, 72), cv::FONT_HERSHEY_SIMPLEX, 1.1,
                    cv::Scalar(0, 0, 0), 3, cv::LINE_AA);
        cv::putText(frame, std::to_string(i), cv::Point(290, 112), cv::FONT_HERSHEY_PLAIN, 0.8,
                    cv::Scalar(96, 96, 96), 1, cv::LINE_AA);
        writer.write(frame);
    }
    writer.release();
    return 0;
}
