#pragma once

#include "protocol/http_types.h"

#include <QByteArray>

namespace inflight::protocol {

// The access key id of a SigV4 request: from `Authorization: AWS4-HMAC-SHA256
// Credential=AKID/date/region/service/aws4_request, …` or, without that header, a presigned URL's
// `X-Amz-Credential` (percent-encoded, its name in any case). Empty when the request carries
// neither. Read, not checked (sigv4.h checks signatures when --credentials asks for it); no
// allocation unless a key is found.
QByteArray accessKeyId(const QByteArray& authorization, const QByteArray& query);
QByteArray accessKeyId(const HttpRequest& request);

} // namespace inflight::protocol
