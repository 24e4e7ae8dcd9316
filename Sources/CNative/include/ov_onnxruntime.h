/*
 * ov_onnxruntime.h: ONNX Runtime backend (pure C). Sessions return their outputs as ov_tensors
 * (ov_tensors.h, the container every inference backend returns).
 *
 * ONNX Runtime is NOT linked at build time: ov_ort_load() dlopen()s the shared library shipped in
 * the PyPI `onnxruntime` wheel (onnxruntime/capi/libonnxruntime.so.<version>, exporting
 * OrtGetApiBase) and uses ORT's C API (API version OV_ORT_API_VERSION, i.e. ORT >= 1.14).
 * Conventions are those of ov_native.h: every function returning ov_status stores a message for
 * ov_last_error() on failure; handles are owned by the receiver and freed with *_free.
 * Implemented in ov_ort_loader.cpp, ov_ort_session.cpp and ov_ort_dtype.cpp.
 */
#ifndef OV_ONNXRUNTIME_H
#define OV_ONNXRUNTIME_H

#include <stddef.h>
#include <stdint.h>

#include "ov_image.h"
#include "ov_tensors.h"
#include "ov_limits.h"  /* ov_model_memory_limit(): what a model may allocate */

#ifdef __cplusplus
extern "C" {
#endif

/* The ORT C API version requested from the library (ORT 1.14+; newer libraries serve older versions). */
#define OV_ORT_API_VERSION 14
/* Largest rank reported in ov_tensor_info.shape and accepted by ov_ort_run. */
#define OV_TENSOR_MAX_RANK 8

/* Loads the ONNX Runtime library once per process (thread-safe) and creates the process-wide
 * OrtEnv (log level warning) and CPU memory info; nothing is ever unloaded.
 * library_path NULL: use $OPENVISION_ORT_LIBRARY (or succeed if a library is already loaded).
 * Calling again after a success is OV_OK when the path is NULL or names the same file (compared
 * after resolving symlinks), OV_ERR_UNSUPPORTED for another file. A failed load is not cached:
 * it can be retried with a corrected path.
 * Errors: OV_ERR_UNSUPPORTED with a message naming the path and the fix ("run scripts/setup or set
 * OPENVISION_ORT_LIBRARY") for: no path given and variable unset, a missing file, a file that is
 * not a loadable shared library, a library without OrtGetApiBase, an ORT too old for
 * OV_ORT_API_VERSION (the message gives the library's version); OV_ERR_INTERNAL if creating the
 * OrtEnv fails. */
ov_status ov_ort_load(const char *library_path);

/* The loaded library's version (e.g. "1.20.1"); "" before a successful load. Never NULL. */
const char *ov_ort_version(void);

typedef struct {
    int intra_op_threads;         /* threads inside one operator; 0 = the process-wide pool (one thread per physical core) */
    int inter_op_threads;         /* threads across operators; 0 = ORT default (only with intra_op_threads > 0) */
    int graph_optimization_level; /* 0 disable, 1 basic, 2 extended, 99 all */
} ov_ort_options;

typedef struct ov_ort_session ov_ort_session;

/* Creates a CPU session from an .onnx file. options NULL = {0, 0, 99}. Loads the library first
 * (as ov_ort_load(NULL)) if that has not happened yet.
 * Errors: OV_ERR_MODEL with ORT's message for a missing, corrupt or non-ONNX file;
 * OV_ERR_UNSUPPORTED when ORT reports NOT_IMPLEMENTED (e.g. an operator/opset it lacks) or the
 * library is not loadable; OV_ERR_INVALID_ARGUMENT for a bad option value. */
ov_status ov_ort_session_create(const char *model_path, const ov_ort_options *options,
                                ov_ort_session **out);
void ov_ort_session_free(ov_ort_session *session);

/* ---- Core ML custom layers (MLCustomLayer), implemented in ov_ort_custom.cpp. */

/* One tensor handed to a custom layer: float32 elements, row-major, in `shape`'s first `rank` dimensions. */
typedef struct {
    float *data;                        /* inputs: read only; outputs: NULL in phase 0, then to be filled */
    int64_t shape[OV_TENSOR_MAX_RANK];
    int rank;
} ov_custom_tensor;

/* The app's side of a custom layer node (attribute `index` = layer). Phase 0: `inputs` are given; fill each output's
 * rank (0...OV_TENSOR_MAX_RANK) and shape. Phase 1: the outputs are allocated with those shapes; compute them.
 * Returns 0, or non-zero with a NUL-terminated message (at most `capacity` bytes) in `message`: the run fails with
 * it. Called on the thread running the session, possibly from several runs at once. */
typedef int (*ov_ort_custom_layer_fn)(void *context, int64_t layer, int phase, const ov_custom_tensor *inputs,
                                      size_t input_count, ov_custom_tensor *outputs, size_t output_count,
                                      char *message, size_t capacity);

/* ov_ort_session_create for a graph with Core ML custom layers: nodes of operator `CustomLayer` in domain
 * "org.openvision.coreml" (float32 inputs and outputs, any number of each, int attribute `index`) run through `fn`,
 * passed `context` (which must outlive the session). Needs ONNX Runtime 1.16 or newer (custom op version 16).
 * Errors as ov_ort_session_create. */
ov_status ov_ort_session_create_custom(const char *model_path, const ov_ort_options *options,
                                       ov_ort_custom_layer_fn fn, void *context, ov_ort_session **out);

typedef struct {
    char name[128];   /* UTF-8, truncated (NUL-terminated) if longer */
    int element_type; /* ONNX TensorProto.DataType: 1 float, 2 uint8, 3 int8, 6 int32, 7 int64,
                         9 bool, 10 float16, 11 double, 16 bfloat16; 0 for a non-tensor (sequence, map) */
    int rank;         /* number of dimensions (may exceed OV_TENSOR_MAX_RANK); -1 for a non-tensor */
    int64_t shape[OV_TENSOR_MAX_RANK]; /* the first min(rank, 8) dimensions; -1 = dynamic */
} ov_tensor_info;

/* Counts; 0 for a NULL session. */
int ov_ort_input_count(const ov_ort_session *s);
int ov_ort_output_count(const ov_ort_session *s);
/* Information on input/output `index` (0-based; OV_ERR_INVALID_ARGUMENT when out of range). */
ov_status ov_ort_input_info(const ov_ort_session *s, int index, ov_tensor_info *out);
ov_status ov_ort_output_info(const ov_ort_session *s, int index, ov_tensor_info *out);

/* Model metadata for `key`, malloc'd (free with ov_free), or *value = NULL when absent.
 * The custom metadata_props map is searched first (e.g. Ultralytics' "names", "imgsz", "stride",
 * "task", and also its "description" / "version"); when the key is not there, the standard
 * fields answer to "producer_name", "graph_name", "description", "domain" and "model_version"
 * (an empty standard field, or an unset model_version, counts as absent). */
ov_status ov_ort_metadata(const ov_ort_session *s, const char *key, char **value);

/* Runs the model. input_count must equal ov_ort_input_count(s); inputs[i] holds the float32 data
 * of model input i (row-major), shapes[i] its ranks[i] dimensions (rank <= OV_TENSOR_MAX_RANK;
 * shapes[i] may be NULL for rank 0). Each shape must match the model's declared rank and fixed
 * dimensions (dynamic ones take any size >= 0); otherwise OV_ERR_INVALID_ARGUMENT before ORT runs.
 * float32 inputs are wrapped without copying (they must stay valid during the call; they are
 * never written); inputs the model declares as float16/double/int64/int32/uint8/int8 are
 * converted (integers rounded and clamped).
 * All outputs are returned as float32 (int64/int32/double/float16/bfloat16/uint8/bool/... converted;
 * float32 outputs are not copied: ov_tensors keeps ORT's buffer alive), in model output order.
 * Errors: OV_ERR_INVALID_ARGUMENT as above; OV_ERR_UNSUPPORTED for string or non-tensor
 * inputs/outputs; OV_ERR_INTERNAL with ORT's message when the run fails.
 * Thread-safe: concurrent runs on one session are allowed. */
ov_status ov_ort_run(ov_ort_session *s, int input_count, const float *const *inputs,
                     const int64_t *const *shapes, const int *ranks, ov_tensors **out);

/* Initializers the model lets callers override (ONNX graph inputs that also have an initializer, e.g. the
 * thresholds of a converted Core ML NMS pipeline): not counted among the inputs above. */
int ov_ort_overridable_count(const ov_ort_session *s);
ov_status ov_ort_overridable_info(const ov_ort_session *s, int index, ov_tensor_info *out);

/* ov_ort_run, also replacing the overridable initializers names[k] (each holding one value) by values[k]
 * (converted to the initializer's element type). Errors: OV_ERR_INVALID_ARGUMENT for a name that is not an
 * overridable initializer or one holding more than one value; otherwise as ov_ort_run. */
ov_status ov_ort_run_overriding(ov_ort_session *s, int input_count, const float *const *inputs,
                                const int64_t *const *shapes, const int *ranks, int override_count,
                                const char *const *names, const float *values, ov_tensors **out);

/* ---- Typed runs: inputs and outputs of any element type (Core ML's double, int64, string and dictionary
 * features), implemented in ov_ort_session.cpp. */

/* One model input for ov_ort_run_values: a tensor, or an ONNX-ML map (map_key_type set). */
typedef struct {
    const char *name;     /* the model input's name */
    int element_type;     /* ONNX TensorProto.DataType of the tensor (of a map: of its values): 1 float, 2 uint8,
                             3 int8, 6 int32, 7 int64, 8 string, 9 bool, 10 float16, 11 double */
    int rank;             /* tensors: dimensions in `shape`, 0...OV_TENSOR_MAX_RANK (maps: unused) */
    const int64_t *shape;
    const void *data;     /* `count` packed elements; strings: `count` const char * (UTF-8, NUL-terminated) */
    size_t count;         /* elements (must be the product of the shape), or a map's entries */
    int map_key_type;     /* 0 for a tensor; 7 (int64) or 8 (string) for a map whose keys are `keys` */
    const void *keys;     /* a map's `count` keys: int64_t values or const char * strings */
} ov_ort_value;

/* Named outputs of any element type, in model output order. Freed with ov_values_free. */
typedef struct ov_values ov_values;

/* Runs the model on `inputs`, one per model input, matched by name (any order), and optionally overridable
 * initializers by name (ov_ort_overridable_info; their shape as declared). Each tensor's element type must
 * be the model's (ONNX Runtime converts nothing) and its shape the model's rank and fixed dimensions; data is not
 * copied (it must stay valid during the call) except strings and map entries. Every output is returned with its own
 * element type (numeric, bool or string).
 * Errors: OV_ERR_INVALID_ARGUMENT for a missing, repeated or unknown input name, a shape or count that does not fit,
 * or a value ONNX Runtime refuses (its message says which); OV_ERR_UNSUPPORTED for a non-tensor output (a sequence
 * or map); OV_ERR_OUT_OF_MEMORY past the model memory limit; OV_ERR_INTERNAL with ORT's message when the run fails.
 * Thread-safe as ov_ort_run. */
ov_status ov_ort_run_values(ov_ort_session *s, int input_count, const ov_ort_value *inputs, ov_values **out);

/* Number of outputs; 0 for NULL. */
int ov_values_count(const ov_values *v);
/* Output `index`: borrowed name, element type (ONNX TensorProto.DataType), rank and shape (borrowed), element count,
 * and data: packed elements, or for strings `count` NUL-terminated UTF-8 strings (const char *const *) whose byte
 * lengths are in *lengths (strings may hold NULs). Any out-pointer may be NULL. Valid until ov_values_free.
 * OV_ERR_INVALID_ARGUMENT for a bad index. */
ov_status ov_values_get(const ov_values *v, int index, const char **name, int *element_type, int *rank,
                        const int64_t **shape, size_t *count, const void **data, const size_t **lengths);
void ov_values_free(ov_values *v);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* OV_ONNXRUNTIME_H */
