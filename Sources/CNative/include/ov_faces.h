/*
 * ov_faces.h: dlib face detection and landmarks (ov_faces.cpp). Conventions of ov_native.h (ov_status, ov_last_error(), *_free; pixels, top-left origin).
 */
#ifndef OV_FACES_H
#define OV_FACES_H

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* OV_FACES_H */
