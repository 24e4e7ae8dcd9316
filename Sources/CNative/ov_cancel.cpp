// ov_cancel_* (ov_status.h): the flag long native work polls to stop early when its Swift task is cancelled.
#include "ov_status.h"

#include <atomic>
#include <new>

struct ov_cancel {
    std::atomic<int> set{0};
};

extern "C" {

ov_cancel *ov_cancel_create(void) { return new (std::nothrow) ov_cancel(); }

void ov_cancel_set(ov_cancel *flag) {
    if (flag) flag->set.store(1, std::memory_order_relaxed);
}

int ov_cancel_is_set(const ov_cancel *flag) { return flag ? flag->set.load(std::memory_order_relaxed) : 0; }

void ov_cancel_free(ov_cancel *flag) { delete flag; }

}  // extern "C"
