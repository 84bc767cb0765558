#pragma once

#include <QByteArrayView>
#include <QString>
#include <QStringDecoder>

#include <string_view>

namespace inflight::protocol {

// UTF-8 text to QString and back must keep every character. QString::fromUtf8 (and
// fromStdString) drops a leading U+FEFF as a byte-order mark, but in a message body, a tag or an
// attribute it is a character like any other: a body that starts with one comes back with it (and
// with the MD5 of what was sent). ConvertInitialBom keeps it.

// Text the engine holds (always UTF-8) as a QString, character for character.
inline QString textOf(std::string_view utf8)
{
    if (!utf8.starts_with("\xEF\xBB\xBF"))
        return QString::fromUtf8(utf8.data(), qsizetype(utf8.size()));
    QStringDecoder decoder(QStringDecoder::Utf8,
                           QStringDecoder::Flag::Stateless
                               | QStringDecoder::Flag::ConvertInitialBom);
    return decoder.decode(QByteArrayView(utf8.data(), qsizetype(utf8.size())));
}

} // namespace inflight::protocol
