/* Model input for MediaPipe's graphs (body pose, person segmentation): the crop-and-warp of its
 * ImageToTensorCalculator. Same conventions as ov_native.h: an ov_status return (message via
 * ov_last_error), pixel coordinates with a top-left origin and pixel centres at integers (OpenCV's). */
#ifndef OV_MEDIAPIPE_H
#define OV_MEDIAPIPE_H

#include "ov_native.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Fills `out` (capacity floats, at least width x height x 3) with `image` warped by the affine map
 * m = [a b c; d e f] (row-major, source pixel -> output pixel) into width x height pixels, as
 * MediaPipe's ImageToTensorCalculator does on CPU: cv::warpAffine to 8-bit RGB, bilinear, with a
 * zero border (border_zero = 1) or the edge replicated (0), then value = pixel * scale + offset, laid
 * out NHWC (nhwc = 1) or NCHW. A gray-only image gives three equal channels. */
ov_status ov_warp_to_tensor(const ov_image *image, const double m[6], int width, int height, int border_zero,
                            float scale, float offset, int nhwc, float *out, size_t capacity);

#ifdef __cplusplus
}
#endif

#endif
