#pragma once
// Helpers shared by the telemetry tests: reading sample files (real expositions, CSVs) and walking their
// data lines.

#include <QFile>
#include <QString>

#include <string>
#include <vector>

namespace Throughline::TelemetryTest {

// The whole file; empty when it cannot be opened (the tests then fail on its content).
inline std::string readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    const QByteArray bytes = f.readAll();
    return std::string(bytes.constData(), static_cast<std::size_t>(bytes.size()));
}

// Real metric expositions and exporter tables shared with other tools.
inline QString samplesDir()
{
    return QStringLiteral(THROUGHLINE_SHARED_DIR "/data/samples/metrics");
}

// Every line without its '\n'; a final newline does not start another line.
inline std::vector<std::string> splitLines(const std::string &text)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string::npos)
            end = text.size();
        out.push_back(text.substr(pos, end - pos));
        pos = end + 1;
    }
    return out;
}

// Lines that are neither blank nor comments ('#' as the first non-blank character).
// Counted independently of the parser: a sample line of an exposition, a row of a CSV.
inline std::vector<std::string> dataLines(const std::string &text)
{
    std::vector<std::string> out;
    for (std::string &line : splitLines(text)) {
        const auto first = line.find_first_not_of(" \t\r");
        if (first != std::string::npos && line[first] != '#')
            out.push_back(std::move(line));
    }
    return out;
}

} // namespace Throughline::TelemetryTest
