#pragma once

#include <cstddef>
#include <vector>

namespace inflight::ui {

// Calls `f(first, last)` for each run of consecutive rows in `sortedRows` (ascending, distinct),
// the last run first, so that removing a run leaves the rows of the runs still to come in place.
template <class F>
void forEachRunDescending(const std::vector<int>& sortedRows, F f)
{
    std::size_t end = sortedRows.size();
    while (end > 0) {
        std::size_t begin = end - 1;
        while (begin > 0 && sortedRows[begin - 1] + 1 == sortedRows[begin])
            --begin;
        f(sortedRows[begin], sortedRows[end - 1]);
        end = begin;
    }
}

} // namespace inflight::ui
