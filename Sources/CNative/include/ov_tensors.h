/*
 * ov_tensors.h: a list of named float32 tensors, the outputs every inference backend returns
 * (ONNX Runtime, ov_onnxruntime.h; OpenCV DNN, ov_dnn.h). Owned by the caller, freed with
 * ov_tensors_free. Implemented in ov_tensor.cpp.
 */
#ifndef OV_TENSORS_H
#define OV_TENSORS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ov_tensors ov_tensors;

/* Number of tensors; 0 for NULL. */
int ov_tensors_count(const ov_tensors *t);
/* Borrowed data of tensor `index` (valid until ov_tensors_free), with its rank, shape (borrowed,
 * `rank` values) and element count. Any of rank/shape/element_count may be NULL. Returns NULL
 * (and rank 0, count 0) for a bad index; may also return NULL for a tensor with 0 elements. */
const float *ov_tensors_data(const ov_tensors *t, int index, int *rank, const int64_t **shape,
                             size_t *element_count);
/* Borrowed name of tensor `index` ("" for a bad index). */
const char *ov_tensors_name(const ov_tensors *t, int index);
void ov_tensors_free(ov_tensors *t);

#ifdef __cplusplus
} /* extern "C" */

/* C++-only: lets backends (ONNX Runtime, OpenCV DNN) build an ov_tensors. extern "C++" keeps this
 * valid even if the header ends up inside someone's extern "C" block. */
extern "C++" {
#include <string>
#include <vector>

namespace ov {

struct TensorOut {
    std::string name;
    std::vector<int64_t> shape; /* empty = scalar */
    std::vector<float> data;    /* row-major; size must equal the product of shape */
};

/// Moves `tensors` into a new heap ov_tensors (free with ov_tensors_free); no data is copied.
/// Throws std::invalid_argument if a shape has a negative dimension or does not match its data size
/// (call it inside ov::guarded).
ov_tensors *make_tensors(std::vector<TensorOut> &&tensors);

}  // namespace ov
}  /* extern "C++" */
#endif /* __cplusplus */

#endif /* OV_TENSORS_H */
