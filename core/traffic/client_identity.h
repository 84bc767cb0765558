#pragma once

#include "traffic/traffic_record.h"

#include <QByteArray>
#include <QString>

#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace inflight::traffic {

// The access key id of a SigV4 request, as protocol::accessKeyId (protocol/access_key.h) reads
// it: from `Authorization: AWS4-HMAC-SHA256 Credential=AKID/date/region/service/aws4_request, …`
// or a presigned URL's `X-Amz-Credential` (percent-encoded). Empty when the request carries
// neither.
QString accessKeyId(const QByteArray& authorization, const QByteArray& query);

// The SDK of a User-Agent and its version: the first product token Inflight knows, in the order of
// the table in client_identity.cpp (aws-cli before the botocore it runs on, Boto3 before
// botocore, the JS, Java and Go SDKs, curl, python-requests, node-fetch, browsers). Unknown
// agents give their first product token; an empty agent gives empty names.
struct SdkName {
    QString name;
    QString version;
};
SdkName parseUserAgent(const QByteArray& userAgent);

// Everything above for one request, with the client's key (ClientIdentity::key). `address` is the
// peer's "host:port".
ClientIdentity identify(const QByteArray& authorization, const QByteArray& query,
                        const QByteArray& userAgent, const QString& address);

// identify() for a busy endpoint: a client sends the same Authorization scope, User-Agent and
// host on every request, so the identity (and the User-Agent as text) is made once per distinct
// triple and then shared (implicitly shared QStrings: a copy allocates nothing). Holds at most
// kMaxEntries triples and starts afresh past that.
class ClientIdentities {
public:
    struct Known {
        ClientIdentity identity;
        QString userAgent;
    };
    const Known& identify(const QByteArray& authorization, const QByteArray& query,
                          const QByteArray& userAgent, const QString& address);

private:
    static constexpr std::size_t kMaxEntries = 1024;
    struct Entry {
        QByteArray scope; // the Authorization's access key id bytes, or the whole query
        QByteArray userAgent;
        QString host;
        Known known;
    };
    std::unordered_map<std::size_t, Entry> m_entries;
};

} // namespace inflight::traffic
