#pragma once

#include "protocol/http_types.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

#include <cstdint>
#include <initializer_list>

namespace inflight::traffic {

using Headers = QList<QPair<QByteArray, QByteArray>>;

// A request's or answer's headers: the list as given until the log packs it into its record's
// block ("name\0value\0" each, record_bytes.h), so a stored record keeps none of the parser's
// small strings alive. Converts to and from Headers.
class PackedHeaders {
public:
    PackedHeaders() = default;
    PackedHeaders(const Headers& headers) : m_list(headers) {} // NOLINT: converts like its list
    PackedHeaders(Headers&& headers) : m_list(std::move(headers)) {} // NOLINT
    PackedHeaders(std::initializer_list<QPair<QByteArray, QByteArray>> headers) : m_list(headers) {}
    operator Headers() const { return list(); } // NOLINT
    Headers list() const;
    bool isEmpty() const { return m_list.isEmpty() && m_block.isEmpty(); }

    // The bytes of its packed form; write() puts that form at `at` and returns the end, and
    // adopt() then takes the slice of the record's block it was written to.
    qsizetype packedSize() const;
    char* write(char* at) const;
    void adopt(QByteArray block);

private:
    Headers m_list;     // until packed
    QByteArray m_block; // once packed
};

// Who sent a request, from what it sends (client_identity.h).
struct ClientIdentity {
    QString accessKeyId; // of the SigV4 credential scope (header or presigned URL); may be empty
    QString sdk;         // "aws-cli", "Boto3", "aws-sdk-js", "curl", …; empty when unknown
    QString sdkVersion;  // "2.9.19"; empty when unknown
    QString host;        // the peer's address without its port
    // What tells clients apart: access key and SDK, plus the host when there is no key. CLI calls
    // from one terminal with one key are one client, whatever their ports.
    QString key;
};

// One HTTP request the endpoint handled, SQS JSON, SQS Query and OCI REST alike.
struct TrafficRecord {
    std::uint64_t cursor = 0;    // the log's, from 1 up; never reused
    std::int64_t wallTimeMs = 0; // epoch ms of its arrival
    std::int64_t engineTimeMs = 0;
    ClientIdentity client;
    QString address; // "127.0.0.1:53412"
    QString userAgent;
    protocol::WireProtocol protocol = protocol::WireProtocol::SqsJson;
    QByteArray method;
    QByteArray path;
    QByteArray query;
    QString operation; // "SendMessage"; empty when the request named none
    QString queue;
    int status = 0; // 0 while waiting
    QString errorCode;
    QString errorMessage;
    std::int64_t latencyUs = 0; // arrival to answer
    QByteArray requestId;       // x-amzn-RequestId or opc-request-id of the answer
    QString outcome;            // "received 4 of max 10", "empty after a 20 s long poll", …
    // The reason behind the outcome (protocol/request_explanation.h), one or more sentences:
    // "0 available; 12 in flight (next visible in 4.2 s)", "receipt of receive #1, used after
    // receive #2 …"; empty when there is nothing to add.
    QString explanation;
    bool staleReceipt = false;      // a receipt of an earlier receive was used after a later one
    std::int64_t receivedAgain = 0; // a receive's messages received before (receive count > 1)
    std::int64_t succeeded = -1;    // messages or entries done (sent, received, deleted); -1: none
    std::int64_t failed = -1;       // batch entries failed; -1: not a batch
    bool waiting = false;           // a long poll not answered yet
    // The engine events its call caused: Event::sequence firstEvent … lastEvent (none when
    // lastEvent < firstEvent). A long poll's receive comes later, in the call that served it.
    std::uint64_t firstEvent = 0;
    std::uint64_t lastEvent = 0;
    PackedHeaders requestHeaders;
    PackedHeaders responseHeaders;
    QByteArray requestContentType;
    QByteArray responseContentType;
    // Bodies capped at the log's per-request limit; the flags say whether they were cut.
    QByteArray requestBody;
    QByteArray responseBody;
    qsizetype requestBodySize = 0; // before capping
    qsizetype responseBodySize = 0;
    bool requestTruncated = false;
    bool responseTruncated = false;

    bool isError() const { return status >= 400; }
    // The body bytes this record holds (what the log's total cap counts).
    qsizetype bodyBytes() const { return requestBody.size() + responseBody.size(); }
};

// The value of header `name` (any case) in `headers`; empty when absent.
QByteArray headerValue(const Headers& headers, const char* name);

// "SqsJson" → "sqs-json", "sqs-query", "oci-rest", "control".
const char* protocolName(protocol::WireProtocol protocol);

} // namespace inflight::traffic
