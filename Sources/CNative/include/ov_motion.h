/* Classic (no network) counterparts of Vision's motion requests: image registration (translation,
 * homography), optical flow and the moving-object detector behind trajectory detection.
 * Same conventions as ov_native.h: every function returns an ov_status (message via ov_last_error),
 * pixel coordinates have a top-left origin with pixel centres at integers (OpenCV's), handles are
 * freed by the matching *_free function. */
#ifndef OV_MOTION_H
#define OV_MOTION_H

#include "ov_native.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ registration (ov_registration.cpp) */

/* The translation of `floating`'s content relative to `reference` (cv::phaseCorrelate with a Hann
 * window on the gray planes): floating(x + dx, y + dy) ~ reference(x, y). *response is the
 * correlation peak (0...1, higher is more certain). The images must have the same size; *found = 0
 * when either is flat (no texture to correlate). */
ov_status ov_register_translation(const ov_image *reference, const ov_image *floating, int *found, double *dx,
                                  double *dy, double *response);

/* The homography h (row-major 3x3, h[8] = 1) mapping `floating`'s pixel coordinates onto
 * `reference`'s: ORB features matched with a ratio test, RANSAC (cv::findHomography, 3 px), then
 * refined by pyramidal Lucas-Kanade on corners of the floating image and a second RANSAC fit (1 px).
 * *inlier_ratio is the refined fit's inliers / tracked corners. Same size required; *found = 0 for a
 * flat image or when too few features match (unrelated images). */
ov_status ov_register_homography(const ov_image *reference, const ov_image *floating, int *found, double h[9],
                                 double *inlier_ratio);

/* `image` warped by the homography h (row-major 3x3) into a new width x height image: h maps `image`'s
 * pixel coordinates to the output's, out(x, y) = image(h^-1 (x, y)) (cv::warpPerspective, bilinear,
 * replicated border). */
ov_status ov_image_warp_perspective(const ov_image *image, const double h[9], int width, int height, ov_image **out);

/* ------------------------------------------------------------------ optical flow (ov_optical_flow.cpp) */

typedef enum ov_flow_accuracy {
    OV_FLOW_LOW = 0,       /* DIS, preset ULTRAFAST */
    OV_FLOW_MEDIUM = 1,    /* DIS, preset FAST */
    OV_FLOW_HIGH = 2,      /* DIS, preset MEDIUM */
    OV_FLOW_VERY_HIGH = 3  /* DIS at full resolution: finest scale 0, patch 8, stride 3, 25 + 10 iterations */
} ov_flow_accuracy;

/* The dense flow from `from` to `to` (same size) on the gray planes: flow[2 * (y * width + x)] and
 * [... + 1] are the x and y displacement (pixels, y down) of from's pixel (x, y) in `to`. `flow` has
 * room for width x height x 2 floats (from's size). */
ov_status ov_optical_flow(const ov_image *from, const ov_image *to, ov_flow_accuracy accuracy, float *flow);

/* ------------------------------------------------------------------ moving objects (ov_trajectories.cpp) */

/* Finds moving blobs frame by frame against a background that is the per-pixel median of the recent
 * frames (a ring of OV_MOTION_HISTORY). One detector follows one sequence of same-size frames. */
typedef struct ov_motion_detector ov_motion_detector;

typedef struct ov_motion_blob {
    float x, y;   /* centroid, frame pixels */
    float radius; /* radius of the disc with the blob's area, frame pixels */
} ov_motion_blob;

ov_status ov_motion_detector_create(ov_motion_detector **out);
void ov_motion_detector_free(ov_motion_detector *detector);

/* Adds `frame` and writes the blobs moving in it whose radius is within [min_radius, max_radius]
 * pixels (largest first, at most `capacity`; *count is the number written). The first frames only
 * build the background (no blobs until the history holds 5 frames). A frame of another size than the
 * first is OV_ERR_INVALID_ARGUMENT. */
ov_status ov_motion_detector_add(ov_motion_detector *detector, const ov_image *frame, float min_radius, float max_radius,
                                 ov_motion_blob *blobs, int capacity, int *count);

#ifdef __cplusplus
}
#endif

#endif
