// The three imgcodecs entry points the native layer uses, loaded on first use (see ov_lazy.hpp).
#pragma once

#include "ov_lazy.hpp"

#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>  // flags and declarations only; the module is not linked

#include <string>
#include <vector>

namespace ov::imgcodecs {

/// cv::imdecode(InputArray, int).
inline cv::Mat imdecode(cv::InputArray buffer, int flags) {
    using Fn = cv::Mat (*)(cv::InputArray, int);
    static const Fn fn = lazy::function<Fn>("imgcodecs", "_ZN2cv8imdecodeERKNS_11_InputArrayEi");
    return fn(buffer, flags);
}

/// cv::imencode(const String&, InputArray, std::vector<uchar>&, const std::vector<int>&).
inline bool imencode(const std::string &ext, cv::InputArray image, std::vector<uchar> &buffer, const std::vector<int> &params) {
    using Fn = bool (*)(const std::string &, cv::InputArray, std::vector<uchar> &, const std::vector<int> &);
    static const Fn fn = lazy::function<Fn>(
        "imgcodecs", "_ZN2cv8imencodeERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEERKNS_11_InputArrayERSt6vectorIhSaIhEERKSB_IiSaIiEE");
    return fn(ext, image, buffer, params);
}

/// cv::haveImageWriter(const String&).
inline bool haveImageWriter(const std::string &ext) {
    using Fn = bool (*)(const std::string &);
    static const Fn fn = lazy::function<Fn>("imgcodecs", "_ZN2cv15haveImageWriterERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE");
    return fn(ext);
}

}  // namespace ov::imgcodecs
