// Form decoding by hand, because QUrlQuery cannot refuse what it cannot represent: it replaces
// bytes that are not UTF-8 with U+FFFD and even turns a percent-encoded U+FFFF into three of them,
// so a body would be stored other than as sent, or pass the engine's character check it fails.
// QByteArray::fromPercentEncoding does not check its hex digits ("%zz" becomes a byte), so the
// percent decoding is here too; QStringDecoder does the UTF-8 (utf8.h).
#include "protocol/form.h"

#include "protocol/utf8.h"

#include <QByteArrayView>

namespace inflight::protocol {

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return -1;
}

QByteArray percentDecoded(QByteArrayView text)
{
    QByteArray bytes;
    bytes.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        const int high = c == '%' && i + 2 < text.size() ? hexValue(text[i + 1]) : -1;
        const int low = high >= 0 ? hexValue(text[i + 2]) : -1;
        if (low >= 0) {
            bytes += char(high * 16 + low);
            i += 2;
        } else {
            bytes += c == '+' ? ' ' : c;
        }
    }
    return bytes;
}

} // namespace

std::optional<FormParameters> decodeForm(const QByteArray& encoded)
{
    FormParameters parameters;
    const QByteArrayView text(encoded);
    for (qsizetype start = 0; start < text.size();) {
        qsizetype end = text.indexOf('&', start);
        if (end < 0)
            end = text.size();
        const QByteArrayView pair = text.sliced(start, end - start);
        start = end + 1;
        if (pair.isEmpty())
            continue;
        const qsizetype equals = pair.indexOf('=');
        auto name = decodeUtf8(percentDecoded(equals < 0 ? pair : pair.first(equals)));
        auto value
            = decodeUtf8(percentDecoded(equals < 0 ? QByteArrayView() : pair.sliced(equals + 1)));
        if (!name || !value)
            return std::nullopt;
        parameters.append({std::move(*name), std::move(*value)});
    }
    return parameters;
}

} // namespace inflight::protocol
