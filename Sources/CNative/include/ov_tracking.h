/* Single-object tracking (OpenCV contrib `tracking`: CSRT, KCF; `video`: MIL) and the anchor tracker behind
 * pinned labels. Same conventions as ov_native.h: every function returns an ov_status (message via
 * ov_last_error), pixel coordinates have a top-left origin with pixel centres at integers (OpenCV's),
 * handles are freed by the matching *_free function. A handle follows one sequence of same-size
 * frames and is not thread-safe (its Swift owner serialises calls). */
#ifndef OV_TRACKING_H
#define OV_TRACKING_H

#include "ov_native.h"

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

/* ------------------------------------------------------------------ anchors (ov_anchor_tracker.cpp) */

typedef struct ov_anchor_params {
    int window_radius;       /* features are taken within this many pixels of the anchor (default 40) */
    int max_features;        /* Shi-Tomasi corners per anchor (default 12) */
    int normal_inliers;      /* local similarity-fit inliers for "normal" (default 7) */
    int min_inliers;         /* fewer local inliers: the global motion moves the anchor, "limited" (default 4) */
    double edge_margin;      /* an anchor closer than this many pixels to the frame edge is "limited" (default 16) */
    int global_features;     /* corners tracked over the whole frame for the camera motion (default 100) */
    double reacquire_ncc;    /* template correlation that re-acquires a lost anchor back in view (default 0.6) */
} ov_anchor_params;

typedef enum ov_anchor_state { OV_ANCHOR_NORMAL = 0, OV_ANCHOR_LIMITED = 1, OV_ANCHOR_LOST = 2 } ov_anchor_state;

typedef struct ov_anchor_result {
    int id;
    int state;  /* ov_anchor_state */
    double x, y; /* pixels: the tracked position (normal, limited), the last tracked one (lost) */
} ov_anchor_result;

typedef struct ov_anchor_tracker ov_anchor_tracker;

ov_status ov_anchor_tracker_create(const ov_anchor_params *params, ov_anchor_tracker **out);
void ov_anchor_tracker_free(ov_anchor_tracker *tracker);

/* Pins anchor `id` at pixel (x, y) of `frame`. When `frame` differs from the last frame the tracker saw,
 * the existing anchors are first tracked into it (as ov_anchor_tracker_update). A frame of another size
 * than the earlier ones is OV_ERR_INVALID_ARGUMENT. */
ov_status ov_anchor_tracker_add(ov_anchor_tracker *tracker, const ov_image *frame, int id, double x, double y);
/* Forgets anchor `id`; *removed = 0 when it is unknown. */
ov_status ov_anchor_tracker_remove(ov_anchor_tracker *tracker, int id, int *removed);
/* Writes every anchor as of the last frame, without tracking (as ov_anchor_tracker_update writes them). */
ov_status ov_anchor_tracker_peek(const ov_anchor_tracker *tracker, ov_anchor_result *results, int capacity, int *count);
/* Tracks every anchor into `frame` and writes them (in the order they were added, at most `capacity`). */
ov_status ov_anchor_tracker_update(ov_anchor_tracker *tracker, const ov_image *frame, ov_anchor_result *results,
                                   int capacity, int *count);

#ifdef __cplusplus
}
#endif

#endif
