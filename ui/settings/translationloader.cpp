#include "ui/settings/translationloader.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

namespace Throughline {

QStringList TranslationLoader::availableLanguages()
{
    return {QStringLiteral("en"), QStringLiteral("de")};
}

QString TranslationLoader::resolve(const QString &requested)
{
    const QStringList available = availableLanguages();
    auto match = [&available](const QString &tag) -> QString {
        // "de_DE", "de-AT", "de" → "de"
        const QString lang = tag.section(u'_', 0, 0).section(u'-', 0, 0).toLower();
        return available.contains(lang) ? lang : QString();
    };
    const QString r = requested.trimmed();
    if (r.isEmpty() || r.compare(u"system", Qt::CaseInsensitive) == 0) {
        for (const QString &tag : QLocale::system().uiLanguages()) {
            if (const QString lang = match(tag); !lang.isEmpty())
                return lang;
        }
        return QStringLiteral("en");
    }
    const QString lang = match(r);
    return lang.isEmpty() ? QStringLiteral("en") : lang;
}

QString TranslationLoader::languageArgument(const QStringList &arguments)
{
    for (qsizetype i = 1; i < arguments.size(); ++i) {
        const QString &a = arguments.at(i);
        if (a == u"--lang" || a == u"-lang")
            return arguments.value(i + 1);
        if (a.startsWith(u"--lang="))
            return a.mid(7);
    }
    return {};
}

bool TranslationLoader::install(QCoreApplication *app, const QString &language)
{
    if (language == u"en")
        return true;
    auto *own = new QTranslator(app);
    if (!own->load(QStringLiteral(":/i18n/throughline_%1.qm").arg(language))) {
        delete own;
        return false;
    }
    QCoreApplication::installTranslator(own);
    // Standard buttons (Save / Discard / Cancel), file dialogs: optional, Debian's qt6-translations-l10n.
    auto *qt = new QTranslator(app);
    if (qt->load(QLocale(language), QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    else
        delete qt;
    return true;
}

} // namespace Throughline
