#pragma once
// Chooses the interface language and installs the translators (Throughline's own catalogue, embedded
// by qt_add_translations at ":/i18n/throughline_<lang>.qm", plus Qt's qtbase_<lang>.qm for standard
// buttons and dialogs when the system has it). Called once in main() before any widget exists: the
// language is fixed for the life of the process, a change in the settings applies after a restart.
// GUI thread only.

#include <QString>
#include <QStringList>

class QCoreApplication;

namespace Throughline {

class TranslationLoader
{
public:
    // Languages with a catalogue, as ISO 639-1 codes; "en" (the source language) needs none.
    static QStringList availableLanguages();

    // Resolves a setting or --lang value: "" or "system" → the first of the system locale's UI
    // languages that is available, else "en"; "de", "de_DE", "de-AT" → "de"; unknown → "en".
    static QString resolve(const QString &requested);

    // The value of --lang in argv ("--lang de" or "--lang=de"), empty when absent. Scanned before
    // QCommandLineParser runs so that --help is already translated.
    static QString languageArgument(const QStringList &arguments);

    // Installs the translators for `language` (already resolved) on `app`. Returns false when the
    // catalogue is missing (English stays). Translators are children of `app`.
    static bool install(QCoreApplication *app, const QString &language);
};

} // namespace Throughline
