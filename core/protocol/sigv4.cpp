// AWS Signature Version 4 as a server checks it, for the SQS endpoint. The canonical request
// follows the SigV4 rules for services other than S3 and is byte for byte what botocore and the
// AWS JS SDK v3 (@smithy/signature-v4) sign; the error codes and messages are AWS's own.
#include "protocol/sigv4.h"

#include "engine/digest.h"
#include "text/ascii_case.h"
#include "text/hex.h"
#include "text/percent.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace inflight::protocol {

namespace {

using SysSeconds = std::chrono::sys_seconds;

constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";
constexpr std::string_view kTerminator = "aws4_request";
constexpr std::string_view kUnsignedPayload = "UNSIGNED-PAYLOAD";
// SDKs send a few hundred bytes; the cap bounds what one abusive header costs.
constexpr std::size_t kMaxAuthorizationBytes = 16 * 1024;
// botocore and the JS SDK sign fewer than ten headers.
constexpr std::size_t kMaxSignedHeaders = 64;
// The most bytes of one piece of client input a message quotes.
constexpr std::size_t kMaxQuoted = 160;
// AWS's longest presigned URL lifetime: a week.
constexpr std::int64_t kMaxExpiresSeconds = 7 * 24 * 60 * 60;

constexpr const char* kMismatchMessage
    = "The request signature we calculated does not match the signature you provided. Check your "
      "AWS Secret Access Key and signing method. Consult the service documentation for details.";

// ---- errors -------------------------------------------------------------------------------

SqsWireError incompleteSignature(const std::string& message)
{
    return {400, QByteArrayLiteral("IncompleteSignature"),
            QByteArrayLiteral("IncompleteSignatureException"), QString::fromUtf8(message), true};
}

SqsWireError signatureDoesNotMatch(const std::string& message, int status = 403)
{
    return {status, QByteArrayLiteral("SignatureDoesNotMatch"),
            QByteArrayLiteral("InvalidSignatureException"), QString::fromUtf8(message), true};
}

SqsWireError missingAuthenticationToken()
{
    return {403, QByteArrayLiteral("MissingAuthenticationToken"),
            QByteArrayLiteral("MissingAuthenticationTokenException"),
            QStringLiteral("Request is missing Authentication Token"), true};
}

SqsWireError unknownAccessKey()
{
    return {403, QByteArrayLiteral("InvalidClientTokenId"),
            QByteArrayLiteral("UnrecognizedClientException"),
            QStringLiteral("The security token included in the request is invalid."), true};
}

// Client input as a message quotes it: at most `limit` bytes, control bytes shown as '?'.
std::string quoted(std::string_view text, std::size_t limit = kMaxQuoted)
{
    std::string shown(text.substr(0, limit));
    for (char& c : shown) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 || byte == 0x7f)
            c = '?';
    }
    if (text.size() > limit)
        shown += "...";
    return shown;
}

// ---- bytes --------------------------------------------------------------------------------

bool isBlank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

// ---- the canonical request ----------------------------------------------------------------

struct QueryParameter {
    std::string name; // decoded
    std::string value;
};

std::vector<QueryParameter> decodeQuery(std::string_view query)
{
    std::vector<QueryParameter> parameters;
    while (!query.empty()) {
        const std::size_t end = query.find('&');
        const std::string_view pair = query.substr(0, end);
        query.remove_prefix(end == std::string_view::npos ? query.size() : end + 1);
        if (pair.empty())
            continue;
        const std::size_t equals = pair.find('=');
        parameters.push_back({text::percentDecoded(pair.substr(0, equals)),
                              equals == std::string_view::npos
                                  ? std::string()
                                  : text::percentDecoded(pair.substr(equals + 1))});
    }
    return parameters;
}

// The first parameter of that name (names are case-sensitive); nullptr when there is none.
const std::string* parameter(const std::vector<QueryParameter>& parameters, std::string_view name)
{
    for (const QueryParameter& p : parameters) {
        if (p.name == name)
            return &p.value;
    }
    return nullptr;
}

// Every parameter re-encoded, sorted by name then value; a presigned URL's own signature is not
// part of what it signs.
std::string canonicalQuery(const std::vector<QueryParameter>& parameters, bool presigned)
{
    std::vector<std::pair<std::string, std::string>> encoded;
    encoded.reserve(parameters.size());
    for (const QueryParameter& p : parameters) {
        if (presigned && p.name == "X-Amz-Signature")
            continue;
        std::pair<std::string, std::string> pair;
        text::appendPercentEncoded(pair.first, p.name, false);
        text::appendPercentEncoded(pair.second, p.value, false);
        encoded.push_back(std::move(pair));
    }
    std::sort(encoded.begin(), encoded.end());
    std::string query;
    for (const auto& [name, value] : encoded) {
        if (!query.empty())
            query += '&';
        query += name;
        query += '=';
        query += value;
    }
    return query;
}

// The path as sent, without dot segments and empty segments, then encoded again: botocore's
// quote(normalize_url_path(path), safe='/~') and the JS SDK's getCanonicalPath, so an escaped
// byte in the path ("%20") is signed as "%2520".
std::string canonicalUri(std::string_view path)
{
    std::vector<std::string_view> segments;
    for (std::string_view rest = path; !rest.empty();) {
        const std::size_t end = rest.find('/');
        const std::string_view segment = rest.substr(0, end);
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
        if (segment == "..") {
            if (!segments.empty())
                segments.pop_back();
        } else if (!segment.empty() && segment != ".") {
            segments.push_back(segment);
        }
    }
    std::string normalized = path.starts_with('/') ? "/" : "";
    for (std::size_t i = 0; i < segments.size(); ++i) {
        if (i > 0)
            normalized += '/';
        normalized += segments[i];
    }
    if (!segments.empty() && path.ends_with('/'))
        normalized += '/';
    if (normalized.empty())
        normalized = "/";
    std::string uri;
    text::appendPercentEncoded(uri, normalized, true);
    return uri;
}

// Trimmed, each inner run of whitespace one space: botocore's ' '.join(value.split()) and the JS
// SDK's trim().replace(/\s+/g, " ").
void appendCanonicalValue(std::string& out, std::string_view value)
{
    bool started = false;
    bool pendingSpace = false;
    for (const char c : value) {
        if (isBlank(c)) {
            pendingSpace = started;
            continue;
        }
        if (pendingSpace)
            out += ' ';
        out += c;
        started = true;
        pendingSpace = false;
    }
}

// The request's headers by lower-cased name, in arrival order within a name: one sort and a
// binary search per signed header, so many headers cost n log n, not n × signed.
class HeaderIndex {
public:
    explicit HeaderIndex(const QList<QPair<QByteArray, QByteArray>>& headers)
    {
        m_entries.reserve(static_cast<std::size_t>(headers.size()));
        for (qsizetype i = 0; i < headers.size(); ++i)
            m_entries.push_back({text::asciiLowercased(viewOf(headers[i].first)), i});
        std::sort(m_entries.begin(), m_entries.end());
    }

    // The positions of that (lower-case) name's headers in the request, in arrival order.
    auto positions(const std::string& name) const
    {
        return std::equal_range(m_entries.begin(), m_entries.end(), std::pair(name, qsizetype(0)),
                                [](const auto& a, const auto& b) { return a.first < b.first; });
    }

private:
    std::vector<std::pair<std::string, qsizetype>> m_entries;
};

// "name:value\n" for every signed header in the order SignedHeaders lists them, same-name values
// joined by ','. IncompleteSignature for a list AWS would refuse.
WireResult<std::string> canonicalHeaders(const HttpRequest& request, std::string_view signedHeaders)
{
    const auto count
        = static_cast<std::size_t>(std::count(signedHeaders.begin(), signedHeaders.end(), ';')) + 1;
    if (count > kMaxSignedHeaders)
        return incompleteSignature("SignedHeaders names " + std::to_string(count)
                                   + " headers; at most " + std::to_string(kMaxSignedHeaders)
                                   + " are accepted.");
    std::vector<std::string> names;
    names.reserve(count);
    for (std::string_view rest = signedHeaders;;) {
        const std::size_t end = rest.find(';');
        names.push_back(text::asciiLowercased(rest.substr(0, end)));
        if (names.back().empty())
            return incompleteSignature("SignedHeaders has an empty header name: '"
                                       + quoted(signedHeaders) + "'.");
        if (end == std::string_view::npos)
            break;
        rest.remove_prefix(end + 1);
    }
    if (std::find(names.begin(), names.end(), "host") == names.end())
        return incompleteSignature(
            "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.");
    const HeaderIndex index(request.headers);
    std::string out;
    for (const std::string& name : names) {
        const auto [first, last] = index.positions(name);
        if (first == last)
            return incompleteSignature("'" + quoted(name, 64)
                                       + "' is a 'SignedHeader' the request does not have.");
        out += name;
        out += ':';
        for (auto it = first; it != last; ++it) {
            if (it != first)
                out += ',';
            appendCanonicalValue(out, viewOf(request.headers[it->second].second));
        }
        out += '\n';
    }
    return out;
}

// x-amz-content-sha256 when the client sent it (the JS SDK does), else the body's SHA-256. A
// declared hash must be the body's: it is what the signature covers.
WireResult<std::string> payloadHash(const HttpRequest& request)
{
    const QByteArray declared = request.header(QByteArrayLiteral("x-amz-content-sha256"));
    if (declared.isEmpty())
        return engine::sha256Hex(viewOf(request.body));
    std::string hash(viewOf(declared));
    if (hash == kUnsignedPayload)
        return hash;
    if (hash.size() != 64 || !std::all_of(hash.begin(), hash.end(), [](char c) {
            return text::hexDigitValue(c) >= 0;
        }))
        return incompleteSignature("x-amz-content-sha256 must be UNSIGNED-PAYLOAD or the hex "
                                   "SHA-256 of the body, not '"
                                   + quoted(hash, 80) + "'.");
    if (!text::equalsIgnoringAsciiCase(hash, engine::sha256Hex(viewOf(request.body))))
        return signatureDoesNotMatch(
            "The provided 'x-amz-content-sha256' header does not match what was computed.");
    return hash;
}

// ---- time ---------------------------------------------------------------------------------

bool readDigits(std::string_view text, std::size_t at, std::size_t count, int& value)
{
    value = 0;
    for (std::size_t i = at; i < at + count; ++i) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        value = value * 10 + (text[i] - '0');
    }
    return true;
}

// AWS names ISO 8601 basic format whichever form the time came in (X-Amz-Date or Date).
SqsWireError malformedDate(std::string_view text)
{
    return incompleteSignature("Date must be in ISO-8601 'basic format'. Got '" + quoted(text, 40)
                               + "'. See http://en.wikipedia.org/wiki/ISO_8601");
}

// The time of those fields, read from `text`; malformedDate when they name none (a 30 February,
// a 24th hour).
WireResult<SysSeconds> civilTime(std::string_view text, int year, int month, int day, int hour,
                                 int minute, int second)
{
    const std::chrono::year_month_day date{std::chrono::year(year),
                                           std::chrono::month(static_cast<unsigned>(month)),
                                           std::chrono::day(static_cast<unsigned>(day))};
    if (!date.ok() || hour > 23 || minute > 59 || second > 59)
        return malformedDate(text);
    return std::chrono::sys_days(date) + std::chrono::hours(hour) + std::chrono::minutes(minute)
        + std::chrono::seconds(second);
}

// "20150830T123600Z": the X-Amz-Date form.
WireResult<SysSeconds> parseBasicIso(std::string_view text)
{
    int year, month, day, hour, minute, second;
    if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z' || !readDigits(text, 0, 4, year)
        || !readDigits(text, 4, 2, month) || !readDigits(text, 6, 2, day)
        || !readDigits(text, 9, 2, hour) || !readDigits(text, 11, 2, minute)
        || !readDigits(text, 13, 2, second))
        return malformedDate(text);
    return civilTime(text, year, month, day, hour, minute, second);
}

// "Sun, 30 Aug 2015 12:36:00 GMT": the Date header as HTTP/1.1 senders write it (IMF-fixdate),
// which SigV4 accepts in place of X-Amz-Date.
WireResult<SysSeconds> parseHttpDate(std::string_view text)
{
    static constexpr std::string_view kWeekdays = "MonTueWedThuFriSatSun";
    static constexpr std::string_view kMonths = "JanFebMarAprMayJunJulAugSepOctNovDec";
    if (text.size() != 29 || text.substr(3, 2) != ", " || text[7] != ' ' || text[11] != ' '
        || text[16] != ' ' || text[19] != ':' || text[22] != ':' || text.substr(25) != " GMT")
        return malformedDate(text);
    const std::size_t weekday = kWeekdays.find(text.substr(0, 3));
    const std::size_t month = kMonths.find(text.substr(8, 3));
    int day, year, hour, minute, second;
    if (weekday == std::string_view::npos || weekday % 3 != 0 || month == std::string_view::npos
        || month % 3 != 0 || !readDigits(text, 5, 2, day) || !readDigits(text, 12, 4, year)
        || !readDigits(text, 17, 2, hour) || !readDigits(text, 20, 2, minute)
        || !readDigits(text, 23, 2, second))
        return malformedDate(text);
    return civilTime(text, year, static_cast<int>(month / 3) + 1, day, hour, minute, second);
}

std::string basicIso(SysSeconds time)
{
    const auto midnight = std::chrono::floor<std::chrono::days>(time);
    const std::chrono::year_month_day date{midnight};
    const std::chrono::hh_mm_ss clock{time - midnight};
    char text[32];
    std::snprintf(text, sizeof text, "%04d%02u%02uT%02d%02d%02dZ", static_cast<int>(date.year()),
                  static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                  static_cast<int>(clock.hours().count()),
                  static_cast<int>(clock.minutes().count()),
                  static_cast<int>(clock.seconds().count()));
    return text;
}

std::string durationText(std::chrono::seconds duration)
{
    return duration.count() % 60 == 0 ? std::to_string(duration.count() / 60) + " min"
                                      : std::to_string(duration.count()) + " sec";
}

// AWS's own wording, e.g. "Signature expired: 20240101T000000Z is now earlier than
// 20240101T001500Z (20240101T003000Z - 15 min.)". `maxAge` is the clock skew, or a presigned
// URL's X-Amz-Expires.
WireStatus checkSigningTime(SysSeconds signedAt, SysSeconds now, std::chrono::seconds maxAge)
{
    const SysSeconds earliest = now - maxAge;
    if (signedAt < earliest)
        return signatureDoesNotMatch("Signature expired: " + basicIso(signedAt)
                                     + " is now earlier than " + basicIso(earliest) + " ("
                                     + basicIso(now) + " - " + durationText(maxAge) + ".)");
    const SysSeconds latest = now + kSignatureClockSkew;
    if (signedAt > latest)
        return signatureDoesNotMatch("Signature not yet current: " + basicIso(signedAt)
                                     + " is still later than " + basicIso(latest) + " ("
                                     + basicIso(now) + " + " + durationText(kSignatureClockSkew)
                                     + ".)");
    return engine::Done{};
}

// ---- what the request claims --------------------------------------------------------------

struct Claim {
    std::string credential; // "AKID/20240101/us-east-1/sqs/aws4_request"
    std::string signedHeaders;
    std::string signature;
    std::string date;      // the signing time as the request gives it
    bool httpDate = false; // `date` is a Date header, not ISO 8601 basic format
    std::optional<std::chrono::seconds> expires; // a presigned URL's X-Amz-Expires
};

// "AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…, Signature=…". AWS splits it on commas and
// whitespace alike, so "Credential= AKID/…" is refused for its lone "AKID/…".
WireResult<Claim> readAuthorizationHeader(const HttpRequest& request, std::string_view header)
{
    if (header.size() > kMaxAuthorizationBytes)
        return incompleteSignature("The Authorization header is longer than "
                                   + std::to_string(kMaxAuthorizationBytes) + " bytes.");
    Claim claim;
    const QByteArray amzDate = request.header(QByteArrayLiteral("x-amz-date"));
    claim.httpDate = amzDate.isEmpty();
    claim.date
        = claim.httpDate ? viewOf(request.header(QByteArrayLiteral("date"))) : viewOf(amzDate);

    bool first = true;
    for (std::string_view rest = header; !rest.empty();) {
        const std::size_t end = rest.find_first_of(", \t");
        const std::string_view token = rest.substr(0, end);
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
        if (token.empty())
            continue;
        if (std::exchange(first, false)) {
            if (token == kAlgorithm)
                continue;
            if (token.starts_with("AWS4-"))
                return incompleteSignature("Unsupported AWS 'algorithm': '" + quoted(token, 40)
                                           + "'.");
            break; // any other scheme (Basic, Bearer, a bare token) has none of the parts below
        }
        const std::size_t equals = token.find('=');
        if (equals == std::string_view::npos)
            return incompleteSignature("'" + quoted(token, 60)
                                       + "' not a valid key=value pair (missing equal-sign) in "
                                         "Authorization header: '"
                                       + quoted(header, 120) + "'.");
        const std::string_view key = token.substr(0, equals);
        const std::string_view value = token.substr(equals + 1);
        if (key == "Credential")
            claim.credential = value;
        else if (key == "SignedHeaders")
            claim.signedHeaders = value;
        else if (key == "Signature")
            claim.signature = value;
    }
    std::string missing;
    for (const auto& [name, value] :
         {std::pair("Credential", &claim.credential), std::pair("Signature", &claim.signature),
          std::pair("SignedHeaders", &claim.signedHeaders)}) {
        if (value->empty())
            missing += "Authorization header requires '" + std::string(name) + "' parameter. ";
    }
    if (claim.date.empty())
        missing += "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' "
                   "header. ";
    if (!missing.empty())
        return incompleteSignature(missing + "Authorization=" + quoted(header));
    return claim;
}

WireResult<Claim> readPresignedQuery(const std::vector<QueryParameter>& query)
{
    Claim claim;
    std::string algorithm;
    const std::pair<std::string_view, std::string*> fields[] = {
        {"X-Amz-Algorithm", &algorithm},       {"X-Amz-Credential", &claim.credential},
        {"X-Amz-Signature", &claim.signature}, {"X-Amz-SignedHeaders", &claim.signedHeaders},
        {"X-Amz-Date", &claim.date},
    };
    std::string missing;
    for (const auto& [name, target] : fields) {
        const std::string* value = parameter(query, name);
        if (value && !value->empty())
            *target = *value;
        else
            missing += "AWS query-string parameters must include '" + std::string(name) + "'. ";
    }
    if (!missing.empty())
        return incompleteSignature(missing + "Re-examine the query-string parameters.");
    if (algorithm != kAlgorithm)
        return incompleteSignature("Unsupported AWS 'algorithm': '" + quoted(algorithm, 40) + "'.");
    if (const std::string* expires = parameter(query, "X-Amz-Expires")) {
        int seconds = 0;
        if (expires->empty() || expires->size() > 6
            || !readDigits(*expires, 0, expires->size(), seconds) || seconds < 1
            || seconds > kMaxExpiresSeconds)
            return incompleteSignature("X-Amz-Expires must be a whole number of seconds from 1 to "
                                       + std::to_string(kMaxExpiresSeconds) + ", not '"
                                       + quoted(*expires, 20) + "'.");
        claim.expires = std::chrono::seconds(seconds);
    }
    return claim;
}

// ---- the signature ------------------------------------------------------------------------

struct Scope {
    std::string_view keyId;
    std::string_view date;
    std::string_view region;
    std::string_view service;
    std::string_view text; // "date/region/service/aws4_request", as the string to sign names it
};

// keyid/date/region/service/aws4_request. Any region and service is accepted, but the date must
// be the signing time's: AWS answers a wrong date or terminator with SignatureDoesNotMatch (403),
// not IncompleteSignature, listing every problem at once.
WireResult<Scope> readScope(std::string_view credential, const std::string& signingTime)
{
    if (std::count(credential.begin(), credential.end(), '/') != 4)
        return incompleteSignature("Credential must have exactly 5 slash-delimited elements, e.g. "
                                   "keyid/date/region/service/term, got '"
                                   + quoted(credential) + "'");
    std::array<std::string_view, 5> parts;
    std::string_view rest = credential;
    for (std::string_view& part : parts) {
        const std::size_t end = rest.find('/');
        part = rest.substr(0, end);
        rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    }
    const Scope scope{parts[0], parts[1], parts[2], parts[3],
                      credential.substr(parts[0].size() + 1)};
    const std::string_view signingDate = std::string_view(signingTime).substr(0, 8);
    std::string problems;
    const auto note = [&problems](const std::string& problem) {
        problems += problems.empty() ? problem : " " + problem;
    };
    if (scope.region.empty())
        note("Credential should be scoped to a valid region, not ''.");
    if (scope.service.empty())
        note("Credential should be scoped to correct service: 'sqs'.");
    if (parts[4] != kTerminator)
        note("Credential should be scoped with a valid terminator: 'aws4_request', not '"
             + quoted(parts[4], 40) + "'.");
    if (scope.date != signingDate)
        note("Date in Credential scope does not match YYYYMMDD from ISO-8601 version of date from "
             "HTTP: '"
             + quoted(scope.date, 40) + "' != '" + std::string(signingDate) + "', from '"
             + signingTime + "'.");
    if (!problems.empty())
        return signatureDoesNotMatch(problems);
    return scope;
}

using Mac = std::array<unsigned char, 32>;

Mac hmacSha256(std::string_view key, std::string_view data)
{
    Mac mac{};
    unsigned int length = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
         reinterpret_cast<const unsigned char*>(data.data()), data.size(), mac.data(), &length);
    return mac;
}

std::string_view bytesOf(const Mac& mac)
{
    return {reinterpret_cast<const char*>(mac.data()), mac.size()};
}

// kDate = HMAC("AWS4" + secret, date), kRegion, kService, then kSigning = HMAC(kService,
// "aws4_request"); the signature is HMAC(kSigning, stringToSign) in lower-case hex.
std::string signatureOf(const std::string& secret, const Scope& scope,
                        std::string_view stringToSign)
{
    const Mac date = hmacSha256("AWS4" + secret, scope.date);
    const Mac region = hmacSha256(bytesOf(date), scope.region);
    const Mac service = hmacSha256(bytesOf(region), scope.service);
    const Mac signing = hmacSha256(bytesOf(service), kTerminator);
    const Mac signature = hmacSha256(bytesOf(signing), stringToSign);
    return text::hexOf(signature.data(), signature.size());
}

WireStatus verify(const HttpRequest& request, const std::vector<QueryParameter>& query,
                  bool presigned, const Claim& claim, const CredentialStore& keys, SysSeconds now)
{
    const WireResult<SysSeconds> signedAt
        = claim.httpDate ? parseHttpDate(claim.date) : parseBasicIso(claim.date);
    if (!signedAt)
        return signedAt.error();
    const std::string signingTime = claim.httpDate ? basicIso(*signedAt) : claim.date;
    const WireResult<std::string> headers = canonicalHeaders(request, claim.signedHeaders);
    if (!headers)
        return headers.error();
    if (const WireStatus current
        = checkSigningTime(*signedAt, now, claim.expires.value_or(kSignatureClockSkew));
        !current)
        return current;
    const WireResult<Scope> scope = readScope(claim.credential, signingTime);
    if (!scope)
        return scope.error();
    const std::string* secret = keys.secretFor(scope->keyId);
    if (!secret)
        return unknownAccessKey();
    const WireResult<std::string> payload = payloadHash(request);
    if (!payload)
        return payload.error();

    const std::string canonical = std::string(viewOf(request.method)) + '\n'
        + canonicalUri(viewOf(request.path)) + '\n' + canonicalQuery(query, presigned) + '\n'
        + *headers + '\n' + claim.signedHeaders + '\n' + *payload;
    const std::string stringToSign = std::string(kAlgorithm) + '\n' + signingTime + '\n'
        + std::string(scope->text) + '\n' + engine::sha256Hex(canonical);
    const std::string expected = signatureOf(*secret, *scope, stringToSign);
    // Constant time, so the answer's timing tells nothing about how much of a guess was right.
    if (claim.signature.size() != expected.size()
        || CRYPTO_memcmp(claim.signature.data(), expected.data(), expected.size()) != 0)
        return signatureDoesNotMatch(kMismatchMessage);
    return engine::Done{};
}

} // namespace

WireStatus checkSignature(const HttpRequest& request, const CredentialStore& keys,
                          std::chrono::system_clock::time_point now)
{
    const std::vector<QueryParameter> query = decodeQuery(viewOf(request.query));
    const QByteArray authorization = request.header(QByteArrayLiteral("authorization"));
    const bool presigned = parameter(query, "X-Amz-Algorithm") != nullptr;
    // Two signatures would leave it open which one the request is checked by; AWS refuses with
    // 400.
    if (presigned && !authorization.isEmpty())
        return signatureDoesNotMatch("Found both 'X-Amz-Algorithm' as a query-string param and "
                                     "'Authorization' as HTTP header.",
                                     400);
    if (!presigned && authorization.isEmpty())
        return missingAuthenticationToken();
    const WireResult<Claim> claim = presigned
        ? readPresignedQuery(query)
        : readAuthorizationHeader(request, viewOf(authorization));
    if (!claim)
        return claim.error();
    return verify(request, query, presigned, *claim, keys,
                  std::chrono::floor<std::chrono::seconds>(now));
}

} // namespace inflight::protocol
