/*
 * ov_trajectories.h: the moving-object detector behind trajectory detection (ov_trajectories.cpp).
 * Conventions of ov_native.h (ov_status, ov_last_error(), *_free; pixels, top-left origin).
 * Pixel centres at integers (OpenCV's).
 */
#ifndef OV_TRAJECTORIES_H
#define OV_TRAJECTORIES_H

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#endif /* OV_TRAJECTORIES_H */
