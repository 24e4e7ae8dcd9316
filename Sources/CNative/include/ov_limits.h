/*
 * ov_limits.h: the bound CNative puts on the memory a model may allocate (docs/model-limits.md).
 */
#ifndef OV_LIMITS_H
#define OV_LIMITS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The most bytes a model may allocate for its tensors: ONNX Runtime's CPU arena (shared by every session of the
 * process) is capped at it, OpenCV DNN runs whose layer outputs would sum past it are refused, and OpenVision
 * refuses at load an ONNX model whose static shapes fix a larger tensor. $OPENVISION_MODEL_MEMORY_LIMIT in bytes,
 * or with a K, M or G suffix (binary: 512M, 2G), from 64 MiB to 1 TiB; otherwise (unset, unreadable, out of
 * range) 4 GiB. Read once per process. */
size_t ov_model_memory_limit(void);

#ifdef __cplusplus
}
#endif

#endif /* OV_LIMITS_H */
