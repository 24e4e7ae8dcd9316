/*
 * ov_status.h: the status every CNative function returns, the message of the last failure and ov_free
 * (the rules behind them: ov_native.h). Implemented in ov_image.cpp.
 */
#ifndef OV_STATUS_H
#define OV_STATUS_H

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
    OV_ERR_INTERNAL = 7,         /* an unexpected C++ exception, message says which */
    OV_ERR_CANCELLED = 8         /* stopped early: its ov_cancel flag was set */
} ov_status;

/* A flag long native work polls to stop early (text recognition): set from any thread, read with atomics.
 * Owned by the caller; the work holding its address must end before it is freed. */
typedef struct ov_cancel ov_cancel;
ov_cancel *ov_cancel_create(void); /* NULL when out of memory */
void ov_cancel_set(ov_cancel *flag);
int ov_cancel_is_set(const ov_cancel *flag); /* 0 for NULL */
void ov_cancel_free(ov_cancel *flag);

/* The message of the last failure on this thread ("" if none). Valid until the next call. */
const char *ov_last_error(void);

/* Frees a buffer returned by this library (encoded images, strings). NULL is fine. */
void ov_free(void *p);

#ifdef __cplusplus
}
#endif

#endif /* OV_STATUS_H */
