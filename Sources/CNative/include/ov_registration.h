/*
 * ov_registration.h: image registration: translation and homography, and the perspective warp
 * (ov_registration.cpp).
 * Conventions of ov_native.h (ov_status, ov_last_error(), *_free; pixels, top-left origin).
 * Pixel centres at integers (OpenCV's).
 */
#ifndef OV_REGISTRATION_H
#define OV_REGISTRATION_H

#include "ov_image.h"

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

#ifdef __cplusplus
}
#endif

#endif /* OV_REGISTRATION_H */
