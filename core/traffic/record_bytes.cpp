#include "traffic/record_bytes.h"

#include "traffic/traffic_record.h"

#include <array>
#include <cstring>

namespace inflight::traffic {

QByteArray sliceOf(const QByteArray& block, qsizetype from, qsizetype size)
{
    // A copy of the block's data pointer holds one more reference to it; only where it points and
    // how far change. data_ptr() does not detach.
    QByteArray::DataPointer shared = const_cast<QByteArray&>(block).data_ptr();
    shared.ptr += from;
    shared.size = size;
    return QByteArray(std::move(shared));
}

void packBytes(TrafficRecord& record)
{
    // Each field and a '\0' after it, in this order.
    const std::array<QByteArray*, 8> fields{&record.method,
                                            &record.path,
                                            &record.query,
                                            &record.requestId,
                                            &record.requestContentType,
                                            &record.responseContentType,
                                            &record.requestBody,
                                            &record.responseBody};
    qsizetype total = record.requestHeaders.packedSize() + record.responseHeaders.packedSize();
    for (const QByteArray* field : fields)
        total += field->size() + 1;
    QByteArray block(total, Qt::Uninitialized);
    char* const start = block.data(); // written before any slice shares the block
    char* at = start;
    std::array<qsizetype, fields.size()> offsets{};
    for (std::size_t i = 0; i < fields.size(); ++i) {
        offsets[i] = at - start;
        if (const qsizetype size = fields[i]->size(); size > 0) {
            std::memcpy(at, fields[i]->constData(), static_cast<std::size_t>(size));
            at += size;
        }
        *at++ = '\0';
    }
    const qsizetype requestHeadersAt = at - start;
    at = record.requestHeaders.write(at);
    const qsizetype responseHeadersAt = at - start;
    at = record.responseHeaders.write(at);
    for (std::size_t i = 0; i < fields.size(); ++i) // an empty field shares nothing
        *fields[i]
            = fields[i]->isEmpty() ? QByteArray() : sliceOf(block, offsets[i], fields[i]->size());
    record.requestHeaders.adopt(
        sliceOf(block, requestHeadersAt, responseHeadersAt - requestHeadersAt));
    record.responseHeaders.adopt(
        sliceOf(block, responseHeadersAt, (at - start) - responseHeadersAt));
}

} // namespace inflight::traffic
