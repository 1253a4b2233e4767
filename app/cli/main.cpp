// throughline-cli: headless front end. Dispatches on the first positional argument to a
// subcommand registered in app/cli/*command.cpp (see command.h).
#include "command.h"

#include "core/util/exitcodes.h"
#include "core/util/version.h"

#include <QCoreApplication>

#include <cstdio>
#include <memory>

#ifdef THROUGHLINE_CLI_REPORT
#include "reportcommand.h"
#endif

using namespace Throughline;

namespace {

// Global options that take a value: their value is not the subcommand.
bool takesValue(const QString &arg)
{
    return arg == u"--db" || arg == u"--log-level";
}

void printUsage(std::FILE *out)
{
    std::fprintf(out, "Usage: throughline-cli [global options] COMMAND [options] [args]\n\n"
                      "Headless LLM-inference benchmark campaigns.\n\nCommands:\n");
    for (const auto &c : Cli::Registry::instance().sorted())
        std::fprintf(out, "  %-12s %s\n", c.name.toLocal8Bit().constData(),
                     c.summary.toLocal8Bit().constData());
    std::fprintf(out,
                 "\nGlobal options:\n"
                 "  --db PATH           history database (else THROUGHLINE_DB, else the per-user default)\n"
                 "  --log-level LEVEL   debug, info, warning (default) or error\n"
                 "  --json              machine output on stdout, human output on stderr\n"
                 "  --no-color          no ANSI colours\n"
                 "  -h, --help          this help; COMMAND --help for a command's options\n"
                 "  -v, --version       version and git revision\n\n"
                 "Exit codes: 0 ok, 1 a scenario failed, 2 bad input or usage, 3 runtime error,\n"
                 "4 an invalid scenario and no failure, 130 interrupted.\n");
}

} // namespace

int main(int argc, char **argv)
{
#ifdef THROUGHLINE_CLI_REPORT
    const auto app =
        Cli::createApplication(argc, argv); // `report` paints: QApplication (offscreen without display)
#else
    const auto app = std::make_unique<QCoreApplication>(argc, argv);
#endif
    QCoreApplication::setOrganizationName(u"Throughline"_qs);
    QCoreApplication::setApplicationName(u"throughline"_qs);
    QCoreApplication::setApplicationVersion(QString::fromStdString(toolVersion()));

    const QStringList args = QCoreApplication::arguments();
    int commandIndex = -1;
    for (int i = 1; i < args.size(); ++i) {
        const QString &a = args[i];
        if (a == u"--") {
            break;
        }
        if (takesValue(a)) {
            ++i;
            continue;
        }
        if (!a.startsWith(u'-')) {
            commandIndex = i;
            break;
        }
    }

    if (commandIndex < 0) {
        // No command: only global flags are meaningful.
        QCommandLineParser parser;
        parser.addHelpOption();
        parser.addVersionOption();
        Cli::addGlobalOptions(parser);
        if (!parser.parse(args)) {
            std::fprintf(stderr, "throughline-cli: %s\n", parser.errorText().toLocal8Bit().constData());
            printUsage(stderr);
            return ExitBadInput;
        }
        if (parser.isSet(u"version"_qs)) {
            if (parser.isSet(u"json"_qs))
                std::printf("{\"tool_version\": \"%s\", \"git_sha\": \"%s\"}\n", toolVersion().c_str(),
                            gitSha().c_str());
            else
                std::printf("%s\n", versionLine().c_str());
            return ExitOk;
        }
        if (parser.isSet(u"help"_qs)) {
            printUsage(stdout);
            return ExitOk;
        }
        std::fprintf(stderr, "throughline-cli: missing COMMAND\n\n");
        printUsage(stderr);
        return ExitBadInput;
    }

    const QString name = args[commandIndex];
    const Cli::Command *command = Cli::Registry::instance().find(name);
    if (!command) {
        std::fprintf(stderr, "throughline-cli: unknown command '%s'\n\n", name.toLocal8Bit().constData());
        printUsage(stderr);
        return ExitBadInput;
    }
    QStringList rest = args;
    rest.removeAt(commandIndex);
    Cli::Context ctx(name, rest);
    return command->run(ctx);
}
