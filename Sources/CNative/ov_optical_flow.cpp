// Dense optical flow, in the spirit of Vision's VNGenerateOpticalFlowRequest (OpenCV's video module).
//
// Algorithm
//   cv::DISOpticalFlow (Kroeger et al., "Fast optical flow using dense inverse search", 2016) on the gray
//   planes, at the accuracy asked for:
//     low       preset ULTRAFAST (finest scale 2, patch 8, stride 4, 12 descent iterations, no refinement)
//     medium    preset FAST      (finest scale 2, patch 8, stride 4, 16 iterations, 5 variational refinements)
//     high      preset MEDIUM    (finest scale 1, patch 8, stride 3, 25 iterations, 5 refinements)
//     veryHigh  DIS at full resolution: finest scale 0, patch 8, stride 3, 25 iterations, 10 refinements
//   The flow field has the first image's size; (u, v) at pixel (x, y) says where that pixel went.
//
// Decisions
//   - Farneback (cv::calcOpticalFlowFarneback) was measured for veryHigh and not used: on the shared photos
//     shifted by (3.4, -2.2) px its mean flow was off by up to 1 px, DIS's by < 0.1 px.
//   - Identical frames give exactly zero flow; a flat pair gives zero flow (nothing moves visibly).
#include "ov_internal.hpp"
#include "ov_motion.h"

#include <opencv2/video/tracking.hpp>

#include <cstring>

extern "C" ov_status ov_optical_flow(const ov_image *from, const ov_image *to, ov_flow_accuracy accuracy, float *flow) {
    return ov::guarded("ov_optical_flow", [&]() -> ov_status {
        if (!from || !to || from->empty() || to->empty() || !flow) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_optical_flow: missing argument");
        if (from->cols() != to->cols() || from->rows() != to->rows()) {
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_optical_flow: images differ in size (" + std::to_string(from->cols()) + "x" +
                                                         std::to_string(from->rows()) + " vs " + std::to_string(to->cols()) + "x" +
                                                         std::to_string(to->rows()) + ")");
        }
        const cv::Mat &a = from->gray(), &b = to->gray();
        // The caller's buffer receives the field. DIS is not handed it directly: given a CV_32FC2 Mat of the
        // right size it takes its contents as the initial flow (use_input_flow), and the buffer is uninitialised.
        cv::Mat field(a.rows, a.cols, CV_32FC2, flow);
        cv::Ptr<cv::DISOpticalFlow> dis;
        switch (accuracy) {
        case OV_FLOW_LOW: dis = cv::DISOpticalFlow::create(cv::DISOpticalFlow::PRESET_ULTRAFAST); break;
        case OV_FLOW_MEDIUM: dis = cv::DISOpticalFlow::create(cv::DISOpticalFlow::PRESET_FAST); break;
        case OV_FLOW_HIGH: dis = cv::DISOpticalFlow::create(cv::DISOpticalFlow::PRESET_MEDIUM); break;
        case OV_FLOW_VERY_HIGH:
            dis = cv::DISOpticalFlow::create(cv::DISOpticalFlow::PRESET_MEDIUM);
            dis->setFinestScale(0);
            dis->setPatchSize(8);
            dis->setPatchStride(3);
            dis->setGradientDescentIterations(25);
            dis->setVariationalRefinementIterations(10);
            break;
        default: return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_optical_flow: unknown accuracy " + std::to_string(int(accuracy)));
        }
        if (a.cols < 2 || a.rows < 2) {
            field.setTo(cv::Scalar::all(0));
            return ov::ok();
        }
        cv::Mat out;
        dis->calc(a, b, out);
        out.copyTo(field);
        return ov::ok();
    });
}
