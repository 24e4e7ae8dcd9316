/*
 * ov_dnn.h: OpenCV DNN backend (pure C). Conventions of ov_native.h; outputs are ov_tensors
 * (ov_tensors.h).
 */
#ifndef OV_DNN_H
#define OV_DNN_H

#include "ov_native.h"
#include "ov_tensors.h"
#include "ov_limits.h"  /* ov_model_memory_limit(): what a model may allocate */

#ifdef __cplusplus
extern "C" {
#endif

/* A network loaded by OpenCV's DNN module. Runs are serialised internally (one at a time). */
typedef struct ov_dnn_net ov_dnn_net;

/* Loads model + optional config (Darknet: weights + .cfg; Caffe: .caffemodel + .prototxt; TF; ONNX).
 * threads > 0 sets OpenCV's (process-wide) thread count. Unreadable/corrupt => OV_ERR_MODEL. */
ov_status ov_dnn_load(const char *model, const char *config, int threads, ov_dnn_net **out);
void ov_dnn_free(ov_dnn_net *net);
int ov_dnn_output_count(const ov_dnn_net *net);
const char *ov_dnn_output_name(const ov_dnn_net *net, int index);
/* Runs one float32 input of the given shape; every unconnected output as float32 tensors. */
ov_status ov_dnn_run(ov_dnn_net *net, const float *input, const int64_t *shape, int rank, ov_tensors **out);

#ifdef __cplusplus
}
#endif

#endif /* OV_DNN_H */
