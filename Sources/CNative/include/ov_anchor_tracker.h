/*
 * ov_anchor_tracker.h: the anchor tracker behind pinned labels (ov_anchor_tracker.cpp).
 * Conventions of ov_native.h (ov_status, ov_last_error(), *_free; pixels, top-left origin).
 * Pixel centres at integers (OpenCV's); a handle follows one sequence of same-size frames and
 * is not thread-safe (its Swift owner serialises calls).
 */
#ifndef OV_ANCHOR_TRACKER_H
#define OV_ANCHOR_TRACKER_H

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#endif /* OV_ANCHOR_TRACKER_H */
