#pragma once

#include "traffic/traffic_record.h"

#include <QByteArray>
#include <QString>

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

} // namespace inflight::traffic
