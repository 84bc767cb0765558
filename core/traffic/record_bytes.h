#pragma once

#include <QByteArray>

namespace inflight::traffic {

struct TrafficRecord;

// A record's bytes — method, path, query, both header lists, content types, request id and both
// bodies — copied into one block, each field then a slice that shares it. The log keeps one
// allocation per record instead of a dozen small ones kept alive from the parser and the
// responder, and dropping the oldest record frees that one block. Bodies are packed as they are:
// cut them to the log's caps first.
void packBytes(TrafficRecord& record);

// `size` bytes of `block` from `from`, sharing the block (no copy; a write to the slice copies
// it first, as for any shared QByteArray). The byte after the slice should be a '\0' of the block
// so that constData() reads as a terminated string, as it does for every QByteArray.
QByteArray sliceOf(const QByteArray& block, qsizetype from, qsizetype size);

} // namespace inflight::traffic
