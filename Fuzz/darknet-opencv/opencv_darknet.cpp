// The C side of the darknet-opencv fuzz target (see opencv_darknet.h).
#include "opencv_darknet.h"

#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>

#include <exception>

extern "C" int fuzz_opencv_darknet(const char *cfg, size_t cfg_length, const char *weights, size_t weights_length,
                                   int width, int height, int channels) {
    static const bool quiet = [] {
        cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
        cv::setNumThreads(1);
        return true;
    }();
    (void)quiet;
    try {
        cv::dnn::Net net = cv::dnn::readNetFromDarknet(cfg, cfg_length, weights, weights_length);
        int sizes[] = {1, channels, height, width};
        cv::Mat blob(4, sizes, CV_32F, cv::Scalar(0.5));
        net.setInput(blob);
        std::vector<cv::Mat> outputs;
        net.forward(outputs, net.getUnconnectedOutLayersNames());
        return 0;
    } catch (const cv::Exception &) {
        return 1;
    } catch (const std::exception &) {
        return 2;
    }
}
