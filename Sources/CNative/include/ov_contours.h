/*
 * ov_contours.h: contours and polygon approximation (ov_contours.cpp), the classic counterpart of Vision's
 * contour request.
 * Conventions of ov_native.h (ov_status, ov_last_error(), *_free; pixels, top-left origin).
 */
#ifndef OV_CONTOURS_H
#define OV_CONTOURS_H

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ contours (ov_contours.cpp) */

typedef struct ov_contour_params {
    float contrast_adjustment;   /* 0...3: contrast stretch about the pivot before binarising */
    float contrast_pivot;        /* 0...1, used when has_contrast_pivot; else Otsu's threshold */
    int has_contrast_pivot;
    int detects_dark_on_light;   /* nonzero: dark shapes on a light background are the foreground */
    int maximum_image_dimension; /* > 0: the longer side of the image the contours are found on */
} ov_contour_params;

/* The contours of one image. Arrays are owned by the set (ov_contour_set_free frees them). */
typedef struct ov_contour_set {
    int width, height;     /* the working image (longer side <= maximum_image_dimension) */
    int contour_count;
    int *parents;          /* contour_count entries: the enclosing contour's index, or -1 */
    int *point_offsets;    /* contour_count + 1 entries: contour i is points[2*off[i] ..< 2*off[i+1]] */
    float *points;         /* x, y pairs in working-image pixels */
} ov_contour_set;

/* Fills `out` (zeroed first); a flat image gives no contours. */
ov_status ov_detect_contours(const ov_image *image, const ov_contour_params *params, ov_contour_set *out);
void ov_contour_set_free(ov_contour_set *set);

/* cv::approxPolyDP of the closed polygon xy[2*count] (any units) with `epsilon` in the same units, into
 * out (room for `count` points); *out_count is the number written. */
ov_status ov_approx_polygon(const float *xy, int count, double epsilon, float *out, int *out_count);

#ifdef __cplusplus
}
#endif

#endif /* OV_CONTOURS_H */
