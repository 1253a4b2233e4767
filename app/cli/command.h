#pragma once
// Subcommand registry of throughline-cli. QCommandLineParser has no subcommands, so main() takes
// the first positional argument as the command name and hands the rest to the command, which
// parses it with a parser pre-loaded with the global options (so they work before or after it).
//
// Adding a command: a new app/cli/<name>command.cpp containing
//   THROUGHLINE_CLI_COMMAND(name, "one-line summary", runFunction)
// plus one line in app/CMakeLists.txt's throughline-cli source list.

#include <QCommandLineParser>
#include <QString>
#include <QStringList>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

namespace Throughline::Cli {

struct GlobalOptions {
    QString db;           // --db PATH ("" = THROUGHLINE_DB, else the default location)
    QString logLevel;     // --log-level debug|info|warning|error
    bool json = false;    // --json: machine output on stdout, human output on stderr
    bool noColor = false; // --no-color (also NO_COLOR env or a non-terminal stream)
};

class Context
{
public:
    Context(QString command, QStringList args);

    const QString &command() const { return m_command; }
    // argv for the command's parser: program name + everything except the command token.
    const QStringList &arguments() const { return m_args; }
    const GlobalOptions &global() const { return m_global; }

    // A parser with the global options and --help already added. Call parse() then read options.
    void setupParser(QCommandLineParser &parser, const QString &description, const QString &positional,
                     const QString &positionalHelp) const;
    // Processes the arguments: prints errors/help. Returns -1 to continue, else an exit code.
    int parse(QCommandLineParser &parser);

    // Human-readable output: stdout normally, stderr with --json.
    std::FILE *human() const { return m_global.json ? stderr : stdout; }
    std::FILE *machine() const { return stdout; }
    bool colorOn(std::FILE *stream) const;
    std::string paint(std::FILE *stream, const char *ansi, const std::string &text) const;

    // Prints "throughline-cli COMMAND: message" on stderr and returns ExitBadInput.
    int usageError(const QString &message) const;

private:
    QString m_command;
    QStringList m_args;
    GlobalOptions m_global;
};

struct Command {
    QString name;
    QString summary;
    std::function<int(Context &)> run;
};

class Registry
{
public:
    static Registry &instance();
    void add(Command command);
    const Command *find(const QString &name) const;
    std::vector<Command> sorted() const;

private:
    std::vector<Command> m_commands;
};

struct Registration {
    Registration(const char *name, const char *summary, std::function<int(Context &)> run)
    {
        Registry::instance().add(
            Command{QString::fromUtf8(name), QString::fromUtf8(summary), std::move(run)});
    }
};

// Global options shared by main() and every command parser.
void addGlobalOptions(QCommandLineParser &parser);
GlobalOptions readGlobalOptions(const QCommandLineParser &parser);
void applyLogLevel(const QString &level);

} // namespace Throughline::Cli

#define THROUGHLINE_CLI_CONCAT2(a, b) a##b
#define THROUGHLINE_CLI_CONCAT(a, b) THROUGHLINE_CLI_CONCAT2(a, b)
#define THROUGHLINE_CLI_COMMAND(name, summary, fn)                                                           \
    static const ::Throughline::Cli::Registration THROUGHLINE_CLI_CONCAT(s_cliCommand_,                      \
                                                                         __LINE__)(name, summary, fn)
