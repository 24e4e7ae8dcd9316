/*
 * ov_saliency.h: attention and objectness saliency maps and heat-map drawing (ov_saliency.cpp), the classic
 * counterparts of Vision's saliency requests.
 * Conventions of ov_native.h (ov_status, ov_last_error(), *_free; pixels, top-left origin).
 */
#ifndef OV_SALIENCY_H
#define OV_SALIENCY_H

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* OV_SALIENCY_H */
