#pragma once

// The workspace at `path` for a benchmark, or the benchmark stops with why not.

#include "store/workspace_store.h"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace inflight::bench {

inline std::unique_ptr<store::WorkspaceStore> openStore(const std::string& path,
                                                        store::OpenMode mode,
                                                        store::StoreOptions options = {})
{
    auto opened = store::WorkspaceStore::open(path, mode, options);
    if (!opened) {
        std::fprintf(stderr, "cannot open %s: %s\n", path.c_str(), opened.error().message.c_str());
        std::exit(1);
    }
    return std::move(opened).value();
}

} // namespace inflight::bench
