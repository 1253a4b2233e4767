#include "ui/report/sentenceforms.h"

#include <QCoreApplication>
#include <QStringList>

namespace Throughline {

namespace {

// %1…%9 filled in one pass, so a captured text holding "%2" (a URL, an error message) stays as it is.
QString fill(const QString &text, const QStringList &args)
{
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const int n = i + 1 < text.size() ? text[i + 1].digitValue() : -1;
        if (text[i] == u'%' && n >= 1 && n <= args.size()) {
            out += args[n - 1];
            ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

} // namespace

SentenceForms::SentenceForms(const char *context, std::span<const SentenceForm> forms)
    : m_context(context)
{
    m_forms.reserve(forms.size());
    for (const SentenceForm &f : forms)
        m_forms.emplace_back(
            QRegularExpression(QRegularExpression::anchoredPattern(QString::fromUtf8(f.pattern))), &f);
}

QString SentenceForms::translateList(const QString &joined) const
{
    QStringList parts = joined.split(u"; "_qs);
    for (QString &p : parts)
        p = translate(p);
    return parts.join(u"; "_qs);
}

QString SentenceForms::translate(const QString &text) const
{
    for (const auto &[re, form] : m_forms) {
        const QRegularExpressionMatch m = re.match(text);
        if (!m.hasMatch())
            continue;
        QStringList args;
        for (int i = 1; i <= re.captureCount(); ++i) {
            const unsigned bit = captureBit(i);
            args << ((form->list & bit)     ? translateList(m.captured(i))
                     : (form->nested & bit) ? translate(m.captured(i))
                                            : m.captured(i));
        }
        return fill(QCoreApplication::translate(m_context, form->text), args);
    }
    return text;
}

bool SentenceForms::known(const QString &text) const
{
    for (const auto &entry : m_forms)
        if (entry.first.match(text).hasMatch())
            return true;
    return false;
}

} // namespace Throughline
