#pragma once

#include "protocol/credentials.h"
#include "protocol/error_mapping.h"
#include "protocol/http_types.h"

#include <chrono>

namespace inflight::protocol {

// How far the time a request was signed at may be from our clock, either way (AWS's 15 minutes).
inline constexpr std::chrono::minutes kSignatureClockSkew{15};

// Whether `request` carries a valid AWS Signature Version 4 by a key of `keys`: Done when it does,
// else the error AWS answers (all Sender faults):
// - no Authorization header and no X-Amz-Algorithm query parameter: 403
//   MissingAuthenticationToken;
// - a malformed signature (parts missing, an algorithm other than AWS4-HMAC-SHA256, a credential
//   that is not keyid/date/region/service/term, a date that is not ISO 8601 basic format, `host`
//   not signed, a signed header the request lacks): 400 IncompleteSignature;
// - a signing time more than kSignatureClockSkew from `now` (for a presigned URL: older than its
//   X-Amz-Expires), a scope date other than the signing date, a terminator other than
//   aws4_request, or a wrong signature: 403 SignatureDoesNotMatch (JSON InvalidSignatureException);
// - an access key id `keys` does not know: 403 InvalidClientTokenId (JSON
//   UnrecognizedClientException).
// Either form is read: the Authorization header (with X-Amz-Date, or Date, as the signing time)
// and the presigned query (X-Amz-Algorithm, -Credential, -Date, -SignedHeaders, -Signature and
// optionally -Expires). Any region and service name in the scope is accepted: the endpoint answers
// for every region, and clients sign with "sqs". The body is covered by its SHA-256, or by the
// x-amz-content-sha256 header when present (which must then match the body, or be
// UNSIGNED-PAYLOAD). Work is linear in the request's size and capped where a client chooses a
// count (signed headers); messages quote at most a few hundred bytes of the request.
WireStatus checkSignature(const HttpRequest& request, const CredentialStore& keys,
                          std::chrono::system_clock::time_point now);

} // namespace inflight::protocol
