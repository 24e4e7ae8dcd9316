/*
 * ov_native.h: the pure C face of OpenVision's native layer.
 *
 * Everything behind these functions is C++ (OpenCV, dlib, Tesseract). Rules every
 * implementation file keeps:
 *   - every function returns an ov_status; on failure it stores a message retrievable
 *     with ov_last_error() on the same thread;
 *   - no C++ exception ever leaves a function (each body is wrapped in try/catch);
 *   - handles are opaque; whoever receives a handle owns it and frees it with the
 *     matching *_free function; buffers returned through `uint8_t **` are freed with ov_free.
 * Coordinates here are pixels, origin top-left, x right, y down (OpenCV's convention);
 * the Swift layer converts to Vision's normalised lower-left coordinates.
 */
#ifndef OV_NATIVE_H
#define OV_NATIVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    OV_OK = 0,
    OV_ERR_INVALID_ARGUMENT = 1, /* a parameter is out of range or NULL */
    OV_ERR_DECODE = 2,           /* image bytes could not be decoded */
    OV_ERR_IO = 3,               /* a file could not be read or written */
    OV_ERR_MODEL = 4,            /* a model / data file is missing or corrupt */
    OV_ERR_UNSUPPORTED = 5,      /* format / language / feature not available */
    OV_ERR_OUT_OF_MEMORY = 6,
    OV_ERR_INTERNAL = 7          /* an unexpected C++ exception, message says which */
} ov_status;

/* The message of the last failure on this thread ("" if none). Valid until the next call. */
const char *ov_last_error(void);

/* Frees a buffer returned by this library (encoded images, strings). NULL is fine. */
void ov_free(void *p);

/* ------------------------------------------------------------------ images */

/* Pixel formats accepted by ov_image_from_pixels. */
typedef enum {
    OV_PIXEL_RGB8 = 0,
    OV_PIXEL_BGR8 = 1,
    OV_PIXEL_RGBA8 = 2,
    OV_PIXEL_BGRA8 = 3,
    OV_PIXEL_GRAY8 = 4,
    OV_PIXEL_NV12 = 5 /* Y plane (height rows of `stride` bytes) then interleaved UV plane (height/2 rows, same stride) */
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

/* ------------------------------------------------------------------ model input (OpenCV) */

typedef enum {
    OV_CROP_SCALE_FILL = 0, /* stretch to the input size */
    OV_CROP_SCALE_FIT = 1,  /* keep aspect, pad (letterbox), centred */
    OV_CROP_CENTER = 2      /* keep aspect, fill the input, crop the overflow around the centre */
} ov_crop_mode;

typedef struct {
    int width, height;  /* model input size in pixels */
    int mode;           /* ov_crop_mode */
    float pad_value;    /* 0...255 fill for OV_CROP_SCALE_FIT (Ultralytics uses 114) */
    int rgb;            /* 1: channels R, G, B; 0: B, G, R */
    int nhwc;           /* 1: interleaved HWC; 0: planar CHW */
    float scale;        /* pixel (0...255) multiplier, e.g. 1/255 */
    float mean[3];      /* after scaling, per output channel: (x - mean) / std */
    float std[3];
} ov_preprocess_params;

/* How source pixels map into the model input: input = source * scale + offset (per axis). */
typedef struct {
    float scale_x, scale_y;
    float offset_x, offset_y;
} ov_input_mapping;

/* Writes width * height * 3 floats into `out` (capacity in floats) and the mapping used. */
ov_status ov_preprocess(const ov_image *image, const ov_preprocess_params *params, float *out, size_t capacity,
                        ov_input_mapping *mapping);

/* MediaPipe's ImageToTensorCalculator on the CPU: samples `image` into a params->width x params->height tensor
 * through `tensor_to_image` (3x3 row-major, maps tensor pixel coordinates to source pixel coordinates: a rotated
 * region of interest, or a letterbox), bilinear; samples outside the source are 0 (border_replicate 0) or repeat
 * the edge (1). Then (pixel * scale - mean) / std per channel as ov_preprocess (params->mode and pad_value unused). */
ov_status ov_preprocess_warp(const ov_image *image, const double tensor_to_image[9], int border_replicate,
                             const ov_preprocess_params *params, float *out, size_t capacity);

/* ------------------------------------------------------------------ rectangles (OpenCV) */

typedef struct {
    /* Corners in pixels, top-left origin, in order: top-left, top-right, bottom-right, bottom-left
     * as seen in the image. */
    float x[4];
    float y[4];
    float confidence; /* 0...1 */
} ov_quad;

typedef struct {
    float minimum_aspect_ratio;   /* shorter side / longer side, 0...1 */
    float maximum_aspect_ratio;   /* 0...1 */
    float quadrature_tolerance;   /* degrees each corner may deviate from 90 */
    float minimum_size;           /* shorter side / shorter image dimension, 0...1 */
    float minimum_confidence;     /* 0...1 */
    int detection_side;           /* longer side of the image candidates are found on (px); 0 = 640 */
} ov_rectangle_params;

/* Finds quadrilaterals in `image`, most confident first. Writes up to `capacity` into `out`
 * and the number found (which may exceed capacity) into *count. */
ov_status ov_detect_rectangles(const ov_image *image, const ov_rectangle_params *params,
                               ov_quad *out, int capacity, int *count);

/* ------------------------------------------------------------------ faces (dlib) */

typedef struct {
    float x, y, width, height; /* pixels, top-left origin */
    float confidence;          /* HOG detector score squashed to 0...1 */
    float raw_score;           /* dlib's detection score */
} ov_face_box;

/* HOG frontal face detector (dlib). upsample: 0 or more pyramid up-samplings (1 finds ~40 px faces).
 * Thread-safe (each thread uses its own detector). */
ov_status ov_detect_faces(const ov_image *image, int upsample, ov_face_box *out, int capacity,
                          int *count);

/* A loaded 68-point shape predictor. Thread-safe to use from many threads. */
typedef struct ov_shape_predictor ov_shape_predictor;

ov_status ov_shape_predictor_load(const char *path, ov_shape_predictor **out);
void ov_shape_predictor_free(ov_shape_predictor *predictor);
/* Number of parts the model predicts (68 for dlib's standard model). */
int ov_shape_predictor_parts(const ov_shape_predictor *predictor);

/* Predicts landmarks for the face box (pixels, top-left origin). Writes parts * 2 floats
 * (x0, y0, x1, y1, ...) in pixels, top-left origin, into xy (capacity in floats). */
ov_status ov_predict_landmarks(const ov_shape_predictor *predictor, const ov_image *image,
                               float x, float y, float width, float height, float *xy, int capacity);

/* ------------------------------------------------------------------ text (Tesseract) */

/* An OCR engine for one language set. Not thread-safe: use one per thread (the Swift layer pools). */
typedef struct ov_ocr ov_ocr;

/* datapath: folder holding <lang>.traineddata, or NULL for Tesseract's default.
 * languages: "eng" or "eng+deu". Fails with OV_ERR_UNSUPPORTED naming the missing language. */
ov_status ov_ocr_create(const char *datapath, const char *languages, ov_ocr **out);
void ov_ocr_free(ov_ocr *ocr);

/* Languages installed in datapath (NULL = default), '+'-separated. Free with ov_free. */
ov_status ov_ocr_available_languages(const char *datapath, char **out);

typedef enum { OV_TEXT_LINE = 0, OV_TEXT_WORD = 1, OV_TEXT_SYMBOL = 2 } ov_text_level;

typedef struct {
    int level;        /* ov_text_level */
    int parent;       /* index of the enclosing line (for words) or word (for symbols); -1 for lines */
    int x, y, width, height; /* pixels, top-left origin */
    float confidence; /* 0...1 */
    int text_offset;  /* byte range of this item's UTF-8 text in the result text buffer */
    int text_length;
} ov_text_item;

typedef struct ov_text_result ov_text_result;

/* Recognises text. minimum_text_height: lines whose box is shorter (pixels) are dropped (0 = keep all).
 * detect_orientation: find a page turned 90°, 180° or 270° and read it upright (boxes stay in the image's
 * coordinates; ov_text_result_orientation says how it was turned). Items are in reading order: each line,
 * then its words, each word then its symbols. */
ov_status ov_ocr_recognize(ov_ocr *ocr, const ov_image *image, int minimum_text_height, int detect_orientation,
                           ov_text_result **out);
/* Degrees (0, 90, 180, 270) the text of the page was found turned clockwise; 0 when not detected. */
int ov_text_result_orientation(const ov_text_result *result);
int ov_text_result_count(const ov_text_result *result);
const ov_text_item *ov_text_result_items(const ov_text_result *result);
const char *ov_text_result_text(const ov_text_result *result); /* UTF-8 buffer the items point into */
void ov_text_result_free(ov_text_result *result);

/* zxing-cpp (ov_zxing.cpp): the text of `barcode` (a `const ZXing_Barcode *` of zxing-cpp's C API) in the text
 * mode it was read with, with its length in bytes: it may hold NUL characters, which ZXing_Barcode_text's C
 * string cannot. UTF-8, NUL-terminated after `length` bytes; free *out with ov_free. */
ov_status ov_zxing_barcode_text(const void *barcode, char **out, size_t *length);

#ifdef __cplusplus
}
#endif

#endif /* OV_NATIVE_H */
