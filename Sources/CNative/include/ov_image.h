/*
 * ov_image.h: images in memory: decoding, encoding, geometry and drawing (ov_image.cpp; JPEG and PNG
 * decoders in ov_jpeg.cpp, ov_png.cpp; ov_preload_module in ov_lazy.cpp). Conventions of ov_native.h (ov_status, ov_last_error(), *_free; pixels, top-left origin).
 */
#ifndef OV_IMAGE_H
#define OV_IMAGE_H

#include "ov_status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ images */

/* Pixel formats accepted by ov_image_from_pixels. */
typedef enum {
    OV_PIXEL_RGB8 = 0,
    OV_PIXEL_BGR8 = 1,
    OV_PIXEL_RGBA8 = 2,
    OV_PIXEL_BGRA8 = 3,
    OV_PIXEL_GRAY8 = 4,
    OV_PIXEL_NV12 = 5, /* Y plane (height rows of `stride` bytes) then interleaved UV plane (height/2 rows, same stride) */
    OV_PIXEL_ARGB8 = 6 /* 4 bytes per pixel: alpha, red, green, blue (Core Video's 32ARGB) */
} ov_pixel_format;

/* An image in memory, owned by the handle: colour (8-bit BGR, with a gray copy made on demand and
 * cached) or luma-only (8-bit gray; much cheaper to decode). Drawing turns a luma-only image colour. */
typedef struct ov_image ov_image;

/* Decodes JPEG/PNG/WebP/BMP/TIFF bytes to BGR, or to gray only when luma_only is non-zero.
 * reduction 2, 4 or 8 decodes a JPEG at that fraction of its size (libjpeg's DCT scaling: each side
 * ceil(side / reduction)); 1 decodes full size. EXIF orientation is NOT applied (callers do it).
 * A damaged JPEG that still decodes (truncated, corrupt entropy data) carries the decoder's warnings
 * (ov_image_warning*); with strict non-zero, the first warning is an OV_ERR_DECODE instead.
 * Common PNGs (8-bit gray/RGB(A), not interlaced) at full size are inflated by libdeflate (ov_png.cpp),
 * the other PNGs decoded by libpng itself (ov_libpng.cpp), both to the pixels OpenCV would give; libpng's
 * warnings are the image's warnings ("PNG: ...", not affected by strict) and its error the OV_ERR_DECODE's
 * message, never printed. Every other file, and its errors, is OpenCV's. */
ov_status ov_image_decode(const void *data, size_t length, int luma_only, int reduction, int strict, ov_image **out);

/* OpenCV's cv::imdecode alone (full size, EXIF orientation ignored), without ov_image_decode's own
 * JPEG and PNG decoders: the reference those are tested against (same pixels). */
ov_status ov_image_decode_opencv(const void *data, size_t length, int luma_only, ov_image **out);

/* ov_image_decode's PNG decoder alone (libdeflate, ov_png.cpp), full size: OV_ERR_UNSUPPORTED when it
 * leaves the file to OpenCV (other PNG kinds, colorimetry, any damage). For tests and benchmarks. */
ov_status ov_image_decode_png(const void *data, size_t length, int luma_only, ov_image **out);

/* The decoder's warnings for an image ov_image_decode made (0 for any other image); each string
 * lives as long as the image. */
size_t ov_image_warning_count(const ov_image *image);
const char *ov_image_warning(const ov_image *image, size_t index);

/* Loads an OpenCV module that is otherwise loaded on first use ("imgcodecs", "videoio"; see
 * ov_lazy.hpp), so that its start-up cost is paid now. OV_ERR_UNSUPPORTED when it is missing. */
ov_status ov_preload_module(const char *module);

/* Copies raw pixels (row stride in bytes) into a new BGR image. */
ov_status ov_image_from_pixels(const void *data, int width, int height, size_t stride,
                               ov_pixel_format format, ov_image **out);

/* Writes the image's pixels into `dst` (height rows of `stride` bytes) in `format` (any but NV12); alpha,
 * where the format has it, is 255. A luma-only image gives its gray value in each colour channel. */
ov_status ov_image_to_pixels(const ov_image *image, ov_pixel_format format, void *dst, size_t stride);

/* A new image: `src` transformed by EXIF orientation 1...8 so that it displays upright. */
ov_status ov_image_orient(const ov_image *src, int exif_orientation, ov_image **out);

/* A new image: the pixel rectangle (clamped to the image) of `src`; fails if empty. */
ov_status ov_image_crop(const ov_image *src, int x, int y, int width, int height, ov_image **out);

/* A new image resized to width x height (area interpolation when shrinking, linear when growing). */
ov_status ov_image_resize(const ov_image *src, int width, int height, ov_image **out);

/* cv::resize(INTER_LINEAR) of a one-channel float map: `src` (width x height, row-major) into `dst`
 * (out_width x out_height), pixel centres aligned, borders replicated. */
ov_status ov_resize_float_map(const float *src, int width, int height, float *dst, int out_width, int out_height);

/* A new width x height colour image filled with (r, g, b). */
ov_status ov_image_create_filled(int width, int height, int r, int g, int b, ov_image **out);

/* A deep copy. */
ov_status ov_image_clone(const ov_image *src, ov_image **out);

void ov_image_free(ov_image *image);

int ov_image_width(const ov_image *image);
int ov_image_height(const ov_image *image);
/* 1 for a luma-only image, 0 for a colour one. */
int ov_image_is_gray(const ov_image *image);

/* Borrowed pointer to BGR pixels (3 bytes per pixel) and row stride; valid while the image lives.
 * NULL for a luma-only image. */
const uint8_t *ov_image_bgr(const ov_image *image, size_t *stride);

/* Borrowed pointer to a gray (luma) copy, computed once and cached; thread-safe. */
const uint8_t *ov_image_gray(const ov_image *image, size_t *stride);

/* Encodes to the format named by `extension` (".png", ".jpg", ".webp", ".bmp", ".tiff").
 * quality: JPEG/WebP quality 1...100, or 0 for the default. Free *out with ov_free. */
ov_status ov_image_encode(const ov_image *image, const char *extension, int quality,
                          uint8_t **out, size_t *length);

/* Drawing in place, colour given as r, g, b. Coordinates in pixels, top-left origin. */
ov_status ov_image_draw_polyline(ov_image *image, const float *xy, int point_count, int closed,
                                 int r, int g, int b, int thickness);
ov_status ov_image_draw_circle(ov_image *image, float x, float y, float radius,
                               int r, int g, int b, int thickness /* -1 fills */);
/* Text with its baseline-left at (x, y) on a filled background box; scale 1.0 ~ 20 px high. */
ov_status ov_image_draw_label(ov_image *image, const char *utf8, float x, float y, float scale,
                              int r, int g, int b, int background_r, int background_g, int background_b);
/* Text drawn with a TrueType font (OpenCV's freetype module); for generating test images. */
ov_status ov_image_draw_text_ttf(ov_image *image, const char *utf8, const char *font_path,
                                 int pixel_height, int x, int y, int r, int g, int b);
/* Fills a convex or concave polygon. */
ov_status ov_image_fill_polygon(ov_image *image, const float *xy, int point_count, int r, int g, int b);
/* Pastes `src` into `dst` with its top-left at (x, y), rotated by `degrees` counter-clockwise about
 * its centre, scaled by `scale`; pixels outside src keep dst's value. */
ov_status ov_image_paste(ov_image *dst, const ov_image *src, float x, float y, float degrees, float scale);

#ifdef __cplusplus
}
#endif

#endif /* OV_IMAGE_H */
