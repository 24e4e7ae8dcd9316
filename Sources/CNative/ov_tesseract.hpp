// Tesseract through its C API, loaded on first use. Never included by Swift.
//
// Why: libtesseract brings libarchive, libcurl, GnuTLS and more (about 13 MB of every process's
// start, for a request most runs never make). Like ONNX Runtime, it is dlopen'ed when the first
// OCR engine is made and called through the stable `extern "C"` functions of <tesseract/capi.h>,
// whose declarations (only, never their symbols) give the function-pointer types. CNative does not
// link libtesseract: calling a capi.h function directly is an undefined-reference error at link time.
#pragma once

#include "ov_lazy.hpp"

#include <tesseract/capi.h>

#include <cstdlib>
#include <memory>
#include <string>

namespace ov::tess {

/// The capi.h functions the OCR layer calls, looked up once (throws `Failure(OV_ERR_UNSUPPORTED)`
/// when libtesseract.so.5 or a function is missing).
struct Functions {
#define OV_TESS_FUNCTION(name) decltype(&::name) name;
    OV_TESS_FUNCTION(TessBaseAPICreate)
    OV_TESS_FUNCTION(TessBaseAPIDelete)
    OV_TESS_FUNCTION(TessBaseAPISetVariable)
    OV_TESS_FUNCTION(TessBaseAPIInit2)
    OV_TESS_FUNCTION(TessBaseAPISetPageSegMode)
    OV_TESS_FUNCTION(TessBaseAPISetImage)
    OV_TESS_FUNCTION(TessBaseAPISetSourceResolution)
    OV_TESS_FUNCTION(TessBaseAPIRecognize)
    OV_TESS_FUNCTION(TessBaseAPIGetIterator)
    OV_TESS_FUNCTION(TessBaseAPIClear)
    OV_TESS_FUNCTION(TessBaseAPIEnd)
    OV_TESS_FUNCTION(TessResultIteratorDelete)
    OV_TESS_FUNCTION(TessResultIteratorNext)
    OV_TESS_FUNCTION(TessResultIteratorGetUTF8Text)
    OV_TESS_FUNCTION(TessResultIteratorConfidence)
    OV_TESS_FUNCTION(TessResultIteratorGetPageIteratorConst)
    OV_TESS_FUNCTION(TessPageIteratorIsAtBeginningOf)
    OV_TESS_FUNCTION(TessPageIteratorBoundingBox)
    OV_TESS_FUNCTION(TessDeleteText)
    OV_TESS_FUNCTION(TessPageIteratorOrientation)
    OV_TESS_FUNCTION(TessMonitorCreate)
    OV_TESS_FUNCTION(TessMonitorDelete)
    OV_TESS_FUNCTION(TessMonitorSetCancelFunc)
    OV_TESS_FUNCTION(TessMonitorSetCancelThis)
    OV_TESS_FUNCTION(TessMonitorSetDeadlineMSecs)
#undef OV_TESS_FUNCTION
    /// Orientation and script detection (legacy engine, osd.traineddata), or null in a build without it.
    decltype(&::TessBaseAPIDetectOrientationScript) TessBaseAPIDetectOrientationScript = nullptr;
    /// libgomp's omp_set_max_active_levels from libtesseract's dependencies, or null (see ov_text.cpp).
    void (*ompSetMaxActiveLevels)(int) = nullptr;
    /// The left-to-right iteration below the C API's ResultIterator, called on the same object (ResultIterator derives
    /// from LTRResultIterator, from PageIterator; single inheritance, one address): tesseract::PageIterator::Next and
    /// ::IsAtBeginningOf and tesseract::LTRResultIterator::GetUTF8Text, looked up by their mangled names; null when
    /// the library does not export them (the C API's iteration is used then). See ov_text.cpp, "Iteration".
    bool (*leftToRightNext)(void *iterator, TessPageIteratorLevel level) = nullptr;
    bool (*leftToRightIsAtBeginningOf)(const void *iterator, TessPageIteratorLevel level) = nullptr;
    char *(*leftToRightText)(const void *iterator, TessPageIteratorLevel level) = nullptr;
    /// Whether all three are there.
    bool hasLeftToRightIteration() const { return leftToRightNext && leftToRightIsAtBeginningOf && leftToRightText; }

    /// The table, loaded on first call.
    static const Functions &get();
};

/// A ResultIterator over one recognition (owned; deleted with this object). With `leftToRight` (and the library's
/// symbols), it moves, tests and reads text as Tesseract's LTRResultIterator does, in the image's left-to-right order:
/// the C API's ResultIterator reorders each line for right-to-left scripts by restarting the page up to the current row
/// for every symbol and word, which is quadratic in the page's words (ov_text.cpp, "Iteration").
class ResultIterator {
public:
    explicit ResultIterator(TessResultIterator *it, bool leftToRight = false)
        : it_(it), leftToRight_(leftToRight && Functions::get().hasLeftToRightIteration()) {}
    ~ResultIterator() {
        if (it_) Functions::get().TessResultIteratorDelete(it_);
    }
    ResultIterator(const ResultIterator &) = delete;
    ResultIterator &operator=(const ResultIterator &) = delete;

    explicit operator bool() const { return it_ != nullptr; }
    /// The text at `level`, as Tesseract gives it (trailing newlines included).
    std::string text(TessPageIteratorLevel level) const {
        const auto &f = Functions::get();
        char *raw = leftToRight_ ? f.leftToRightText(it_, level) : f.TessResultIteratorGetUTF8Text(it_, level);
        std::string s = raw ? std::string(raw) : std::string();
        if (raw) f.TessDeleteText(raw);
        return s;
    }
    bool BoundingBox(TessPageIteratorLevel level, int *left, int *top, int *right, int *bottom) const {
        const auto &f = Functions::get();
        return f.TessPageIteratorBoundingBox(f.TessResultIteratorGetPageIteratorConst(it_), level, left, top, right, bottom);
    }
    float Confidence(TessPageIteratorLevel level) const { return Functions::get().TessResultIteratorConfidence(it_, level); }
    bool IsAtBeginningOf(TessPageIteratorLevel level) const {
        const auto &f = Functions::get();
        const TessPageIterator *page = f.TessResultIteratorGetPageIteratorConst(it_);
        return leftToRight_ ? f.leftToRightIsAtBeginningOf(page, level) : f.TessPageIteratorIsAtBeginningOf(page, level);
    }
    bool Next(TessPageIteratorLevel level) {
        const auto &f = Functions::get();
        return leftToRight_ ? f.leftToRightNext(it_, level) : f.TessResultIteratorNext(it_, level);
    }
    /// Which way the current block's text is turned (Tesseract's layout analysis finds vertical text).
    TessOrientation Orientation() const {
        const auto &f = Functions::get();
        TessOrientation orientation = tesseract::ORIENTATION_PAGE_UP;
        TessWritingDirection direction;
        TessTextlineOrder order;
        float deskew = 0;
        f.TessPageIteratorOrientation(const_cast<TessPageIterator *>(f.TessResultIteratorGetPageIteratorConst(it_)), &orientation,
                                      &direction, &order, &deskew);
        return orientation;
    }

private:
    TessResultIterator *it_;
    bool leftToRight_;
};

/// A TessBaseAPI made through the C API, with the members the OCR layer uses.
class API {
public:
    API() : handle_(Functions::get().TessBaseAPICreate()) {
        if (!handle_) throw std::bad_alloc();
    }
    ~API() { Functions::get().TessBaseAPIDelete(handle_); }
    API(const API &) = delete;
    API &operator=(const API &) = delete;

    bool SetVariable(const char *name, const char *value) { return Functions::get().TessBaseAPISetVariable(handle_, name, value); }
    int Init(const char *datapath, const char *language, TessOcrEngineMode mode) {
        return Functions::get().TessBaseAPIInit2(handle_, datapath, language, mode);
    }
    /// Whether every language of the engine is written left to right (its results are then iterated in the image's
    /// order; see GetIterator). True unless set otherwise.
    bool leftToRight() const { return leftToRight_; }
    void SetLeftToRight(bool leftToRight) { leftToRight_ = leftToRight; }
    void SetPageSegMode(TessPageSegMode mode) { Functions::get().TessBaseAPISetPageSegMode(handle_, mode); }
    void SetImage(const unsigned char *data, int width, int height, int bytesPerPixel, int bytesPerLine) {
        Functions::get().TessBaseAPISetImage(handle_, data, width, height, bytesPerPixel, bytesPerLine);
    }
    void SetSourceResolution(int ppi) { Functions::get().TessBaseAPISetSourceResolution(handle_, ppi); }
    int Recognize() { return Functions::get().TessBaseAPIRecognize(handle_, nullptr); }
    /// Recognition that stops when `cancel` returns true (asked once per word with `cancelThis`) or after
    /// `deadlineMilliseconds` (0: none): Tesseract's ETEXT_DESC monitor. Non-zero when it failed or stopped.
    int Recognize(TessCancelFunc cancel, void *cancelThis, int deadlineMilliseconds) {
        const auto &f = Functions::get();
        ETEXT_DESC *monitor = f.TessMonitorCreate();
        if (!monitor) throw std::bad_alloc();
        f.TessMonitorSetCancelFunc(monitor, cancel);
        f.TessMonitorSetCancelThis(monitor, cancelThis);
        if (deadlineMilliseconds > 0) f.TessMonitorSetDeadlineMSecs(monitor, deadlineMilliseconds);
        const int status = f.TessBaseAPIRecognize(handle_, monitor);
        f.TessMonitorDelete(monitor);
        return status;
    }
    /// OSD on the image set: how many degrees (0, 90, 180, 270) the text is turned clockwise, and the
    /// confidence; false when it cannot tell (too few characters) or the library has no OSD.
    bool DetectOrientation(int *degrees, float *confidence) {
        const auto &f = Functions::get();
        if (!f.TessBaseAPIDetectOrientationScript) return false;
        const char *script = nullptr;
        float scriptConfidence = 0;
        bool found = f.TessBaseAPIDetectOrientationScript(handle_, degrees, confidence, &script, &scriptConfidence);
        return found;
    }
    /// The results in reading order; `leftToRight` iterates in the image's order, without the right-to-left reordering
    /// (for languages written left to right only).
    ResultIterator GetIterator(bool leftToRight) {
        return ResultIterator(Functions::get().TessBaseAPIGetIterator(handle_), leftToRight);
    }
    void Clear() { Functions::get().TessBaseAPIClear(handle_); }
    void End() { Functions::get().TessBaseAPIEnd(handle_); }

private:
    TessBaseAPI *handle_;
    bool leftToRight_ = true;
};

}  // namespace ov::tess
