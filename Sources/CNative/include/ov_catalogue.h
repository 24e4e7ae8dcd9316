/* Classic (no network) counterparts of Vision's contour, horizon, saliency and text-rectangle requests.
 * Same conventions as ov_native.h: every function returns an ov_status (message via ov_last_error),
 * pixel coordinates have a top-left origin, buffers handed out are released by the matching
 * *_free function. */
#ifndef OV_CATALOGUE_H
#define OV_CATALOGUE_H

#include "ov_native.h"

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

/* ------------------------------------------------------------------ horizon (ov_horizon.cpp) */

/* *found = 1 and *angle (radians, counter-clockwise as seen, in -pi/4...pi/4) when the image has a
 * dominant, nearly horizontal straight line crossing at least half of it; else *found = 0. */
ov_status ov_detect_horizon(const ov_image *image, int *found, double *angle);

/* ------------------------------------------------------------------ saliency (ov_saliency.cpp) */

typedef enum ov_saliency_kind {
    OV_SALIENCY_SPECTRAL_RESIDUAL = 0, /* attention: cv::saliency::StaticSaliencySpectralResidual */
    OV_SALIENCY_FINE_GRAINED = 1       /* objectness: cv::saliency::StaticSaliencyFineGrained */
} ov_saliency_kind;

typedef struct ov_salient_box {
    float x, y, width, height; /* map pixels */
    float confidence;          /* mean saliency inside the region, 0...1 */
} ov_salient_box;

/* A map_size x map_size saliency map (0...1, row-major) into `map`, and the salient regions, most
 * confident first, into `boxes` (at most `capacity`; *box_count is the total). A flat image gives an
 * all-zero map and no regions. */
ov_status ov_saliency(const ov_image *image, ov_saliency_kind kind, int map_size, float *map,
                      ov_salient_box *boxes, int capacity, int *box_count);

/* Montabone & Soto's fine-grained saliency of an 8-bit gray image (width x height, `stride` bytes per row)
 * into `out` (width x height floats in 0...1, row-major): OpenCV contrib's StaticSaliencyFineGrained, bit for bit.
 * reference = 0 computes it as ov_saliency does (rows in parallel); reference != 0 calls OpenCV's class
 * itself (slow; for tests that check the two agree). */
ov_status ov_fine_grained_saliency(const uint8_t *gray, int width, int height, size_t stride, int reference,
                                   float *out);

/* Hou & Zhang's spectral residual saliency of an 8-bit gray image (width x height, `stride` bytes per row) at its
 * own size as the working size, into `out` (width x height floats in 0...1, row-major): OpenCV contrib's
 * StaticSaliencySpectralResidual with setImageWidth/Height(width, height), within 1e-4 (ov_saliency.cpp,
 * Decisions). reference = 0 computes it as ov_saliency does (buffers kept per thread); reference != 0 calls
 * OpenCV's class (for tests). */
ov_status ov_spectral_residual_saliency(const uint8_t *gray, int width, int height, size_t stride, int reference,
                                        float *out);

/* Blends a one-channel map (map_width x map_height values in 0...1, row-major) over the pixel rectangle
 * (x, y, width, height) of `image` (made colour): the map is stretched over the rectangle (bilinear),
 * coloured with OpenCV's JET colour map, and mixed in with weight opacity x value per pixel. */
ov_status ov_image_blend_heat_map(ov_image *image, const float *map, int map_width, int map_height, int x, int y,
                                  int width, int height, float opacity);

/* The same colouring as a small RGBA PNG for a browser to composite: each map value (0...1, clamped; NaN
 * is 0) becomes one pixel of OpenCV's JET colour with alpha = value x 255, so drawing it with opacity a
 * equals ov_image_blend_heat_map's mix. Free *out with ov_free. */
ov_status ov_heat_map_png(const float *map, int map_width, int map_height, uint8_t **out, size_t *length);

/* ------------------------------------------------------------------ text rectangles (ov_textrects.cpp) */

typedef struct ov_text_rects {
    int line_count;
    float *lines;          /* line_count x (x, y, width, height, confidence), image pixels */
    int *char_offsets;     /* line_count + 1 entries: line i's characters are chars[off[i] ..< off[i+1]] */
    float *chars;          /* (x, y, width, height) per character, image pixels, left to right */
} ov_text_rects;

/* Fills `out` (zeroed first); a flat image gives no lines. */
ov_status ov_detect_text_rectangles(const ov_image *image, ov_text_rects *out);
void ov_text_rects_free(ov_text_rects *rects);

#ifdef __cplusplus
}
#endif

#endif
