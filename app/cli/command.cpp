#include "command.h"

#include "core/util/exitcodes.h"

#include <QLoggingCategory>

#include <algorithm>
#include <cstdlib>
#include <unistd.h>

namespace Throughline::Cli {

Context::Context(QString command, QStringList args)
    : m_command(std::move(command))
    , m_args(std::move(args))
{
}

void addGlobalOptions(QCommandLineParser &parser)
{
    parser.addOption({u"db"_qs, u"History database (default: THROUGHLINE_DB, else the per-user location)."_qs,
                      u"path"_qs});
    parser.addOption(
        {u"log-level"_qs, u"Log level: debug, info, warning or error (default warning)."_qs, u"level"_qs});
    parser.addOption({u"json"_qs, u"Machine-readable output on stdout; human output goes to stderr."_qs});
    parser.addOption({u"no-color"_qs, u"Do not colour the output."_qs});
}

GlobalOptions readGlobalOptions(const QCommandLineParser &parser)
{
    GlobalOptions g;
    g.db = parser.value(u"db"_qs);
    g.logLevel = parser.value(u"log-level"_qs);
    g.json = parser.isSet(u"json"_qs);
    g.noColor = parser.isSet(u"no-color"_qs);
    return g;
}

void applyLogLevel(const QString &level)
{
    // Categories are "throughline.<module>"; below the chosen level they are switched off.
    QString rules;
    const QString l = level.isEmpty() ? u"warning"_qs : level;
    if (l == u"debug")
        rules = u"throughline.*.debug=true"_qs;
    else if (l == u"info")
        rules = u"throughline.*.debug=false\nthroughline.*.info=true"_qs;
    else if (l == u"warning")
        rules = u"throughline.*.debug=false\nthroughline.*.info=false"_qs;
    else
        rules = u"throughline.*.debug=false\nthroughline.*.info=false\nthroughline.*.warning=false"_qs;
    QLoggingCategory::setFilterRules(rules);
}

void Context::setupParser(QCommandLineParser &parser, const QString &description, const QString &positional,
                          const QString &positionalHelp) const
{
    parser.setApplicationDescription(description);
    parser.addHelpOption();
    addGlobalOptions(parser);
    if (!positional.isEmpty())
        parser.addPositionalArgument(positional, positionalHelp);
}

int Context::parse(QCommandLineParser &parser)
{
    if (!parser.parse(m_args))
        return usageError(parser.errorText());
    m_global = readGlobalOptions(parser);
    const QStringList levels{u"debug"_qs, u"info"_qs, u"warning"_qs, u"error"_qs};
    if (!m_global.logLevel.isEmpty() && !levels.contains(m_global.logLevel))
        return usageError(u"--log-level: expected debug, info, warning or error, got '"_qs +
                          m_global.logLevel + u"'"_qs);
    applyLogLevel(m_global.logLevel);
    if (parser.isSet(u"help"_qs)) {
        std::fputs(parser.helpText().toLocal8Bit().constData(), stdout);
        return ExitOk;
    }
    return -1;
}

bool Context::colorOn(std::FILE *stream) const
{
    if (m_global.noColor || std::getenv("NO_COLOR"))
        return false;
    return isatty(fileno(stream)) != 0;
}

std::string Context::paint(std::FILE *stream, const char *ansi, const std::string &text) const
{
    if (!colorOn(stream))
        return text;
    return std::string("\x1b[") + ansi + "m" + text + "\x1b[0m";
}

int Context::usageError(const QString &message) const
{
    std::fprintf(stderr, "throughline-cli %s: %s\n", m_command.toLocal8Bit().constData(),
                 message.toLocal8Bit().constData());
    std::fprintf(stderr, "Try 'throughline-cli %s --help'.\n", m_command.toLocal8Bit().constData());
    return ExitBadInput;
}

Registry &Registry::instance()
{
    static Registry r;
    return r;
}

void Registry::add(Command command)
{
    m_commands.push_back(std::move(command));
}

const Command *Registry::find(const QString &name) const
{
    for (const auto &c : m_commands) {
        if (c.name == name)
            return &c;
    }
    return nullptr;
}

std::vector<Command> Registry::sorted() const
{
    auto v = m_commands;
    std::sort(v.begin(), v.end(), [](const Command &a, const Command &b) { return a.name < b.name; });
    return v;
}

} // namespace Throughline::Cli
