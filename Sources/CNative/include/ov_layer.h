/*
 * ov_layer.h: the pixel operations behind OpenVision's lazy image recipes (ImageRecipe, and through it Core Image's
 * filters); implemented in ov_layer.cpp. Conventions of ov_native.h (ov_status, ov_last_error(), *_free), except
 * for coordinates: a layer lives on an unbounded plane whose origin is lower-left with y up (Core Image's working
 * space). A layer holds premultiplied RGBA pixels covering one integer rectangle of that plane, its first row the
 * top one; outside that rectangle it is transparent. Pixel (column c, row r) of a layer over (x, y, w, h) has its
 * centre at plane point (x + c + 0.5, y + h - r - 0.5).
 *
 * Every operation makes a new layer over a rectangle the caller names (the region of interest), reading only what
 * that rectangle needs; nothing is computed ahead. A layer may share the pixels of an ov_image or of another layer
 * (a crop is a view); an operation that writes in place copies pixels it does not own alone.
 */
#ifndef OV_LAYER_H
#define OV_LAYER_H

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An integer rectangle of the plane: lower-left corner (x, y), width and height in pixels. */
typedef struct {
    int x, y, width, height;
} ov_rect;

/* Premultiplied RGBA pixels over an ov_rect of the plane. */
typedef struct ov_layer ov_layer;

/* How a layer stores its pixels (the cheapest form that holds them exactly): opaque 8-bit BGR or gray (alpha 1),
 * 8-bit premultiplied RGBA, or 32-bit float premultiplied RGBA (colour operations work in float). */
typedef enum {
    OV_LAYER_BGR8 = 0,
    OV_LAYER_GRAY8 = 1,
    OV_LAYER_RGBA8 = 2,
    OV_LAYER_RGBAF = 3
} ov_layer_kind;

/* Raw pixel layouts a layer is sampled from or exported to. 8-bit values are 0...255 for 0...1; the 4-channel
 * layouts carry alpha (premultiplied or not, as the call says). Gray layouts are luminance (r = g = b, alpha 1) when
 * read and the red channel when written. NV12: a full-size Y plane then an interleaved half-size UV plane, both with
 * the same stride (as OpenCV's COLOR_YUV2BGR_NV12), read only. */
typedef enum {
    OV_LAYER_PIXELS_BGR8 = 0,
    OV_LAYER_PIXELS_RGB8 = 1,
    OV_LAYER_PIXELS_BGRA8 = 2,
    OV_LAYER_PIXELS_RGBA8 = 3,
    OV_LAYER_PIXELS_ARGB8 = 4,
    OV_LAYER_PIXELS_GRAY8 = 5,
    OV_LAYER_PIXELS_GRAYF32 = 6,
    OV_LAYER_PIXELS_NV12 = 7,
    OV_LAYER_PIXELS_RGBAF32 = 8
} ov_layer_pixels_format;

/* Raw pixels, borrowed for the duration of one call; they occupy the plane rectangle (0, 0, width, height). */
typedef struct {
    const void *data;
    int width, height;
    size_t stride; /* bytes per row (per row of the Y plane for NV12) */
    int format;    /* ov_layer_pixels_format */
    int alpha;     /* 4-channel layouts: OV_ALPHA_* */
} ov_layer_pixels;

/* What the fourth channel of 4-channel raw pixels means. */
enum {
    OV_ALPHA_PREMULTIPLIED = 0, /* alpha, the colour already multiplied by it (Core Image's and Core Video's BGRA) */
    OV_ALPHA_STRAIGHT = 1,      /* alpha, the colour not multiplied by it */
    OV_ALPHA_IGNORED = 2        /* not alpha: the pixels are opaque (an 'X' byte, as RGBX) */
};

/* Edge modes: what an input is outside its rectangle. */
enum { OV_EDGE_TRANSPARENT = 0, OV_EDGE_CLAMP = 1 /* its edge pixels repeated outward (clampedToExtent) */ };
/* Interpolation of samples between pixel centres. */
enum { OV_SAMPLE_LINEAR = 0, OV_SAMPLE_NEAREST = 1 };

/* One resampling of an input onto a new rectangle: fused geometry (affine and perspective transforms, crops before
 * and after them) done in a single cv::warpAffine / cv::warpPerspective call, or a copy or a shared view when the
 * map is a whole-pixel translation. */
typedef struct {
    double inverse[9];    /* row-major homography from an output plane point to the input plane point it samples */
    int has_input_crop;   /* non-zero: the input is only its part inside input_crop (the rest transparent) ... */
    ov_rect input_crop;   /* ... applied before the edge mode, in the input's plane */
    int edge;             /* OV_EDGE_* */
    int interpolation;    /* OV_SAMPLE_* */
    ov_rect rect;         /* the output layer's rectangle */
    int has_clip;         /* non-zero: output pixels whose centres lie outside clip are transparent */
    ov_rect clip;
} ov_layer_sampling;

/* Samples an image's pixels (which occupy plane rectangle (0, 0, width, height), row 0 on top). The result may share
 * the image's pixels (a crop or whole-pixel shift of an ov_image is a view, no copy). */
ov_status ov_layer_sample_image(const ov_image *image, const ov_layer_sampling *sampling, ov_layer **out);
/* Samples raw pixels; the result never refers to them after the call. */
ov_status ov_layer_sample_pixels(const ov_layer_pixels *pixels, const ov_layer_sampling *sampling, ov_layer **out);
/* Samples another layer (inverse maps to the input layer's plane, which is the same plane). */
ov_status ov_layer_sample_layer(const ov_layer *input, const ov_layer_sampling *sampling, ov_layer **out);

/* A layer over `rect` filled with one premultiplied colour (r, g, b, a in 0...1); with clip non-NULL, only pixels
 * whose centres are inside *clip are coloured, the rest transparent. */
ov_status ov_layer_fill(const float rgba[4], ov_rect rect, const ov_rect *clip, ov_layer **out);

/* A layer over `rect` holding a copy of premultiplied float RGBA pixels: rect.height rows of `stride` bytes, the
 * first row the rectangle's top one (a per-pixel function's results). */
ov_status ov_layer_create_rgbaf(const float *pixels, size_t stride, ov_rect rect, ov_layer **out);

/* Applies a 4x5 colour matrix in place: v' = M · (r, g, b, a, 1). With unpremultiplied non-zero, M acts on
 * unpremultiplied colour (Core Image's colour matrix: divide by alpha, apply, multiply back); otherwise on the
 * premultiplied values. The resulting alpha is clamped to 0...1; colour is not clamped (float working values).
 * The layer's pixels become float RGBA; pixels it shares with an image or another layer are copied, never written. */
ov_status ov_layer_apply_color_matrix(ov_layer *layer, const float matrix[20], int unpremultiplied);

/* Gaussian blur of standard deviation sigma (> 0) with a (2 ceil(3 sigma) + 1)-tap kernel, the input transparent
 * outside its rectangle (cv::GaussianBlur on float RGBA). */
ov_status ov_layer_gaussian_blur(const ov_layer *input, double sigma, ov_rect rect, ov_layer **out);

/* Lanczos (a = 3) resampling by scale_x, scale_y about the plane's origin: output point (X, Y) reads input point
 * (X / scale_x, Y / scale_y). Separable; when shrinking, the kernel widens by 1 / scale (antialiased, as Pillow's
 * LANCZOS); weights normalised over all taps, the input transparent outside its rectangle. */
ov_status ov_layer_lanczos_scale(const ov_layer *input, double scale_x, double scale_y, ov_rect rect, ov_layer **out);

/* Porter-Duff source-over: foreground + background * (1 - foreground alpha). */
ov_status ov_layer_source_over(const ov_layer *foreground, const ov_layer *background, ov_rect rect, ov_layer **out);

/* background + (foreground - background) * m, where m is the mask's channel `channel` (0 red, 1 green, 2 blue,
 * 3 alpha; premultiplied value, clamped to 0...1). A NULL foreground or background is transparent. */
ov_status ov_layer_blend_with_mask(const ov_layer *foreground, const ov_layer *background, const ov_layer *mask,
                                   int channel, ov_rect rect, ov_layer **out);

/* A second handle on the same pixels (for a consumer that will modify its copy in place). */
ov_status ov_layer_share(const ov_layer *layer, ov_layer **out);

/* Writes the layer's part inside `rect` (transparent elsewhere) to `destination` (rect.height rows of `stride`
 * bytes; NV12 is not writable). 8-bit values are rounded and clamped; premultiplied zero unpremultiplies 4-channel
 * layouts (colour / alpha, 0 where alpha is 0); layouts without alpha get the premultiplied colour (over black). */
ov_status ov_layer_export(const ov_layer *layer, ov_rect rect, void *destination, size_t stride, int format,
                          int premultiplied);

/* The layer's part inside `rect` as an ov_image (BGR, or gray for a gray layer): premultiplied colour over black,
 * alpha dropped. Shares the layer's pixels when they already are that image (no copy). */
ov_status ov_layer_to_image(const ov_layer *layer, ov_rect rect, ov_image **out);

/* The homography (row-major, h[8] = 1) mapping the four points `from` (x0, y0, ..., x3, y3) onto `to`
 * (cv::getPerspectiveTransform); OV_ERR_INVALID_ARGUMENT when three of either are collinear or a value is not finite. */
ov_status ov_perspective_transform(const double from[8], const double to[8], double h[9]);

ov_rect ov_layer_rect(const ov_layer *layer);
int ov_layer_kind_of(const ov_layer *layer); /* ov_layer_kind */
/* Non-zero when the layer's pixels are memory of an ov_image (a view made without copying). */
int ov_layer_shares_image(const ov_layer *layer, const ov_image *image);
void ov_layer_free(ov_layer *layer);

#ifdef __cplusplus
}
#endif

#endif /* OV_LAYER_H */
