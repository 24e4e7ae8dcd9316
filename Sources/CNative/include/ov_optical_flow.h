/*
 * ov_optical_flow.h: dense optical flow (ov_optical_flow.cpp).
 * Conventions of ov_native.h (ov_status, ov_last_error(), *_free; pixels, top-left origin).
 * Pixel centres at integers (OpenCV's).
 */
#ifndef OV_OPTICAL_FLOW_H
#define OV_OPTICAL_FLOW_H

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* OV_OPTICAL_FLOW_H */
