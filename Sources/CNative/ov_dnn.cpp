// OpenCV DNN backend: Darknet, Caffe, TensorFlow and ONNX models through cv::dnn (OpenCV 4.6).
//
// Decisions
//   - The files are checked in Swift before they get here (ModelFileChecks); any exception OpenCV's
//     importers still throw (std::out_of_range, protobuf's CHECK failures) is the file's fault:
//     OV_ERR_MODEL, not an internal error. Only std::bad_alloc stays out of memory.
//   - Before the first run of each input shape, the outputs of every layer for that shape are summed
//     from OpenCV's shape inference (getLayersShapes; nothing allocated); a sum past
//     ov_model_memory_limit() is refused as OV_ERR_OUT_OF_MEMORY instead of being allocated and computed.
#include "ov_internal.hpp"
#include "ov_dnn.h"
#include "ov_limits.h"

#include <opencv2/dnn.hpp>

#include <limits>
#include <mutex>

struct ov_dnn_net {
    cv::dnn::Net net;
    std::vector<std::string> outputNames;
    std::mutex mutex;  // cv::dnn::Net::forward is not safe to call concurrently
    std::vector<int> checkedShape;  // the last input shape found within the memory limit (under mutex)
};

namespace {

/// The bytes of every layer's outputs (float32) for an input of `dims`, from OpenCV's shape inference (nothing
/// is allocated). Not Net::getMemoryConsumption: it sums in int and wraps past 2 GiB (5 GiB of outputs read
/// as 1.07 GB). Saturates at SIZE_MAX.
size_t layerOutputBytes(cv::dnn::Net &net, const std::vector<int> &dims) {
    std::vector<int> ids;
    std::vector<std::vector<cv::dnn::MatShape>> inputs, outputs;
    net.getLayersShapes(cv::dnn::MatShape(dims.begin(), dims.end()), ids, inputs, outputs);
    const size_t max = std::numeric_limits<size_t>::max();
    size_t total = 0;
    for (const auto &layer : outputs) {
        for (const cv::dnn::MatShape &shape : layer) {
            size_t bytes = sizeof(float);
            for (int d : shape) {
                const size_t n = d > 0 ? size_t(d) : 0;
                bytes = n != 0 && bytes > max / n ? max : bytes * n;
            }
            total = total > max - bytes ? max : total + bytes;
        }
    }
    return total;
}

}  // namespace

extern "C" {

ov_status ov_dnn_load(const char *model, const char *config, int threads, ov_dnn_net **out) {
    return ov::guarded("ov_dnn_load", [&]() -> ov_status {
        if (!model || !out) return ov::fail(OV_ERR_INVALID_ARGUMENT, "no model path");
        if (threads > 0) cv::setNumThreads(threads);
        cv::dnn::Net net;
        try {
            net = cv::dnn::readNet(model, config ? config : "");
        } catch (const cv::Exception &e) {
            return ov::fail(OV_ERR_MODEL, std::string("OpenCV DNN cannot load ") + model + ": " + e.err);
        } catch (const std::bad_alloc &) {
            throw;
        } catch (const std::exception &e) {
            return ov::fail(OV_ERR_MODEL, std::string("OpenCV DNN cannot load ") + model + ": " + e.what());
        }
        if (net.empty()) return ov::fail(OV_ERR_MODEL, std::string("OpenCV DNN cannot load ") + model);
        net.setPreferableBackend(cv::dnn::DNN_BACKEND_OPENCV);
        net.setPreferableTarget(cv::dnn::DNN_TARGET_CPU);
        auto *handle = new ov_dnn_net();
        handle->net = std::move(net);
        handle->outputNames = handle->net.getUnconnectedOutLayersNames();
        *out = handle;
        return ov::ok();
    });
}

void ov_dnn_free(ov_dnn_net *net) { delete net; }

int ov_dnn_output_count(const ov_dnn_net *net) { return net ? static_cast<int>(net->outputNames.size()) : 0; }

const char *ov_dnn_output_name(const ov_dnn_net *net, int index) {
    if (!net || index < 0 || index >= static_cast<int>(net->outputNames.size())) return "";
    return net->outputNames[index].c_str();
}

ov_status ov_dnn_run(ov_dnn_net *net, const float *input, const int64_t *shape, int rank, ov_tensors **out) {
    return ov::guarded("ov_dnn_run", [&]() -> ov_status {
        if (!net || !input || !shape || !out || rank < 1 || rank > 8)
            return ov::fail(OV_ERR_INVALID_ARGUMENT, "missing input or bad rank");
        std::vector<int> dims;
        for (int i = 0; i < rank; ++i) {
            if (shape[i] <= 0 || shape[i] > (1 << 24)) return ov::fail(OV_ERR_INVALID_ARGUMENT, "bad input dimension");
            dims.push_back(static_cast<int>(shape[i]));
        }
        // Wraps the caller's buffer; setInput copies it into the network.
        cv::Mat blob(rank, dims.data(), CV_32F, const_cast<float *>(input));
        std::vector<cv::Mat> results;
        {
            std::lock_guard<std::mutex> lock(net->mutex);
            if (dims != net->checkedShape) {
                size_t blobs = 0;
                try {
                    blobs = layerOutputBytes(net->net, dims);
                } catch (const cv::Exception &e) {
                    return ov::fail(OV_ERR_MODEL, std::string("OpenCV DNN cannot run this model: ") + e.err);
                }
                if (blobs > ov_model_memory_limit())
                    return ov::fail(OV_ERR_OUT_OF_MEMORY,
                                    "OpenCV DNN: the model's layer outputs for this input would take " +
                                        std::to_string(blobs >> 20) + " MiB, more than the " +
                                        std::to_string(ov_model_memory_limit() >> 20) +
                                        " MiB model memory limit (OPENVISION_MODEL_MEMORY_LIMIT)");
                net->checkedShape = dims;
            }
            try {
                net->net.setInput(blob);
                net->net.forward(results, net->outputNames);
            } catch (const cv::Exception &e) {
                // OpenCV DNN builds its layers on the first forward: a layer it cannot create or a graph that
                // does not fit its text file fails here. The input was checked above, so this is the model's fault.
                return ov::fail(OV_ERR_MODEL, std::string("OpenCV DNN cannot run this model: ") + e.err);
            }
        }
        std::vector<ov::TensorOut> tensors;
        for (size_t i = 0; i < results.size(); ++i) {
            cv::Mat m = results[i];
            if (m.depth() != CV_32F) m.convertTo(m, CV_32F);
            if (!m.isContinuous()) m = m.clone();
            ov::TensorOut t;
            t.name = i < net->outputNames.size() ? net->outputNames[i] : "output" + std::to_string(i);
            for (int d = 0; d < m.dims; ++d) t.shape.push_back(m.size[d]);
            const float *p = m.ptr<float>();
            t.data.assign(p, p + m.total());
            tensors.push_back(std::move(t));
        }
        *out = ov::make_tensors(std::move(tensors));
        return ov::ok();
    });
}

}  // extern "C"
