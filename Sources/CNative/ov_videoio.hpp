// cv::VideoCapture and cv::VideoWriter from libopencv_videoio, loaded on first use (see ov_lazy.hpp:
// the module brings FFmpeg and GStreamer, 243 shared libraries, ~145 ms of every process start).
//
// Objects are constructed by the module's own constructors (looked up by symbol) in storage owned
// here, and destroyed through their virtual destructors. Every member we call on them is virtual
// (open, isOpened, read, grab, get, set, write, release), so calls go through the vtable the
// module's constructor set, with no link-time symbol; the two non-virtual members we need
// (getBackendName, VideoWriter::open with an API preference) and the static waitAny are looked up.
// Never copy or declare a cv::VideoCapture / cv::VideoWriter by value: that needs the module's
// symbols at link time, and the link fails (loudly) because CNative does not link the module.
#pragma once

#include "ov_lazy.hpp"

#include <opencv2/core.hpp>
#include <opencv2/videoio.hpp>  // declarations and constants only; the module is not linked

#include <cstdint>
#include <new>
#include <string>
#include <vector>

namespace ov::videoio {

/// Storage for one `T` (cv::VideoCapture or cv::VideoWriter) built by the module's default constructor.
template <typename T>
class Object {
public:
    Object() {
        using Ctor = void (*)(T *);
        construct<Ctor>()(get());
    }
    ~Object() { get()->~T(); }  // virtual: the module's destructor
    Object(const Object &) = delete;
    Object &operator=(const Object &) = delete;

    T *operator->() { return get(); }
    const T *operator->() const { return get(); }
    T &operator*() { return *get(); }

protected:
    T *get() { return std::launder(reinterpret_cast<T *>(storage_)); }
    const T *get() const { return std::launder(reinterpret_cast<const T *>(storage_)); }

private:
    template <typename Ctor>
    static Ctor construct();
    alignas(T) unsigned char storage_[sizeof(T)];
};

template <>
template <typename Ctor>
inline Ctor Object<cv::VideoCapture>::construct() {
    static const Ctor fn = lazy::function<Ctor>("videoio", "_ZN2cv12VideoCaptureC1Ev");
    return fn;
}

template <>
template <typename Ctor>
inline Ctor Object<cv::VideoWriter>::construct() {
    static const Ctor fn = lazy::function<Ctor>("videoio", "_ZN2cv11VideoWriterC1Ev");
    return fn;
}

/// A cv::VideoCapture made by the module.
class Capture : public Object<cv::VideoCapture> {
public:
    /// cv::VideoCapture::getBackendName() (not virtual).
    std::string backendName() const {
        using Fn = std::string (*)(const cv::VideoCapture *);
        static const Fn fn = lazy::function<Fn>("videoio", "_ZNK2cv12VideoCapture14getBackendNameB5cxx11Ev");
        return fn(get());
    }

    /// cv::VideoCapture::waitAny on this capture alone: true when a frame is ready within `timeoutNs`.
    /// waitAny only reads its vector; building a real std::vector<VideoCapture> would copy and destroy
    /// VideoCapture objects here (module symbols), so a vector view of this one object is passed
    /// (libstdc++'s vector is three pointers: begin, end, end of storage).
    bool waitReady(int64_t timeoutNs) {
        using Fn = bool (*)(const std::vector<cv::VideoCapture> &, std::vector<int> &, int64_t);
        static const Fn fn = lazy::function<Fn>("videoio", "_ZN2cv12VideoCapture7waitAnyERKSt6vectorIS0_SaIS0_EERS1_IiSaIiEEl");
        struct View { cv::VideoCapture *begin, *end, *capacity; };
        static_assert(sizeof(View) == sizeof(std::vector<cv::VideoCapture>), "libstdc++ vector layout");
        View view{get(), get() + 1, get() + 1};
        std::vector<int> ready;
        return fn(*reinterpret_cast<const std::vector<cv::VideoCapture> *>(&view), ready, timeoutNs) && !ready.empty();
    }
};

/// A cv::VideoWriter made by the module.
class Writer : public Object<cv::VideoWriter> {
public:
    /// cv::VideoWriter::open(filename, apiPreference, fourcc, fps, size, params) (not virtual).
    bool open(const std::string &file, int api, int fourcc, double fps, const cv::Size &size, const std::vector<int> &params) {
        using Fn = bool (*)(cv::VideoWriter *, const std::string &, int, int, double, const cv::Size &, const std::vector<int> &);
        static const Fn fn = lazy::function<Fn>(
            "videoio", "_ZN2cv11VideoWriter4openERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEiidRKNS_5Size_IiEERKSt6vectorIiSaIiEE");
        return fn(get(), file, api, fourcc, fps, size, params);
    }
};

}  // namespace ov::videoio
