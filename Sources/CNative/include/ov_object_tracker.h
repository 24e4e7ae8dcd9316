/*
 * ov_object_tracker.h: single-object tracking (OpenCV contrib `tracking`: CSRT, KCF; `video`: MIL;
 * ov_object_tracker.cpp).
 * Conventions of ov_native.h (ov_status, ov_last_error(), *_free; pixels, top-left origin).
 * Pixel centres at integers (OpenCV's); a handle follows one sequence of same-size frames and
 * is not thread-safe (its Swift owner serialises calls).
 */
#ifndef OV_OBJECT_TRACKER_H
#define OV_OBJECT_TRACKER_H

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ single object (ov_object_tracker.cpp) */

typedef enum ov_object_tracker_kind {
    OV_TRACKER_CSRT = 0, /* cv::TrackerCSRT (contrib tracking) */
    OV_TRACKER_KCF = 1,  /* cv::TrackerKCF (contrib tracking) */
    OV_TRACKER_MIL = 2   /* cv::TrackerMIL (video) */
} ov_object_tracker_kind;

typedef struct ov_object_tracker ov_object_tracker;

/* A tracker of `kind` initialised on `frame` with the box (x, y, width, height) in pixels, which must
 * lie inside the frame and be at least 2x2. When `quad` (8 doubles: x0 y0 ... x3 y3, the corners of a
 * quadrilateral inside the box) is non-null, the tracker also follows those corners: corners of the
 * image inside the quadrilateral are tracked with pyramidal Lucas-Kanade (forward-backward checked) and
 * a homography fitted with RANSAC maps the corners. */
ov_status ov_object_tracker_create(ov_object_tracker_kind kind, const ov_image *frame, const double box[4],
                                   const double *quad, ov_object_tracker **out);
void ov_object_tracker_free(ov_object_tracker *tracker);

/* Tracks into `frame` (same size as the first frame, else OV_ERR_INVALID_ARGUMENT). box: the new box
 * (pixels; the last one when the tracker reports failure); *found: the tracker's own verdict;
 * *confidence: 0...1, the normalised cross-correlation of the first frame's template (resized to the
 * box) with the patch now under the box, clamped at 0, and 0 when the tracker reports failure. quad:
 * the corners (8 doubles) when the tracker was created with a quadrilateral, else untouched (may be null). */
ov_status ov_object_tracker_update(ov_object_tracker *tracker, const ov_image *frame, double box[4], int *found,
                                   double *confidence, double *quad);

#ifdef __cplusplus
}
#endif

#endif /* OV_OBJECT_TRACKER_H */
