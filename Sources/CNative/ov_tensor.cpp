// ov_tensors: the general container of named float32 tensors every inference backend returns (ORT's
// outputs, OpenCV DNN's), and its C accessors.
//
// Decisions
//   - A tensor either owns its data (storage) or points into a buffer the container keeps alive
//     (`owners`, e.g. an ORT OrtValue), so float32 outputs are never copied.
//   - Shapes are checked when a container is built (negative dimensions, element count overflow, data
//     size): the accessors can then trust them.
#include "ov_internal.hpp"
#include "ov_tensors.h"

#include <limits>
#include <memory>
#include <stdexcept>

namespace ov {

size_t elementCount(const std::vector<int64_t> &shape) {
    size_t count = 1;
    for (int64_t d : shape) {
        if (d < 0) throw std::invalid_argument("negative tensor dimension");
        if (d != 0 && count > std::numeric_limits<size_t>::max() / static_cast<size_t>(d))
            throw std::invalid_argument("tensor element count overflows");
        count *= static_cast<size_t>(d);
    }
    return count;
}

ov_tensors *make_tensors(std::vector<TensorOut> &&tensors) {
    auto result = std::make_unique<ov_tensors>();
    result->tensors.resize(tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i) {
        TensorOut &in = tensors[i];
        size_t count = elementCount(in.shape);
        if (count != in.data.size())
            throw std::invalid_argument("tensor '" + in.name + "': shape has " + std::to_string(count) +
                                        " elements but data has " + std::to_string(in.data.size()));
        ov_tensors::Tensor &t = result->tensors[i];
        t.name = std::move(in.name);
        t.shape = std::move(in.shape);
        t.storage = std::move(in.data);
        t.data = t.storage.empty() ? nullptr : t.storage.data();
        t.count = count;
    }
    tensors.clear();
    return result.release();
}

}  // namespace ov

extern "C" {

int ov_tensors_count(const ov_tensors *t) { return t ? static_cast<int>(t->tensors.size()) : 0; }

const float *ov_tensors_data(const ov_tensors *t, int index, int *rank, const int64_t **shape, size_t *element_count) {
    if (!t || index < 0 || static_cast<size_t>(index) >= t->tensors.size()) {
        if (rank) *rank = 0;
        if (shape) *shape = nullptr;
        if (element_count) *element_count = 0;
        return nullptr;
    }
    const ov_tensors::Tensor &tensor = t->tensors[static_cast<size_t>(index)];
    if (rank) *rank = static_cast<int>(tensor.shape.size());
    if (shape) *shape = tensor.shape.data();
    if (element_count) *element_count = tensor.count;
    return tensor.data;
}

const char *ov_tensors_name(const ov_tensors *t, int index) {
    if (!t || index < 0 || static_cast<size_t>(index) >= t->tensors.size()) return "";
    return t->tensors[static_cast<size_t>(index)].name.c_str();
}

void ov_tensors_free(ov_tensors *t) { delete t; }

}  // extern "C"
