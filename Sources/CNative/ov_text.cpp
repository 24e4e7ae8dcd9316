// Text recognition: Tesseract 5 (LSTM engine) through its C++ API.
//
// Choices (measured on synthetic scenes: poster, settings UI, gift card, document page, label on a
// busy background, dark-mode UI, shadowed receipt, low-contrast text, big bold glyphs, page on a
// dark table, and on textured noise; see the module's report):
//   - Engine: OEM_LSTM_ONLY. Debian's eng.traineddata are the "fast" integer LSTM models.
//   - Page segmentation: PSM_AUTO (full layout analysis, no OSD). PSM_SPARSE_TEXT reads scattered
//     text about as well once the two fixes below are in, but it has no notion of picture regions:
//     on textured photo areas it returned 80-400 garbage lines and took 2-9 s on a 2000x1500
//     image, where PSM_AUTO returned 0-14 lines in 0.3-1.1 s. PSM_AUTO's reading order (columns)
//     is kept. Its weakness, joining text that merely shares a row ("Wi-Fi ... Connected"), is
//     undone by splitting lines at wide word gaps (kSplitGap), as Vision reports such items apart;
//     pieces of very different text sizes, which Tesseract read at one x-height and garbled
//     ("5 0% Oo F F" for "50% OFF"), are read again from a crop around each piece.
//   - Boxed text (second pass): text inside a solid box of the other polarity (white on a dark
//     button/banner/box, a white label on a busy background) is often lost, since segmentation sees
//     one big blob. Such boxes are found from the page's Otsu mask (solid, line-sized, not most of
//     the page, with some content inside, not already covered by first-pass lines); each is read on
//     its own as dark-on-light, and its confident lines replace weaker overlapping first-pass lines.
//     At most kMaximumBoxes; pages without such boxes cost nothing extra. -DOV_OCR_BOXED_TEXT=0
//     disables it.
//   - Polarity: a mostly dark page (dark mode) is inverted before reading.
//   - Thresholding: Tesseract's default (global Otsu). Sauvola (thresholding_method=2) did no better
//     overall: it read one more grey line but lost a low-contrast line and added noise lines.
//   - Resolution: camera and screen images carry no trustworthy DPI. We pass 70 dpi, Tesseract's own
//     "unknown" value (kMinCredibleResolution): at exactly that value its page segmenter estimates
//     the resolution from the text size, as the `tesseract` CLI does for a PNG without DPI, and
//     nothing is printed.
//   - Tesseract's diagnostics (tprintf) go to the process-wide parameter "debug_file"; it is set to
//     /dev/null once per process so the library does not write to stderr.
//   - Threads: Tesseract's OpenMP parallel loops are kept on the calling thread (see
//     keepOpenMPOnCallingThread; 4-6x faster on a busy 2-core machine).
//   - Pixels: the cached gray image is handed to SetImage as is (Tesseract copies it into its own
//     Leptonica image); only inverted pages and boxes are copied here.
//   - Iteration: one ResultIterator pass over symbols; IsAtBeginningOf(RIL_TEXTLINE / RIL_WORD)
//     opens a new line / word, so items come out as line, its words, each word's symbols. For languages
//     written left to right, the pass moves, tests and reads text as Tesseract's LTRResultIterator does
//     (ov_tesseract.hpp): the C API's ResultIterator reorders lines for right-to-left scripts, and to do so
//     restarts the page up to the current row (PAGE_RES_IT::restart_row walks from the page's first word)
//     in IsAtBeginningOf(RIL_TEXTLINE), in Next at each word's end and in each line's text, which is
//     quadratic in the page's words: on a 2480 x 3508 page of 9-px random words (33,600 words) the
//     iteration took minutes, 97 % of the read in a profile. With right-to-left languages the C API's
//     iterator stays, and a line start is tested only at word starts. Tesseract's own paragraph detection,
//     run inside Recognize, reads every line's text through that iterator when it runs after recognition
//     (paragraph_text_based, its default): it runs on the layout before recognition instead (OpenVision
//     reports lines, words and symbols, not paragraphs; the lines and words come out the same).
//   - Page orientation (detect_orientation): a page turned 90°, 180° or 270° (a scan fed upside down, a
//     phone held sideways). The page is read as given first; when its words are confident (character-weighted
//     mean ≥ kConfidentPage) that read stands, and its orientation is the one its lines run in (Tesseract reads
//     text turned 90° clockwise itself, top to bottom: the way the symbols of each line advance, or the
//     block's orientation when layout analysis reports one; weighted by length). Otherwise Tesseract's OSD
//     (osd.traineddata, the legacy classifier, a second engine made on first use) says how the text is
//     turned; the page turned upright is read again and kept if its words are more confident, with its boxes
//     mapped back to the input. Upright pages that read well cost nothing extra; OSD and the second read are
//     paid only where the first read failed (measured on Tesseract's phototest: confidence 0.96 upright or
//     turned right, 0.36 turned left or upside down). When OSD cannot tell (a single line has too few characters
//     for it: the .accurate tests' one-line scenes turned 180° read at CER 0.82-0.92) or its turn does not read
//     confidently, and the page as given read some text poorly, the other turns are read in turn (180°, 90°,
//     270°) until one is confident, and the most confident read is kept; a page where no word was read costs
//     nothing more. Without
//     osd.traineddata pages are read as given.
//   - The cost of that search is bounded (a 1.7 MB page of 9-px random letters, which reads poorly every way,
//     took 70 s as given and 211 s with the turns): on a page of more than kSamplePixels, OSD and the turns read
//     its central kSamplePixels only, and the whole page is read again in the best turn only when that sample
//     read confidently or clearly (kClearlyBetter) better than the same sample as given; the turns also stop
//     once they have taken three times the first read and 5 s (Tesseract's cancel callback stops a read), counted
//     in the calling thread's CPU time (Tesseract's work runs there, see keepOpenMPOnCallingThread), not on the
//     wall clock: on a loaded machine a wall-clock bound stopped the search part-way and a page turned 180° was
//     read upside down (TextBudgetTests.aLargeTurnedPageIsStillFound with the process paused for 12 s).
//   - Cancellation (ov_cancel): every recognition asks the flag once per word (Tesseract's ETEXT_DESC cancel
//     callback) and stops when it is set: OV_ERR_CANCELLED. Layout analysis and OSD are not interrupted.
#include "ov_internal.hpp"

#include "ov_tesseract.hpp"  // Tesseract via its C API, loaded on first use

#include <opencv2/imgproc.hpp>

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>
#include <time.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

struct ov_ocr {
    ov::tess::API api;
    std::string datapath;   // folder actually used, with trailing '/'
    std::string languages;  // as passed to Init
    /// Orientation and script detection (osd.traineddata), made on first use; null while unused or unavailable.
    std::unique_ptr<ov::tess::API> osd;
    bool osdUnavailable = false;
};

struct ov_text_result {
    std::vector<ov_text_item> items;
    std::string text;  // UTF-8; items index into it
    int orientation = 0;  // degrees the page's text is turned clockwise: 0, 90, 180, 270
};

namespace {

// Debian's compiled-in default (TESSDATA_PREFIX "/tessdata/" in libtesseract's ccutil.cpp).
#ifndef OV_TESSDATA_DEFAULT
#define OV_TESSDATA_DEFAULT "/usr/share/tesseract-ocr/5/tessdata/"
#endif

#ifndef OV_OCR_BOXED_TEXT
#define OV_OCR_BOXED_TEXT 1
#endif

// Images smaller than this (either side) have no readable text; Tesseract would only complain.
constexpr int kMinimumSide = 3;
// Boxed-region pass: a box must be at least this many pixels on its shorter side, ...
constexpr int kMinimumBoxSide = 12;
// ... cover at most this fraction of the image, ...
constexpr double kMaximumBoxFraction = 0.6;
// ... be solid (its outline fills at least this much of its minimum-area rectangle), ...
constexpr double kMinimumBoxFill = 0.8;
// ... and have between these fractions of its area in the other polarity (text, not empty/noise).
constexpr double kMinimumBoxContent = 0.02;
constexpr double kMaximumBoxContent = 0.5;
// A box whose content lies this much (or more) outside first-pass lines is read again.
constexpr double kMaximumUnreadContent = 0.1;
// At most this many boxes are read, largest first.
constexpr size_t kMaximumBoxes = 8;
// Lines found in a box below this confidence are dropped (textures, not text).
constexpr float kMinimumRegionLineConfidence = 0.5f;

// Lines are split where two words are further apart than this many times the taller one's height.
constexpr double kSplitGap = 2.0;
// ... and its pieces are read again on their own if their heights differ by more than this factor.
constexpr double kMixedSizeRatio = 1.4;

// Tesseract's value meaning "resolution unknown, estimate it from the text size".
constexpr int kUnknownResolution = 70;

// A first read whose words are this confident (character-weighted mean) is kept without asking OSD.
constexpr double kConfidentPage = 0.75;

// Orientation detection on larger pages looks at a central crop of this many pixels (1024 × 1024).
constexpr long kSamplePixels = 1024L * 1024L;
// ... and reads the whole page turned only when the turned sample reads this much better than the sample as given.
constexpr double kClearlyBetter = 0.15;

// The limits of the recognition running on this thread (ov_ocr_recognize sets them for its call): the caller's
// cancel flag and, while orientation detection reads turned pages, a deadline. `cancelled` / `timedOut` say which
// stopped a read.
// The calling thread's CPU time: what the turn search's bound counts (load on the machine does not spend it).
std::chrono::nanoseconds threadCPUTime() {
    timespec now{};
    if (::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) != 0) return std::chrono::nanoseconds(0);
    return std::chrono::seconds(now.tv_sec) + std::chrono::nanoseconds(now.tv_nsec);
}

struct ReadLimits {
    const ov_cancel *cancel = nullptr;
    bool hasDeadline = false;
    std::chrono::nanoseconds deadline{0};  // in threadCPUTime()
    bool cancelled = false;
    bool timedOut = false;

    bool stopped() const { return cancelled || timedOut; }
};
thread_local ReadLimits *currentLimits = nullptr;

// Tesseract's cancel callback (asked once per word): true stops the recognition.
bool readShouldStop(void *context, int) {
    auto *limits = static_cast<ReadLimits *>(context);
    if (ov_cancel_is_set(limits->cancel)) limits->cancelled = true;
    if (limits->hasDeadline && threadCPUTime() > limits->deadline) limits->timedOut = true;
    return limits->stopped();
}

bool isDirectory(const std::string &path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool isRegularFile(const std::string &path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

std::string withSlash(std::string path) {
    if (path.empty()) path = "./";
    if (path.back() != '/') path += '/';
    return path;
}

std::string withoutSlash(std::string path) {
    while (path.size() > 1 && path.back() == '/') path.pop_back();
    return path;
}

// The folder TessBaseAPI::Init uses for `datapath` (mirrors CCUtil::main_setup in Tesseract 5).
std::string resolveDatapath(const char *datapath) {
    if (datapath && *datapath) return withSlash(datapath);
    const char *prefix = std::getenv("TESSDATA_PREFIX");
    struct stat st {};
    if (prefix && *prefix && ::stat(prefix, &st) == 0) return withSlash(prefix);  // Tesseract ignores it if missing
    return OV_TESSDATA_DEFAULT;
}

bool endsWith(const std::string &s, const char *suffix) {
    size_t n = std::strlen(suffix);
    return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

// Installed language names in `dir` (with trailing '/'), sorted; "script/Latin"-style entries from
// the script/ subfolder are included. osd (orientation and script detection) is not a language.
std::vector<std::string> installedLanguages(const std::string &dir, bool includeOsd) {
    std::vector<std::string> names;
    auto scan = [&](const std::string &folder, const std::string &prefix) {
        DIR *d = ::opendir(folder.c_str());
        if (!d) return;
        while (dirent *e = ::readdir(d)) {
            std::string name = e->d_name;
            if (!endsWith(name, ".traineddata") || name.size() == std::strlen(".traineddata")) continue;
            if (!isRegularFile(folder + name)) continue;
            name.resize(name.size() - std::strlen(".traineddata"));
            if (!includeOsd && prefix.empty() && name == "osd") continue;
            names.push_back(prefix + name);
        }
        ::closedir(d);
    };
    scan(dir, "");
    scan(dir + "script/", "script/");
    std::sort(names.begin(), names.end());
    return names;
}

// Whether a Tesseract language (as splitLanguages gives it) is written right to left: Arabic, Persian, Urdu, Pashto,
// Sindhi, Uyghur, Hebrew, Yiddish, Syriac, Dhivehi, and their script models ("script/Arabic").
bool isRightToLeft(const std::string &name) {
    static const char *const rtl[] = {"ara", "fas", "urd", "pus", "snd", "uig", "heb", "yid", "syr", "div",
                                      "Arabic", "Hebrew", "Syriac", "Thaana"};
    const size_t slash = name.rfind('/');
    const std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
    return std::any_of(std::begin(rtl), std::end(rtl), [&](const char *code) { return base == code; });
}

std::string join(const std::vector<std::string> &parts, const char *separator) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i) out += separator;
        out += parts[i];
    }
    return out;
}

// Splits "eng+deu" and validates each name: letters, digits, '_', '-', and '/' between
// non-empty components (for "script/Latin"). Returns false with a message on bad input.
bool splitLanguages(const std::string &languages, std::vector<std::string> &out, std::string &error) {
    if (languages.empty()) {
        error = "no OCR language given";
        return false;
    }
    size_t start = 0;
    while (true) {
        size_t plus = languages.find('+', start);
        std::string name = languages.substr(start, plus == std::string::npos ? std::string::npos : plus - start);
        bool valid = !name.empty() && name.front() != '/' && name.back() != '/' &&
                     name.find("//") == std::string::npos;
        for (char c : name)
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '/')) valid = false;
        if (!valid) {
            error = "invalid OCR language list '" + languages + "' (expected names like \"eng\" or \"eng+deu\")";
            return false;
        }
        out.push_back(name);
        if (plus == std::string::npos) break;
        start = plus + 1;
    }
    return true;
}

// Debian/Ubuntu package that provides a language: tesseract-ocr-chi-sim for chi_sim.
std::string packageHint(const std::string &language) {
    if (language.rfind("script/", 0) == 0) return "the matching tesseract-ocr-script-* package";
    std::string package = "tesseract-ocr-";
    for (char c : language) package += c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return package;
}

// Points Tesseract's global diagnostic stream at /dev/null. debug_file is a process-wide parameter:
// set it once, before any engine runs, to avoid racing with tprintf on other threads.
void silenceTesseractOnce() {
    static std::once_flag once;
    std::call_once(once, [] {
        ov::tess::API api;  // any instance reaches the global parameter
        api.SetVariable("debug_file", "/dev/null");
    });
}

std::string utf8Text(const ov::tess::ResultIterator &it, tesseract::PageIteratorLevel level) {
    std::string s = it.text(level);
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ' || s.back() == '\t'))
        s.pop_back();
    return s;
}

bool isBlank(const std::string &s) {
    return std::all_of(s.begin(), s.end(), [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; });
}

// Keeps Tesseract's OpenMP loops on the calling thread. Debian's libtesseract is built with OpenMP
// and forks small parallel loops (num_threads 4/10) per LSTM step; engines are already used one per
// thread, and those threads' spinning and contention made recognition 4-6x slower here (a 640x120
// line: 60 ms vs 10 ms). Setting max-active-levels to 0 makes every parallel region run on the
// calling thread (in libgomp the setting belongs to the calling thread's data environment, so it
// is applied before each recognition). Looked up in libtesseract's dependencies (ov_tesseract.hpp); if
// the user set OMP_THREAD_LIMIT or OMP_NUM_THREADS, their choice is left alone.
void keepOpenMPOnCallingThread() {
    static const bool userChose = std::getenv("OMP_THREAD_LIMIT") || std::getenv("OMP_NUM_THREADS");
    if (userChose) return;
    if (auto setLevels = ov::tess::Functions::get().ompSetMaxActiveLevels) setLevels(0);
}

// Clears the engine's image and results on every exit path so that the next image starts clean.
struct ClearOnExit {
    ov::tess::API &api;
    ~ClearOnExit() { api.Clear(); }
};

// One recognised line with its words and symbols, coordinates already in image pixels. items[0]
// is the line; `parent` of the others indexes into items; text_offset/length index into `text`.
struct LineRecord {
    std::vector<ov_text_item> items;
    std::string text;
    bool reread = false;  // a piece of a split line whose text sizes differed: worth reading alone
    int orientation = 0;  // clockwise degrees of the line's block, as Tesseract's layout analysis found it
    cv::Rect box() const { return {items[0].x, items[0].y, items[0].width, items[0].height}; }
    float confidence() const { return items[0].confidence; }
};

// Splits a line where the gap between two words exceeds kSplitGap times the taller word's height:
// Tesseract's layout joins text that merely shares a row (a label and its value at the other end of
// a settings row, table cells), which Vision reports as separate observations. Appends the pieces
// (or the line itself) to `out`; a piece's text is its words joined by spaces, its confidence their mean.
void splitAtGaps(LineRecord &&line, int minimumHeight, std::vector<LineRecord> &out) {
    std::vector<size_t> words;  // indices of word items
    for (size_t i = 1; i < line.items.size(); ++i)
        if (line.items[i].level == OV_TEXT_WORD) words.push_back(i);
    std::vector<size_t> starts{0};  // positions in `words` where a piece starts
    for (size_t k = 1; k < words.size(); ++k) {
        const ov_text_item &a = line.items[words[k - 1]], &b = line.items[words[k]];
        if (b.x - (a.x + a.width) > kSplitGap * std::max(a.height, b.height)) starts.push_back(k);
    }
    if (starts.size() == 1) {
        out.push_back(std::move(line));
        return;
    }
    starts.push_back(words.size());
    // Tesseract normalises a line to one x-height; pieces of very different sizes were read badly.
    int tallest = 0, shortest = std::numeric_limits<int>::max();
    for (size_t g = 0; g + 1 < starts.size(); ++g) {
        int height = 0;
        for (size_t k = starts[g]; k < starts[g + 1]; ++k) height = std::max(height, line.items[words[k]].height);
        tallest = std::max(tallest, height);
        shortest = std::min(shortest, height);
    }
    bool mixedSizes = tallest > kMixedSizeRatio * shortest;
    auto textOf = [&](const ov_text_item &item) { return line.text.substr(item.text_offset, item.text_length); };
    for (size_t g = 0; g + 1 < starts.size(); ++g) {
        size_t firstWord = words[starts[g]];
        size_t end = starts[g + 1] < words.size() ? words[starts[g + 1]] : line.items.size();  // item range
        LineRecord piece;
        ov_text_item head = line.items[0];
        cv::Rect box;
        std::string text;
        float confidence = 0;
        for (size_t k = starts[g]; k < starts[g + 1]; ++k) {
            const ov_text_item &w = line.items[words[k]];
            cv::Rect r(w.x, w.y, w.width, w.height);
            box = k == starts[g] ? r : (box | r);
            if (!text.empty()) text += ' ';
            text += textOf(w);
            confidence += w.confidence;
        }
        if (minimumHeight > 0 && box.height < minimumHeight) continue;
        head.x = box.x;
        head.y = box.y;
        head.width = box.width;
        head.height = box.height;
        head.confidence = confidence / static_cast<float>(starts[g + 1] - starts[g]);
        head.text_offset = 0;
        head.text_length = static_cast<int>(text.size());
        piece.text = text;
        piece.reread = mixedSizes;
        piece.orientation = line.orientation;
        piece.items.push_back(head);
        int shift = static_cast<int>(firstWord) - 1;  // old index - shift = new index
        for (size_t i = firstWord; i < end; ++i) {
            ov_text_item item = line.items[i];
            item.parent = item.level == OV_TEXT_WORD ? 0 : item.parent - shift;
            std::string itemText = textOf(item);
            item.text_offset = static_cast<int>(piece.text.size());
            piece.text += itemText;
            piece.items.push_back(item);
        }
        out.push_back(std::move(piece));
    }
}

// Runs Tesseract on `gray` (8-bit, any stride) and appends its non-empty lines that are at least
// minimumHeight tall, shifted by `offset`. Returns false if Tesseract's Recognize failed.
bool recognisePass(ov::tess::API &api, const cv::Mat &gray, cv::Point offset, int minimumHeight,
                   std::vector<LineRecord> &output) {
    if (currentLimits && (currentLimits->stopped() || readShouldStop(currentLimits, 0))) return false;
    ClearOnExit clear{api};
    api.SetImage(gray.data, gray.cols, gray.rows, 1, static_cast<int>(gray.step[0]));
    api.SetSourceResolution(kUnknownResolution);
    if ((currentLimits ? api.Recognize(readShouldStop, currentLimits, 0) : api.Recognize()) != 0) return false;
    ov::tess::ResultIterator it = api.GetIterator(api.leftToRight());
    if (!it) return true;  // nothing found
    std::vector<LineRecord> lines;

    using tesseract::RIL_SYMBOL;
    using tesseract::RIL_TEXTLINE;
    using tesseract::RIL_WORD;
    LineRecord *line = nullptr;
    int word = -1;  // index of the current word in line->items, -1 while skipping
    auto add = [&](tesseract::PageIteratorLevel level, int kind, int parent, const std::string &s) -> int {
        ov_text_item item{};
        item.level = kind;
        item.parent = parent;
        int left = 0, top = 0, right = 0, bottom = 0;
        if (it.BoundingBox(level, &left, &top, &right, &bottom)) {
            item.x = left + offset.x;
            item.y = top + offset.y;
            item.width = std::max(0, right - left);
            item.height = std::max(0, bottom - top);
        }
        item.confidence = std::clamp(it.Confidence(level) / 100.0f, 0.0f, 1.0f);
        item.text_offset = static_cast<int>(line->text.size());
        item.text_length = static_cast<int>(s.size());
        line->text += s;
        line->items.push_back(item);
        return static_cast<int>(line->items.size()) - 1;
    };

    // One pass over every symbol in reading order; a line (word) starts when the iterator stands at
    // the first symbol of a line (word), so each line is followed by its words and each word by
    // its symbols.
    do {
        // A line starts at a word's start: the line test (costly on right-to-left pages) only there.
        const bool wordStart = it.IsAtBeginningOf(RIL_WORD);
        if (wordStart && it.IsAtBeginningOf(RIL_TEXTLINE)) {
            line = nullptr;
            word = -1;
            std::string lineText = utf8Text(it, RIL_TEXTLINE);
            int left = 0, top = 0, right = 0, bottom = 0;
            bool hasBox = it.BoundingBox(RIL_TEXTLINE, &left, &top, &right, &bottom);
            if (hasBox && !isBlank(lineText) && (minimumHeight <= 0 || bottom - top >= minimumHeight)) {
                lines.emplace_back();
                line = &lines.back();
                add(RIL_TEXTLINE, OV_TEXT_LINE, -1, lineText);
                line->orientation = 90 * static_cast<int>(it.Orientation());  // PAGE_UP, RIGHT, DOWN, LEFT
            }
        }
        if (!line) continue;
        if (wordStart) {
            std::string wordText = utf8Text(it, RIL_WORD);
            word = isBlank(wordText) ? -1 : add(RIL_WORD, OV_TEXT_WORD, 0, wordText);
        }
        if (word < 0) continue;
        std::string symbolText = utf8Text(it, RIL_SYMBOL);
        if (!isBlank(symbolText)) add(RIL_SYMBOL, OV_TEXT_SYMBOL, word, symbolText);
    } while (it.Next(RIL_SYMBOL));
    for (LineRecord &record : lines) splitAtGaps(std::move(record), minimumHeight, output);
    return true;
}

// Reads pieces of split mixed-size lines again from a crop around each piece (a view of `page`),
// keeping the new lines centred in the piece if they are more confident than the piece.
void rereadMixedPieces(ov::tess::API &api, const cv::Mat &page, int minimumHeight,
                       std::vector<LineRecord> &lines) {
    std::vector<LineRecord> result;
    result.reserve(lines.size());
    for (LineRecord &line : lines) {
        if (!line.reread) {
            result.push_back(std::move(line));
            continue;
        }
        cv::Rect box = line.box();
        int margin = std::max(4, box.height / 2);
        cv::Rect crop = cv::Rect(box.x - margin, box.y - margin, box.width + 2 * margin, box.height + 2 * margin) &
                        cv::Rect(0, 0, page.cols, page.rows);
        std::vector<LineRecord> again, kept;
        if (crop.width >= kMinimumSide && crop.height >= kMinimumSide &&
            recognisePass(api, page(crop), crop.tl(), minimumHeight, again)) {
            float confidence = 0;
            for (LineRecord &candidate : again) {
                cv::Rect b = candidate.box();
                if (!box.contains(cv::Point(b.x + b.width / 2, b.y + b.height / 2))) continue;
                confidence += candidate.confidence();
                kept.push_back(std::move(candidate));
            }
            if (!kept.empty() && confidence / static_cast<float>(kept.size()) > line.confidence()) {
                for (LineRecord &k : kept) result.push_back(std::move(k));
                continue;
            }
        }
        result.push_back(std::move(line));
    }
    lines = std::move(result);
}

#if OV_OCR_BOXED_TEXT
// Area of the intersection over the area of the smaller rectangle (0 if either is empty).
double overlapOfSmaller(const cv::Rect &a, const cv::Rect &b) {
    double smaller = std::min(a.area(), b.area());
    return smaller > 0 ? (a & b).area() / smaller : 0.0;
}

struct BoxedRegion {
    cv::Rect rect;                   // bounding box in the image
    std::vector<cv::Point> outline;  // relative to rect
    bool dark;                       // dark box with light text (read inverted), else light box on dark
    cv::Mat content;                 // rect-sized mask of its other-polarity pixels (the text)
    int contentCount;
};

// Solid boxes that hold text of the opposite polarity: outer contours of the Otsu-dark (and
// Otsu-light) mask that fill most of their minimum-area (possibly rotated) rectangle, are large
// enough to hold a line of text, have some content of the other polarity, and are not most of the
// image (the page itself). Glyphs, thin frames and empty boxes fail these tests. Largest first.
// `dark` is the page's Otsu mask (255 = dark).
std::vector<BoxedRegion> boxedRegions(const cv::Mat &dark, int minimumHeight) {
    const double imageArea = static_cast<double>(dark.cols) * dark.rows;
    const float minSide = static_cast<float>(std::max(kMinimumBoxSide, minimumHeight));
    std::vector<BoxedRegion> regions;
    for (bool darkBoxes : {true, false}) {
        cv::Mat mask = darkBoxes ? dark : ~dark;
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(mask, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
        for (auto &contour : contours) {
            cv::RotatedRect minRect = cv::minAreaRect(contour);
            if (std::min(minRect.size.width, minRect.size.height) < minSide) continue;
            double rectArea = static_cast<double>(minRect.size.area());
            if (rectArea > kMaximumBoxFraction * imageArea) continue;
            double outlineArea = cv::contourArea(contour);
            if (outlineArea < kMinimumBoxFill * rectArea) continue;
            cv::Rect box = cv::boundingRect(contour);
            cv::Mat inside(box.size(), CV_8UC1, cv::Scalar(0));
            for (auto &p : contour) p -= box.tl();
            cv::drawContours(inside, std::vector<std::vector<cv::Point>>{contour}, 0, cv::Scalar(255), cv::FILLED);
            cv::Mat content = inside & ~mask(box);  // other-polarity pixels inside the outline
            int count = cv::countNonZero(content);
            if (count < kMinimumBoxContent * outlineArea || count > kMaximumBoxContent * outlineArea) continue;
            regions.push_back({box, std::move(contour), darkBoxes, std::move(content), count});
        }
    }
    std::sort(regions.begin(), regions.end(),
              [](const BoxedRegion &a, const BoxedRegion &b) { return a.rect.area() > b.rect.area(); });
    if (regions.size() > kMaximumBoxes) regions.resize(kMaximumBoxes);
    return regions;
}

// The region as dark-on-light gray pixels, everything outside its outline painted with the
// box's own background level (the median inside the outline, as most of a box is background),
// so that Tesseract sees a plain two-level page rather than a box on a page.
cv::Mat regionPixels(const cv::Mat &gray, const BoxedRegion &region) {
    cv::Mat pixels;
    if (region.dark)
        cv::bitwise_not(gray(region.rect), pixels);
    else
        pixels = gray(region.rect).clone();
    cv::Mat inside(region.rect.size(), CV_8UC1, cv::Scalar(0));
    std::vector<std::vector<cv::Point>> outline{region.outline};
    cv::drawContours(inside, outline, 0, cv::Scalar(255), cv::FILLED);
    cv::drawContours(inside, outline, 0, cv::Scalar(0), 3);  // leave out the anti-aliased rim
    int histogram[256] = {0}, count = 0;
    for (int y = 0; y < pixels.rows; ++y) {
        const uint8_t *p = pixels.ptr<uint8_t>(y), *m = inside.ptr<uint8_t>(y);
        for (int x = 0; x < pixels.cols; ++x)
            if (m[x]) ++histogram[p[x]], ++count;
    }
    int background = 255;
    for (int v = 0, seen = 0; v < 256 && count > 0; ++v)
        if ((seen += histogram[v]) * 2 >= count) {
            background = v;
            break;
        }
    pixels.setTo(cv::Scalar(background), ~inside);
    return pixels;
}

// Whether the first pass already read this box: the box lies (mostly) inside one line (it is a
// bold glyph such as O, D or 0 of that line), or lines cover nearly all of its content (a page or
// card whose text was read; reading it again would only cost time).
bool alreadyRead(const BoxedRegion &region, const std::vector<LineRecord> &lines) {
    cv::Mat uncovered;
    for (const LineRecord &line : lines) {
        cv::Rect common = region.rect & line.box();
        if (common.area() >= 0.8 * region.rect.area()) return true;
        if (common.empty()) continue;
        if (uncovered.empty()) uncovered = region.content.clone();
        uncovered(common - region.rect.tl()).setTo(cv::Scalar(0));
    }
    return !uncovered.empty() && cv::countNonZero(uncovered) < kMaximumUnreadContent * region.contentCount;
}

// Adds region-pass lines: a line that overlaps first-pass lines replaces them if it is more confident
// than all of them, and is dropped otherwise. It goes before the first line that starts below it,
// keeping Tesseract's reading order for the rest.
void mergeRegionLines(std::vector<LineRecord> &lines, std::vector<LineRecord> &&regionLines) {
    for (LineRecord &candidate : regionLines) {
        if (candidate.confidence() < kMinimumRegionLineConfidence) continue;
        cv::Rect box = candidate.box();
        auto overlaps = [&](const LineRecord &line) { return overlapOfSmaller(box, line.box()) > 0.3; };
        bool better = std::none_of(lines.begin(), lines.end(), [&](const LineRecord &line) {
            return overlaps(line) && line.confidence() >= candidate.confidence();
        });
        if (!better) continue;
        lines.erase(std::remove_if(lines.begin(), lines.end(), overlaps), lines.end());
        auto below = std::find_if(lines.begin(), lines.end(), [&](const LineRecord &line) { return line.box().y > box.y; });
        lines.insert(below, std::move(candidate));
    }
}
#endif

// Reads one page (8-bit gray): polarity, the whole-page pass, mixed-size pieces again, boxed text. False if
// Tesseract's Recognize failed.
bool readPage(ov::tess::API &api, const cv::Mat &gray, int minimumHeight, std::vector<LineRecord> &lines) {
    // Otsu split of the page: decides its polarity and finds boxes of the other polarity.
    cv::Mat dark;
    cv::threshold(gray, dark, 0, 255, cv::THRESH_BINARY_INV | cv::THRESH_OTSU);
    cv::Mat page = gray;  // a view: Tesseract copies the pixels into its own Leptonica image
    if (cv::countNonZero(dark) * 2 > dark.rows * dark.cols) {
        // Mostly dark (dark mode, night sign): invert, as Tesseract's segmentation expects dark
        // text on a light page (it copes otherwise, but slower: the LSTM reads each line twice).
        // Into a new buffer: `page` shares the image's gray plane, which other requests read at the
        // same time (inverting it in place made contours on the same handler count 6943 instead of
        // 7332 on giraffe.jpg).
        cv::Mat inverted;
        cv::bitwise_not(gray, inverted);
        page = inverted;
        cv::bitwise_not(dark, dark);
    }
    // Pass 1: the whole page.
    if (!recognisePass(api, page, cv::Point(0, 0), minimumHeight, lines)) return false;
    rereadMixedPieces(api, page, minimumHeight, lines);
#if OV_OCR_BOXED_TEXT
    // Pass 2: text in solid boxes of the other polarity (white on a dark banner/button/box, or a
    // light label on a dark or busy background), which page segmentation takes for one big blob.
    // Each box is read on its own as dark-on-light; its lines replace overlapping pass-1 lines
    // only when they are more confident.
    for (const BoxedRegion &region : boxedRegions(dark, minimumHeight)) {
        if (alreadyRead(region, lines)) continue;
        cv::Mat pixels = regionPixels(page, region);
        std::vector<LineRecord> regionLines;
        if (!recognisePass(api, pixels, region.rect.tl(), minimumHeight, regionLines)) continue;
        mergeRegionLines(lines, std::move(regionLines));
    }
#endif
    return true;
}

// Whether any word was read.
bool anyWords(const std::vector<LineRecord> &lines) {
    for (const LineRecord &line : lines)
        for (const ov_text_item &item : line.items)
            if (item.level == OV_TEXT_WORD && item.text_length > 0) return true;
    return false;
}

// The words' confidence weighted by their length in bytes: how well a page read (0 without words).
double readQuality(const std::vector<LineRecord> &lines) {
    double sum = 0, weight = 0;
    for (const LineRecord &line : lines)
        for (const ov_text_item &item : line.items)
            if (item.level == OV_TEXT_WORD) {
                sum += static_cast<double>(item.confidence) * item.text_length;
                weight += item.text_length;
            }
    return weight > 0 ? sum / weight : 0;
}

// How a line read on the page as given runs: Tesseract's layout analysis for its block when it says so, else
// the way its symbols advance in reading order (Tesseract reads text turned 90° clockwise by itself, top to
// bottom, and reports its block as upright): down 90, up 270, right to left 180, else 0.
int lineOrientation(const LineRecord &line) {
    if (line.orientation != 0) return line.orientation;
    const ov_text_item *first = nullptr, *last = nullptr;
    for (const ov_text_item &item : line.items)
        if (item.level == OV_TEXT_SYMBOL) {
            if (!first) first = &item;
            last = &item;
        }
    if (!first || first == last) return 0;
    const double dx = (last->x + last->width / 2.0) - (first->x + first->width / 2.0);
    const double dy = (last->y + last->height / 2.0) - (first->y + first->height / 2.0);
    if (std::abs(dy) > std::abs(dx)) return dy > 0 ? 90 : 270;
    return dx < 0 ? 180 : 0;
}

// The orientation most of the text has (weighted by length), from its lines.
int layoutOrientation(const std::vector<LineRecord> &lines) {
    double weight[4] = {0, 0, 0, 0};
    for (const LineRecord &line : lines) weight[(lineOrientation(line) / 90) & 3] += static_cast<double>(line.text.size());
    return 90 * static_cast<int>(std::max_element(weight, weight + 4) - weight);
}

// OSD on `page`: the degrees its text is turned clockwise (0, 90, 180, 270); -1 when OSD cannot tell (too
// little text for its classifier, as on a single line) and 0 when it is not installed. The OSD engine is made
// on first use.
int detectOrientation(ov_ocr &ocr, const cv::Mat &page) {
    if (ocr.osdUnavailable) return 0;
    if (!ocr.osd) {
        if (!isRegularFile(ocr.datapath + "osd.traineddata") || !ov::tess::Functions::get().TessBaseAPIDetectOrientationScript) {
            ocr.osdUnavailable = true;
            return 0;
        }
        auto osd = std::make_unique<ov::tess::API>();
        if (osd->Init(ocr.datapath.c_str(), "osd", tesseract::OEM_TESSERACT_ONLY) != 0) {
            ocr.osdUnavailable = true;
            return 0;
        }
        osd->SetPageSegMode(tesseract::PSM_OSD_ONLY);
        ocr.osd = std::move(osd);
    }
    ClearOnExit clear{*ocr.osd};
    ocr.osd->SetImage(page.data, page.cols, page.rows, 1, static_cast<int>(page.step[0]));
    ocr.osd->SetSourceResolution(kUnknownResolution);
    int degrees = 0;
    float confidence = 0;
    if (!ocr.osd->DetectOrientation(&degrees, &confidence)) return -1;
    return (degrees % 360 + 360) % 360 / 90 * 90;
}

// Maps the items of lines read on the page turned upright (`uprightSize`) back onto the page as given, whose
// text is turned `degrees` clockwise: boxes stay axis-aligned (a quarter turn maps a box onto a box).
void mapFromUpright(std::vector<LineRecord> &lines, int degrees, cv::Size uprightSize) {
    const int W = uprightSize.width, H = uprightSize.height;
    for (LineRecord &line : lines) {
        line.orientation = (degrees + lineOrientation(line)) % 360;
        for (ov_text_item &item : line.items) {
            const int x0 = item.x, y0 = item.y, x1 = item.x + item.width, y1 = item.y + item.height;
            int nx0 = x0, ny0 = y0, nx1 = x1, ny1 = y1;  // the mapped box's corners, any order
            switch (degrees) {
                case 90: nx0 = H - y0; ny0 = x0; nx1 = H - y1; ny1 = x1; break;     // turn the upright page clockwise
                case 180: nx0 = W - x0; ny0 = H - y0; nx1 = W - x1; ny1 = H - y1; break;
                case 270: nx0 = y0; ny0 = W - x0; nx1 = y1; ny1 = W - x1; break;    // counter-clockwise
                default: break;
            }
            item.x = std::min(nx0, nx1);
            item.y = std::min(ny0, ny1);
            item.width = std::abs(nx1 - nx0);
            item.height = std::abs(ny1 - ny0);
        }
    }
}

// Concatenates the lines into the flat item array and text buffer.
void assemble(std::vector<LineRecord> &lines, ov_text_result &result) {
    size_t itemCount = 0, textSize = 0;
    for (const LineRecord &line : lines) {
        itemCount += line.items.size();
        textSize += line.text.size();
    }
    result.items.reserve(itemCount);
    result.text.reserve(textSize);
    for (LineRecord &line : lines) {
        int base = static_cast<int>(result.items.size());
        int textBase = static_cast<int>(result.text.size());
        for (ov_text_item item : line.items) {
            if (item.parent >= 0) item.parent += base;
            item.text_offset += textBase;
            result.items.push_back(item);
        }
        result.text += line.text;
    }
}

}  // namespace

extern "C" {

ov_status ov_ocr_create(const char *datapath, const char *languages, ov_ocr **out) {
    return ov::guarded("ov_ocr_create", [&]() -> ov_status {
        if (!out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no output handle");
        *out = nullptr;
        if (!languages) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no OCR language given");
        std::vector<std::string> names;
        std::string error;
        if (!splitLanguages(languages, names, error)) return ov::fail(OV_ERR_INVALID_ARGUMENT, error);

        std::string dir = resolveDatapath(datapath);
        if (!isDirectory(dir))
            return ov::fail(OV_ERR_MODEL, "Tesseract data folder " + withoutSlash(dir) + " does not exist");
        for (const std::string &name : names) {
            if (isRegularFile(dir + name + ".traineddata")) continue;
            std::vector<std::string> installed = installedLanguages(dir, true);
            return ov::fail(OV_ERR_UNSUPPORTED,
                            "Tesseract language '" + name + "' is not installed in " + withoutSlash(dir) +
                                " (installed: " + (installed.empty() ? std::string("none") : join(installed, ", ")) +
                                "); install " + packageHint(name));
        }

        silenceTesseractOnce();
        auto ocr = std::make_unique<ov_ocr>();
        ocr->datapath = dir;
        ocr->languages = languages;
        if (ocr->api.Init(dir.c_str(), languages, tesseract::OEM_LSTM_ONLY) != 0)
            return ov::fail(OV_ERR_MODEL, "Tesseract could not load '" + std::string(languages) + "' from " +
                                              withoutSlash(dir) +
                                              " (corrupt .traineddata, or a model without an LSTM network?)");
        ocr->api.SetPageSegMode(tesseract::PSM_AUTO);
        ocr->api.SetLeftToRight(std::none_of(names.begin(), names.end(), isRightToLeft));
        // Paragraphs from the layout before recognition, not from the text after it (see "Iteration" above): the
        // text-based pass reads each line's text through a ResultIterator, quadratic in the page's words.
        ocr->api.SetVariable("paragraph_text_based", "0");
        *out = ocr.release();
        return ov::ok();
    });
}

void ov_ocr_free(ov_ocr *ocr) {
    if (!ocr) return;
    try {
        ocr->api.End();
    } catch (...) {
    }
    delete ocr;
}

ov_status ov_ocr_available_languages(const char *datapath, char **out) {
    return ov::guarded("ov_ocr_available_languages", [&]() -> ov_status {
        if (!out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no output pointer");
        *out = nullptr;
        std::string dir = resolveDatapath(datapath);
        if (!isDirectory(dir))
            return ov::fail(OV_ERR_MODEL, "Tesseract data folder " + withoutSlash(dir) + " does not exist");
        std::string list = join(installedLanguages(dir, false), "+");
        auto *buffer = static_cast<char *>(std::malloc(list.size() + 1));
        if (!buffer) return ov::fail(OV_ERR_OUT_OF_MEMORY, "out of memory");
        std::memcpy(buffer, list.c_str(), list.size() + 1);
        *out = buffer;
        return ov::ok();
    });
}

ov_status ov_ocr_recognize(ov_ocr *ocr, const ov_image *image, int minimum_text_height, int detect_orientation,
                           const ov_cancel *cancel, ov_text_result **out) {
    return ov::guarded("ov_ocr_recognize", [&]() -> ov_status {
        if (!out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no output handle");
        *out = nullptr;
        if (!ocr || !image) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no OCR engine or image");
        if (image->empty()) return ov::fail(OV_ERR_INVALID_ARGUMENT, "empty image");

        auto result = std::make_unique<ov_text_result>();
        const cv::Mat &gray = image->gray();
        // Tesseract cannot lay out anything this small; there is no text to find.
        if (gray.cols < kMinimumSide || gray.rows < kMinimumSide) {
            *out = result.release();
            return ov::ok();
        }

        keepOpenMPOnCallingThread();
        ReadLimits limits;
        limits.cancel = cancel;
        struct CurrentLimits {
            explicit CurrentLimits(ReadLimits *limits) { currentLimits = limits; }
            ~CurrentLimits() { currentLimits = nullptr; }
        } scope(&limits);
        auto cancelled = [] { return ov::fail(OV_ERR_CANCELLED, "text recognition was cancelled"); };
        auto turned = [](const cv::Mat &page, int degrees) {
            cv::Mat upright;
            cv::rotate(page, upright, degrees == 90 ? cv::ROTATE_90_COUNTERCLOCKWISE
                                      : degrees == 180 ? cv::ROTATE_180 : cv::ROTATE_90_CLOCKWISE);
            return upright;
        };
        const auto firstStart = threadCPUTime();
        std::vector<LineRecord> lines;
        if (!readPage(ocr->api, gray, minimum_text_height, lines)) {
            if (limits.cancelled) return cancelled();
            return ov::fail(OV_ERR_INTERNAL, "Tesseract failed to recognise the image");
        }
        if (limits.cancelled) return cancelled();
        int orientation = 0;
        if (detect_orientation) {
            orientation = layoutOrientation(lines);
            const double quality = readQuality(lines);
            // No word read (a photo): nothing to turn, and OSD is not asked. A confident read stands.
            if (quality < kConfidentPage && anyWords(lines)) {
                // The search's bound: three times the first read and 5 s, of this thread's CPU time.
                const auto firstRead = threadCPUTime() - firstStart;
                limits.hasDeadline = true;
                limits.deadline = threadCPUTime() + 3 * firstRead + std::chrono::seconds(5);
                // A larger page is judged on its central kSamplePixels (the same crop in every turn).
                const bool sampled = static_cast<long>(gray.cols) * gray.rows > kSamplePixels;
                cv::Mat sample = gray;
                double sampleQuality = quality;
                if (sampled) {
                    const int w = std::min(gray.cols, 1024), h = std::min(gray.rows, static_cast<int>(kSamplePixels / w));
                    sample = gray(cv::Rect((gray.cols - w) / 2, (gray.rows - h) / 2, w, h));
                    std::vector<LineRecord> asGiven;
                    readPage(ocr->api, sample, minimum_text_height, asGiven);
                    sampleQuality = readQuality(asGiven);
                }
                // OSD's answer first; then, while no read is confident, each other turn: OSD cannot tell on a single
                // line (too few characters) and misjudges small italic text (oblique-20 upside down: "0°").
                const int osd = limits.stopped() ? 0 : detectOrientation(*ocr, sample);
                std::vector<int> turns;
                if (osd > 0) turns = {osd};
                for (int degrees : {180, 90, 270})
                    if (degrees != osd) turns.push_back(degrees);
                double best = sampleQuality;
                int bestTurn = 0;
                std::vector<LineRecord> bestLines;
                cv::Size bestSize;
                for (int degrees : turns) {
                    if (limits.stopped()) break;
                    cv::Mat upright = turned(sample, degrees);
                    std::vector<LineRecord> again;
                    if (!readPage(ocr->api, upright, minimum_text_height, again)) {
                        if (limits.stopped()) break;
                        continue;
                    }
                    if (limits.stopped()) break;
                    const double q = readQuality(again);
                    if (q > best) {
                        best = q;
                        bestTurn = degrees;
                        bestLines = std::move(again);
                        bestSize = upright.size();
                    }
                    if (best >= kConfidentPage) break;
                }
                if (limits.cancelled) return cancelled();
                if (bestTurn != 0 && sampled && (best >= kConfidentPage || best >= sampleQuality + kClearlyBetter)) {
                    // The sample says the page is turned: the whole page, read in that turn, replaces the first read
                    // if it reads better (without the search's deadline: this is the page's one read upright).
                    limits.hasDeadline = false;
                    limits.timedOut = false;
                    cv::Mat upright = turned(gray, bestTurn);
                    bestLines.clear();
                    if (!readPage(ocr->api, upright, minimum_text_height, bestLines)) bestLines.clear();
                    if (limits.cancelled) return cancelled();
                    best = readQuality(bestLines);
                    bestSize = upright.size();
                } else if (sampled) {
                    bestTurn = 0;
                }
                if (bestTurn != 0 && best > quality) {
                    // The turned page's lines may still run turned (Tesseract reads text turned 90° clockwise by
                    // itself): the page's orientation is the turn plus theirs.
                    orientation = (bestTurn + layoutOrientation(bestLines)) % 360;
                    mapFromUpright(bestLines, bestTurn, bestSize);
                    lines = std::move(bestLines);
                }
            }
        }
        assemble(lines, *result);
        result->orientation = lines.empty() ? 0 : orientation;
        *out = result.release();
        return ov::ok();
    });
}

int ov_text_result_orientation(const ov_text_result *result) { return result ? result->orientation : 0; }

int ov_text_result_count(const ov_text_result *result) {
    return result ? static_cast<int>(result->items.size()) : 0;
}

const ov_text_item *ov_text_result_items(const ov_text_result *result) {
    return result && !result->items.empty() ? result->items.data() : nullptr;
}

const char *ov_text_result_text(const ov_text_result *result) { return result ? result->text.c_str() : ""; }

void ov_text_result_free(ov_text_result *result) { delete result; }

}  // extern "C"
