/*
 * ov_quality.h: measurable image-quality factors of a region (ov_quality.cpp), from which OpenVision composes face
 * capture quality and aesthetics scores.
 * Conventions of ov_native.h (ov_status, ov_last_error(), *_free; pixels, top-left origin).
 */
#ifndef OV_QUALITY_H
#define OV_QUALITY_H

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ quality (ov_quality.cpp) */

typedef struct ov_quality_measures {
    double mean;         /* mean luminance, 0...255 */
    double contrast;     /* standard deviation of the luminance */
    double dark;         /* share of pixels at 16 or below */
    double bright;       /* share of pixels at 239 or above */
    double laplacian;    /* mean square of the 4-neighbour Laplacian (interior pixels) */
    double peak_laplacian; /* the largest such mean over a 4 x 4 grid of tiles */
    double laplacian_floor; /* the 10th percentile of its means over 8 x 8 blocks: noise's share */
    double noise;        /* noise sigma at the region's own resolution: Liu, Tanaka and Okutomi's weak-texture patch
                            estimate (Immerkaer's on the flattest 8 x 8 blocks for regions too small for it) */
    double blockiness;   /* JPEG's 8 x 8 grid: mean step across grid lines over the mean step elsewhere, minus 1,
                            at the image's own resolution (0: no grid) */
    double colorfulness; /* Hasler and Suesstrunk's M (0 for gray images) */
    double flat;         /* share of pixels within 16 gray levels of the most common level (a page's paper) */
    int width, height;   /* the working size the measures were taken at */
} ov_quality_measures;

/* The measures of the region (x, y, width, height: pixels, clipped to the image) resampled to `work_width` pixels
 * wide (height in proportion; INTER_AREA when shrinking, INTER_CUBIC when enlarging), or, with work_width 0, shrunk
 * to a longer side of at most `max_side` (never enlarged). Blockiness and noise are measured on the region at full resolution.
 * OV_ERR_INVALID_ARGUMENT for a region under 8 x 8 pixels after clipping or a work size under 8 or over 4096. */
ov_status ov_measure_quality(const ov_image *image, int x, int y, int width, int height, int work_width,
                             int max_side, ov_quality_measures *out);

#ifdef __cplusplus
}
#endif

#endif /* OV_QUALITY_H */
