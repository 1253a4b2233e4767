// throughline: the desktop app. Parses arguments and wires the window to the simulator launcher.
#include "core/sim/simlauncher.h"
#include "core/storage/historypath.h"
#include "ui/mainwindow.h"
#include "ui/pages/runpage.h"
#include "ui/settings/preferences.h"
#include "ui/settings/translationloader.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QStyleFactory>

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Throughline"));
    QApplication::setApplicationName(QStringLiteral("throughline"));
    QApplication::setApplicationVersion(QStringLiteral(THROUGHLINE_VERSION));
    // Fusion renders the Light / Dark palettes the same on every platform.
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));

    // Language before the first tr(): --lang, else the setting (View ▸ Language), else the system locale.
    QString language = Throughline::TranslationLoader::languageArgument(QApplication::arguments());
    if (language.isEmpty())
        language = Throughline::Preferences().language();
    Throughline::TranslationLoader::install(&app, Throughline::TranslationLoader::resolve(language));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QApplication::translate("main", "Desktop workbench for LLM-inference benchmark campaigns"));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption dbOption(
        QStringLiteral("db"), QApplication::translate("main", "History database."), QStringLiteral("PATH"));
    const QCommandLineOption freshOption(
        QStringLiteral("no-restore"), QApplication::translate("main", "Do not restore the window layout."));
    const QCommandLineOption langOption(
        QStringLiteral("lang"), QApplication::translate("main", "Interface language: system, en or de."),
        QStringLiteral("LANG"));
    parser.addOption(langOption);
    parser.addOption(dbOption);
    parser.addOption(freshOption);
    parser.addPositionalArgument(QStringLiteral("campaign"),
                                 QApplication::translate("main", "Campaign file to open."),
                                 QStringLiteral("[campaign.json]"));
    parser.process(app);

    Throughline::MainWindow::Options options;
    options.databasePath =
        QString::fromStdString(Throughline::HistoryPath::resolve(parser.value(dbOption).toStdString()));
    options.campaignFile = parser.positionalArguments().value(0);
    options.restoreState = !parser.isSet(freshOption);
    Throughline::MainWindow window(options);
    window.runPage()->setSimLauncher(Throughline::SimLauncher(&Throughline::launchSimulator));
    window.show();
    return QApplication::exec();
}
