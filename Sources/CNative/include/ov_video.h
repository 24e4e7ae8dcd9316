/*
 * ov_video.h: video capture (files, network streams, V4L2 cameras), video file writing and V4L2
 * camera enumeration, on OpenCV's videoio (FFmpeg and V4L2 backends). Image sequences are read in
 * Swift (ImageSequence), not here.
 * Same rules as ov_native.h: every function returns an ov_status with ov_last_error() set on failure,
 * no C++ exception escapes, handles are freed with their *_free function.
 * A capture or writer handle may be used from one thread at a time (calls on one handle are
 * serialised internally, so concurrent use is safe but not parallel); distinct handles are independent.
 */
#ifndef OV_VIDEO_H
#define OV_VIDEO_H

#include "ov_image.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ capture */

typedef struct ov_capture ov_capture;

typedef enum {
    OV_CAPTURE_AUTO = 0,   /* device / "/dev/videoN" -> V4L2; anything else -> FFmpeg */
    OV_CAPTURE_FFMPEG = 1, /* files, rtsp://, http(s):// (MJPEG multipart, HLS .m3u8, progressive files), ... */
    OV_CAPTURE_V4L2 = 2    /* /dev/video* cameras */
} ov_capture_api;

/* Every field 0 (or fourcc "") = don't care; a NULL request = all don't care.
 * width/height/fps/fourcc apply to V4L2 cameras only: the nearest supported mode at least as large as
 * requested is chosen (the largest if none is), at the highest frame rate unless fps is given; see
 * ov_capture_get_info for what was granted. open_timeout_ms/read_timeout_ms apply to FFmpeg sources
 * (0 = OpenCV's default of 30 s each); read_timeout_ms also bounds V4L2 reads (0 = OpenCV's 10 s). */
typedef struct {
    int width, height;
    double fps;
    char fourcc[5];
    int open_timeout_ms;
    int read_timeout_ms;
} ov_capture_request;

/* url: a file path, rtsp://, http(s):// (MJPEG, HLS .m3u8, ...), or "/dev/videoN"; or url NULL and
 * device >= 0 for /dev/video<device>.
 * Errors: OV_ERR_IO for a missing file/device, an unreachable stream, a busy device
 * ("device busy"); OV_ERR_DECODE for a file that exists but holds no decodable video ("not a video: ...",
 * including an MP4 cut short before its index was written); OV_ERR_UNSUPPORTED for a V4L2 mode or
 * pixel format the camera / OpenCV cannot provide (the message lists the supported modes). */
ov_status ov_capture_open(const char *url, int device, ov_capture_api api, const ov_capture_request *request,
                          ov_capture **out);

/* Grabs and decodes the next frame into a new BGR ov_image (*out, free with ov_image_free).
 * *timestamp_ms (may be NULL): the stream position in ms (CAP_PROP_POS_MSEC) for files and streams that
 * carry timestamps; for cameras the time since the first frame (driver buffer timestamps); else -1.
 * OV_OK with *out NULL: clean end of stream (end of a file, including the last good
 * frame of a truncated file, or the end of a finite network stream); repeated calls keep returning it.
 * OV_ERR_IO: the source failed (live network stream dropped or ended, device unplugged, read timeout).
 * A later call tries again, but an FFmpeg network stream does not recover from a drop or a timeout
 * (its connection is closed): reopen the capture to reconnect. */
ov_status ov_capture_read(ov_capture *c, ov_image **out, double *timestamp_ms);

typedef struct {
    int width, height;  /* of the decoded frames */
    double fps;         /* 0 if unknown (also set to 0 after the first frame of a stream without timestamps,
                           e.g. HTTP MJPEG, whose FFmpeg rate is a placeholder) */
    int frame_count;    /* -1 unknown / live; from the container, so approximate for some formats */
    char fourcc[5];     /* codec: the container's tag ("mp4v", "avc1", "MJPG"), else the start of FFmpeg's codec
                           name ("mpeg", "H264"); the pixel format for V4L2 ("YUYV"); "" if unknown */
    char backend[32];   /* "FFMPEG", "V4L2" */
    int ended_early;    /* files: 1 once reading reached the end before the end the container promises (fewer
                           frames than frame_count, or a packet cut short): the file is truncated or damaged and
                           the frames read are all it had that decodes; 0 otherwise and until the end */
} ov_capture_info;

ov_status ov_capture_get_info(const ov_capture *c, ov_capture_info *out);

void ov_capture_free(ov_capture *c);

/* ------------------------------------------------------------------ writer */

typedef struct ov_video_writer ov_video_writer;

/* Writes a video file through FFmpeg; the container follows the extension: .mp4/.m4v/.mov -> 'mp4v',
 * .avi -> 'MJPG', .mkv -> 'mp4v' (else 'XVID'), .webm -> 'VP80' (else 'VP90'). fourcc NULL or "" = that
 * default. OV_ERR_UNSUPPORTED for an unknown extension or a codec the container / FFmpeg build cannot
 * write; OV_ERR_IO when the file cannot be created. Note: an .mp4 only becomes readable once
 * ov_video_writer_free has written its index. */
ov_status ov_video_writer_open(const char *path, const char *fourcc, double fps, int width, int height,
                               ov_video_writer **out);

/* Appends a frame; frames of another size are resized, luma-only frames are converted to colour. */
ov_status ov_video_writer_write(ov_video_writer *w, const ov_image *frame);

/* Finalises the file (writes the container index) and frees the writer. NULL is fine. */
void ov_video_writer_free(ov_video_writer *w);

/* ------------------------------------------------------------------ V4L2 cameras */

typedef struct {
    char path[64];   /* "/dev/video0" */
    char name[64];   /* card name, e.g. "HD Pro Webcam C920" */
    char driver[32]; /* e.g. "uvcvideo" */
    char bus[64];    /* e.g. "usb-0000:00:14.0-1" */
} ov_camera_device;

typedef struct {
    char fourcc[5];  /* pixel format, e.g. "YUYV", "MJPG" */
    int width, height;
    double fps;      /* 0 if the driver does not enumerate frame intervals */
} ov_camera_mode;

/* Video-capture-capable /dev/video* devices (metadata and output nodes are skipped), in numeric order.
 * Writes up to `capacity` entries (out may be NULL when capacity is 0) and sets *count to the number
 * found, which may exceed capacity. No /dev/video* at all: OV_OK with *count 0. */
ov_status ov_camera_list(ov_camera_device *out, int capacity, int *count);

/* The modes of one device (VIDIOC_ENUM_FMT / ENUM_FRAMESIZES / ENUM_FRAMEINTERVALS); stepwise ranges are
 * reported as their minimum, maximum and the common sizes between. Same capacity/count convention. */
ov_status ov_camera_modes(const char *path, ov_camera_mode *out, int capacity, int *count);

#ifdef __cplusplus
}
#endif

#endif /* OV_VIDEO_H */
