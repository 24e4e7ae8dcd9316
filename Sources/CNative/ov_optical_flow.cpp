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
//   - Memory churn, not arithmetic, made our DIS calls slower than the same call from Python (5.7-6.4 ms
//     or 7.6-8.5 ms per 768 x 576 pair, varying from process to process, against Python's 5.8-6.2): each call
//     allocated the field and the DIS buffers afresh, and glibc handed the freed pages back to the kernel
//     between calls (MALLOC_TOP_PAD_ removed the difference). So:
//       * DIS writes the field straight into the caller's buffer (an allocator that lends DIS that buffer
//         for its output; it cannot be passed in, since DIS reads a right-sized field as its initial flow);
//       * one DIS instance per accuracy is kept for the next call of the same size (a video's frames reuse
//         its buffers; another size gets a fresh instance, see KeptDIS), for images of at most 1 MP and not for
//         veryHigh, whose full-resolution buffers are too large to keep: at most ~20 MB stay allocated.
#include "ov_internal.hpp"
#include "ov_optical_flow.h"

#include <opencv2/video/tracking.hpp>

#include <array>
#include <cstring>

namespace {

// Lends `target` (exactly `bytes` long) to the first allocation of that size; any other goes to OpenCV's default
// allocator. The lent buffer is never freed here: it belongs to the caller.
class LendingAllocator final : public cv::MatAllocator {
public:
    LendingAllocator(void *target, size_t bytes) : target_(target), bytes_(bytes) {}

    cv::UMatData *allocate(int dims, const int *sizes, int type, void *data, size_t *step, cv::AccessFlag flags,
                           cv::UMatUsageFlags usage) const override {
        size_t total = CV_ELEM_SIZE(type);
        for (int i = dims - 1; i >= 0; --i) {
            if (step) step[i] = total;
            total *= static_cast<size_t>(sizes[i]);
        }
        if (data || lent_ || total != bytes_)
            return cv::Mat::getDefaultAllocator()->allocate(dims, sizes, type, data, step, flags, usage);
        lent_ = true;
        auto *u = new cv::UMatData(this);
        u->data = u->origdata = static_cast<uchar *>(target_);
        u->size = total;
        return u;
    }

    bool allocate(cv::UMatData *, cv::AccessFlag, cv::UMatUsageFlags) const override { return false; }

    void deallocate(cv::UMatData *u) const override { delete u; }  // only the lent buffer's record comes here

private:
    void *target_;
    size_t bytes_;
    mutable bool lent_ = false;
};

cv::Ptr<cv::DISOpticalFlow> makeDIS(ov_flow_accuracy accuracy) {
    switch (accuracy) {
        case OV_FLOW_LOW: return cv::DISOpticalFlow::create(cv::DISOpticalFlow::PRESET_ULTRAFAST);
        case OV_FLOW_MEDIUM: return cv::DISOpticalFlow::create(cv::DISOpticalFlow::PRESET_FAST);
        case OV_FLOW_HIGH: return cv::DISOpticalFlow::create(cv::DISOpticalFlow::PRESET_MEDIUM);
        case OV_FLOW_VERY_HIGH: {
            auto dis = cv::DISOpticalFlow::create(cv::DISOpticalFlow::PRESET_MEDIUM);
            dis->setFinestScale(0);
            dis->setPatchSize(8);
            dis->setPatchStride(3);
            dis->setGradientDescentIterations(25);
            dis->setVariationalRefinementIterations(10);
            return dis;
        }
        default: return nullptr;
    }
}

// The kept instances: one per accuracy below veryHigh with the image size it last ran on. Only a call of the same
// size reuses one: OpenCV 4.6's DIS carries state across a change of pyramid depth (a 768 x 576 pair after a
// 64 x 48 one differed from a fresh instance's field by up to 15 px).
struct KeptDIS {
    cv::Ptr<cv::DISOpticalFlow> dis;
    cv::Size size;
};

ov::Kept<KeptDIS> &kept(ov_flow_accuracy accuracy) {
    static std::array<ov::Kept<KeptDIS>, 3> slots;
    return slots[accuracy];
}

bool keepable(ov_flow_accuracy accuracy, cv::Size size) {
    return accuracy >= OV_FLOW_LOW && accuracy < OV_FLOW_VERY_HIGH && static_cast<size_t>(size.area()) <= ov::kKeptMaxPixels;
}

cv::Ptr<cv::DISOpticalFlow> takeDIS(ov_flow_accuracy accuracy, cv::Size size) {
    if (keepable(accuracy, size)) {
        KeptDIS entry = kept(accuracy).take();
        if (entry.dis && entry.size == size) return entry.dis;
    }
    return makeDIS(accuracy);
}

void keepDIS(ov_flow_accuracy accuracy, cv::Size size, cv::Ptr<cv::DISOpticalFlow> dis) {
    if (keepable(accuracy, size)) kept(accuracy).keep({std::move(dis), size});
}

}  // namespace

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
        cv::Ptr<cv::DISOpticalFlow> dis = takeDIS(accuracy, a.size());
        if (!dis) return ov::fail(OV_ERR_INVALID_ARGUMENT, "ov_optical_flow: unknown accuracy " + std::to_string(int(accuracy)));
        if (a.cols < 2 || a.rows < 2) {
            field.setTo(cv::Scalar::all(0));
            return ov::ok();
        }
        const LendingAllocator lender(flow, field.total() * field.elemSize());
        cv::Mat out;
        out.allocator = const_cast<LendingAllocator *>(&lender);
        dis->calc(a, b, out);
        if (out.data != field.data) out.copyTo(field);  // DIS allocated its output some other way
        out.release();  // before the allocator goes
        keepDIS(accuracy, a.size(), std::move(dis));
        return ov::ok();
    });
}
