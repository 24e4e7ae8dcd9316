// The C side of the darknet-opencv fuzz target: OpenCV 4.6's Darknet importer, called from Swift.
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Reads `cfg` and `weights` from memory with cv::dnn::readNetFromDarknet and runs one forward pass on
/// a 1 × channels × height × width input of 0.5. Returns 0 when OpenCV read and ran the network, 1 when
/// it refused it with a cv::Exception (a typed error in OpenVision), 2 for any other C++ exception (an
/// index OpenCV took from the .cfg without checking, seen as `internalError`).
int fuzz_opencv_darknet(const char *cfg, size_t cfg_length, const char *weights, size_t weights_length,
                        int width, int height, int channels);

#ifdef __cplusplus
}
#endif
