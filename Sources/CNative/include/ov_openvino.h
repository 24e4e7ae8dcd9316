/*
 * ov_openvino.h: OpenVINO backend (pure C). Compiled models return their outputs as ov_tensors
 * (ov_tensors.h, the container every inference backend returns).
 *
 * OpenVINO is NOT linked at build time: ov_vino_load() dlopen()s the C API library shipped in the
 * PyPI `openvino` wheel (openvino/libs/libopenvino_c.so.<soversion>, installed by scripts/setup into
 * /usr/local/lib/openvision/openvino with the core, the CPU plugin and the ONNX frontend beside it)
 * and calls OpenVINO's C API, declared by hand (the wheel ships no headers). OpenVINO 2025.0 to
 * 2026.x are accepted (tested with 2026.4.0) when their element type numbering is 2026.4's (probed at
 * load: it changed between versions); anything else is refused with OV_ERR_UNSUPPORTED.
 * Conventions are those of ov_native.h: every function returning ov_status stores a message for
 * ov_last_error() on failure; handles are owned by the receiver and freed with *_free.
 * Implemented in ov_openvino.cpp.
 */
#ifndef OV_OPENVINO_H
#define OV_OPENVINO_H

#include <stddef.h>
#include <stdint.h>

#include "ov_onnxruntime.h" /* ov_tensor_info, OV_TENSOR_MAX_RANK */
#include "ov_tensors.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Loads the OpenVINO C API library once per process (thread-safe) and creates the process-wide
 * ov_core; nothing is ever unloaded. Calling again after a success is OV_OK when the path names the
 * same file (compared after resolving symlinks), OV_ERR_UNSUPPORTED for another file. A failed load
 * is not cached: it can be retried with a corrected path.
 * Errors: OV_ERR_UNSUPPORTED, with a message naming the path and the fix ("run scripts/setup or set
 * OPENVISION_OPENVINO_LIBRARY"), for a NULL or missing path, a file that is not a loadable shared
 * library, a library without OpenVINO's C API, or an OpenVINO version outside 2025.0...2026.x or whose
 * element type numbering is not 2026.4's;
 * OV_ERR_INTERNAL if creating the core fails. */
ov_status ov_vino_load(const char *library_path);

/* The loaded library's version (e.g. "2026.4.0-22959-..."); "" before a successful load. Never NULL. */
const char *ov_vino_version(void);

typedef struct ov_vino_model ov_vino_model;

/* Reads an .onnx file with OpenVINO's ONNX frontend and compiles it for the CPU with
 * INFERENCE_PRECISION_HINT f32 (never bf16/f16, whatever the CPU offers) and, when threads > 0,
 * INFERENCE_NUM_THREADS threads (0: OpenVINO's default, one per physical core). The library must be
 * loaded (ov_vino_load).
 * Errors: OV_ERR_UNSUPPORTED when the library is not loaded, or when OpenVINO refuses the graph (an
 * operator or element type it lacks: its message says which); OV_ERR_MODEL for a file it cannot read
 * (missing, corrupt, not ONNX); OV_ERR_INVALID_ARGUMENT for NULL arguments or threads < 0. */
ov_status ov_vino_model_create(const char *model_path, int threads, ov_vino_model **out);
void ov_vino_model_free(ov_vino_model *model);

/* Counts; 0 for NULL. */
int ov_vino_input_count(const ov_vino_model *m);
int ov_vino_output_count(const ov_vino_model *m);
/* Information on input/output `index` (0-based; OV_ERR_INVALID_ARGUMENT when out of range): its first name, its
 * ONNX element type (as ov_tensor_info says) and its shape, -1 for a dynamic dimension. */
ov_status ov_vino_input_info(const ov_vino_model *m, int index, ov_tensor_info *out);
ov_status ov_vino_output_info(const ov_vino_model *m, int index, ov_tensor_info *out);

/* Runs the model, as ov_ort_run: input_count must equal ov_vino_input_count(m); inputs[i] holds the float32
 * data of input i (row-major), shapes[i] its ranks[i] dimensions, which must match the model's rank and fixed
 * dimensions (else OV_ERR_INVALID_ARGUMENT before OpenVINO runs). float32 inputs are wrapped without copying;
 * inputs the model declares as f16/f64/i64/i32/u8/i8/bool are converted (integers rounded and clamped). Outputs
 * come back as float32 (other numeric types converted), in model output order.
 * Errors: OV_ERR_INVALID_ARGUMENT as above; OV_ERR_UNSUPPORTED for an element type it does not convert;
 * OV_ERR_INTERNAL with OpenVINO's message when the run fails.
 * Thread-safe: concurrent runs on one model are allowed (each takes an idle infer request, or creates one). */
ov_status ov_vino_run(ov_vino_model *m, int input_count, const float *const *inputs, const int64_t *const *shapes,
                      const int *ranks, ov_tensors **out);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* OV_OPENVINO_H */
