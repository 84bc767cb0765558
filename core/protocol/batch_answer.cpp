#include "protocol/batch_answer.h"

#include "protocol/json_writer.h"
#include "protocol/xml_writer.h"

#include <algorithm>
#include <cstring>

namespace inflight::protocol {

namespace {

std::string_view viewOf(const QByteArray& bytes)
{
    return {bytes.constData(), std::size_t(bytes.size())};
}

// Whether JSON and XML text need nothing escaped or replaced in `id`: the batch entry ids an entry
// can succeed with (letters, digits, '-' and '_', §2.6) always do; anything else goes through the
// writers' checks.
bool isPlainId(std::string_view id)
{
    if (id.empty())
        return false; // the writer's choice between <Id/> and <Id></Id> stays its own
    for (const char c : id) {
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
            || (c >= '0' && c <= '9') || c == '-' || c == '_';
        if (!plain)
            return false;
    }
    return true;
}

} // namespace

void appendIdBatchJson(QByteArray& out, const IdBatch& batch)
{
    // Every entry done, each id plain (a delete batch nearly always): measured, then written in
    // one growth (an append a piece, each an out-of-line call, cost more than the ids).
    if (batch.failed.empty()
        && std::all_of(batch.successful.begin(), batch.successful.end(),
                       [](const std::string& id) { return isPlainId(id); })) {
        static constexpr std::string_view kHead = "{\"Failed\":[],\"Successful\":[";
        static constexpr std::string_view kOpen = "{\"Id\":\"";
        static constexpr std::string_view kClose = "\"}";
        std::size_t size
            = kHead.size() + 2 + (batch.successful.empty() ? 0 : batch.successful.size() - 1);
        for (const std::string& id : batch.successful)
            size += kOpen.size() + id.size() + kClose.size();
        const qsizetype start = out.size();
        out.resize(start + qsizetype(size));
        char* at = out.data() + start;
        const auto put = [&at](std::string_view piece) {
            std::memcpy(at, piece.data(), piece.size());
            at += piece.size();
        };
        put(kHead);
        for (std::size_t i = 0; i < batch.successful.size(); ++i) {
            if (i > 0)
                put(",");
            put(kOpen);
            put(batch.successful[i]);
            put(kClose);
        }
        put("]}");
        return;
    }
    std::size_t size = 32;
    for (const std::string& id : batch.successful)
        size += id.size() + 12;
    out.reserve(out.size() + qsizetype(size));
    out += "{\"Failed\":[";
    bool first = true;
    for (const IdBatch::Failure& failure : batch.failed) { // members in key order
        out += first ? "{\"Code\":" : ",{\"Code\":";
        first = false;
        appendJsonString(out, viewOf(failure.error.queryCode));
        out += ",\"Id\":";
        appendJsonString(out, failure.id);
        out += ",\"Message\":";
        appendJsonString(out, viewOf(failure.error.message.toUtf8()));
        out += failure.senderFault ? ",\"SenderFault\":true}" : ",\"SenderFault\":false}";
    }
    out += "],\"Successful\":[";
    first = true;
    for (const std::string& id : batch.successful) {
        out += first ? "{\"Id\":" : ",{\"Id\":";
        first = false;
        appendJsonString(out, id);
        out += '}';
    }
    out += "]}";
}

void writeIdBatchXml(XmlWriter& writer, const IdBatch& batch, std::string_view action)
{
    const std::string entry = std::string(action) + "ResultEntry";
    // A successful entry whole in one piece of markup (the writer's start, text and end cost
    // a Query delete batch more than the rest of its answer).
    const std::string open = "<" + entry + "><Id>";
    const std::string close = "</Id></" + entry + ">";
    std::string markup;
    for (const std::string& id : batch.successful) {
        if (!isPlainId(id)) {
            writer.startElement(entry);
            writer.textElement("Id", id);
            writer.endElement();
            continue;
        }
        markup.assign(open).append(id).append(close);
        writer.markup(markup);
    }
    for (const IdBatch::Failure& failure : batch.failed) {
        writer.startElement("BatchResultErrorEntry");
        writer.textElement("Id", failure.id);
        writer.textElement("SenderFault", failure.senderFault ? "true" : "false");
        writer.textElement("Code", viewOf(failure.error.queryCode));
        writer.textElement("Message", viewOf(failure.error.message.toUtf8()));
        writer.endElement();
    }
}

} // namespace inflight::protocol
