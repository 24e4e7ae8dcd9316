/*
 * ov_horizon.h: horizon angle (ov_horizon.cpp), the classic counterpart of Vision's horizon request.
 * Conventions of ov_native.h (ov_status, ov_last_error(), *_free; pixels, top-left origin).
 */
#ifndef OV_HORIZON_H
#define OV_HORIZON_H

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ horizon (ov_horizon.cpp) */

/* *found = 1 and *angle (radians, counter-clockwise as seen, in -pi/4...pi/4) when the image has a
 * dominant, nearly horizontal straight line crossing at least half of it; else *found = 0. */
ov_status ov_detect_horizon(const ov_image *image, int *found, double *angle);

#ifdef __cplusplus
}
#endif

#endif /* OV_HORIZON_H */
