/*
 * ov_bitmap.h: drawing onto 8-bit pixels the caller owns (a Core Graphics bitmap context's memory, a pixel
 * buffer's base address): filled and stroked polygons, cleared rectangles and images drawn through an affine map,
 * each blended "source over" with the bitmap's premultiplied alpha (ov_bitmap.cpp, OpenCV's rasteriser and
 * warpAffine). Conventions of ov_native.h: pixels, origin top-left, a pixel's centre at integer coordinates.
 */
#ifndef OV_BITMAP_H
#define OV_BITMAP_H

#include "ov_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pixels: `height` rows of `stride` bytes, `channels` (1, 3 or 4) 8-bit components per pixel. `alpha_index` is
 * the component holding alpha, or -1 for none (an unused component is -1 too, and left as it is); with
 * `premultiplied` non-zero the colour components are premultiplied by alpha. */
typedef struct {
    void *pixels;
    int width;
    int height;
    size_t stride;
    int channels;
    int alpha_index;
    int premultiplied;
} ov_bitmap;

/* Fills the area of `polygon_count` closed polygons (`counts[i]` points each, `xy` all their x, y pairs) with
 * the colour `components` (one value 0...255 per component of the bitmap, in its order; the alpha slot is ignored)
 * at opacity `alpha` (0...1). `even_odd` chooses the even-odd rule over non-zero winding; `antialias` blends the
 * edges by coverage. Polygons with fewer than 3 points add nothing. OpenCV's rasteriser paints the pixels its
 * rounded edges touch: an edge may reach one pixel beyond the exact area (ov_bitmap_fill_rect is exact). */
ov_status ov_bitmap_fill_polygons(const ov_bitmap *bitmap, const float *xy, const int *counts, int polygon_count,
                                  int even_odd, int antialias, const double *components, double alpha);

/* Fills the axis-aligned rectangle from (x0, y0) to (x1, y1) in pixel-edge coordinates (pixel (i, j) is the square
 * [i, i+1] x [j, j+1]) with `components` at opacity `alpha`, each pixel weighted by the part of it the rectangle
 * covers (exact area coverage: whole-pixel edges colour exactly the pixels inside). */
ov_status ov_bitmap_fill_rect(const ov_bitmap *bitmap, double x0, double y0, double x1, double y1,
                              const double *components, double alpha);

/* Strokes `polygon_count` polylines (`closed[i]` non-zero joins the last point to the first) `line_width` pixels
 * wide (rounded, at least 1) with `components` at opacity `alpha`, as ov_bitmap_fill_polygons. */
ov_status ov_bitmap_stroke_polylines(const ov_bitmap *bitmap, const float *xy, const int *counts, const int *closed,
                                     int polygon_count, float line_width, int antialias, const double *components,
                                     double alpha);

/* Sets the pixels of the rectangle (clipped to the bitmap) to 0: transparent black. */
ov_status ov_bitmap_clear(const ov_bitmap *bitmap, int x, int y, int width, int height);

/* Draws `source` through `matrix` (2 x 3, row-major: source pixel -> destination pixel), bilinear when
 * `interpolate` is non-zero, source over at opacity `alpha`. `channel_map[k]` is the source component that goes
 * to destination component k (-1: none; the destination's alpha component takes the source's alpha, or 255). */
ov_status ov_bitmap_draw(const ov_bitmap *destination, const ov_bitmap *source, const double *matrix,
                         const int *channel_map, double alpha, int interpolate);

#ifdef __cplusplus
}
#endif

#endif /* OV_BITMAP_H */
